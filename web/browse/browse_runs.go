package browse

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// runsPageSize is how many runs a page of /runs (and of the API) shows.
const runsPageSize = 50

// runsQuery is one page of /runs as the URL asks for it.
type runsQuery struct {
	filter store.RunFilter
	sort   store.RunSort
	after  *store.Cursor
}

func readRunsQuery(q url.Values) (runsQuery, error) {
	var rq runsQuery
	var err error
	if rq.filter, err = readFilter(q); err != nil {
		return rq, err
	}
	rq.sort = store.RunSort(q.Get("sort"))
	switch rq.sort {
	case "":
		rq.sort = store.SortNewest
	case store.SortNewest, store.SortSingle, store.SortPeak:
	default:
		return rq, badParam("sort")
	}
	if rq.after, err = store.DecodeCursor(q.Get("after")); err != nil {
		return rq, kit.ErrBadRequest
	}
	return rq, nil
}

// listRuns reads one page and the cursor of the next ("" at the end).
func (s *Handlers) listRuns(r *http.Request, rq runsQuery) ([]store.RunItem, string, error) {
	items, more, err := s.store.ListRuns(r.Context(), rq.filter, rq.sort, rq.after, runsPageSize)
	if err != nil || !more {
		return items, "", err
	}
	return items, items[len(items)-1].Cursor(rq.sort).Encode(), nil
}

// RunsPage is GET /runs: every run, newest first unless sorted otherwise,
// filtered by the URL, a page at a time.
func (s *Handlers) RunsPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	rq, err := readRunsQuery(r.URL.Query())
	if err != nil {
		return err
	}
	items, next, err := s.listRuns(r, rq)
	if err != nil {
		return err
	}
	choices, err := s.filterChoices(ctx)
	if err != nil {
		return err
	}
	p := browse.NewRunsPage(l, browse.RunsList{URL: r.URL, Filter: rq.filter, Sort: rq.sort, Items: items,
		Next: next, Paged: rq.after != nil}, choices)
	kit.KeptIf(w, r, len(items) > 0 || rq.filter == store.RunFilter{})
	return kit.Render(w, r, http.StatusOK, templates.RunsBrowse(s.Base(r, l.T("browse.runs.title", nil), l.T("browse.runs.description", nil)), p))
}

// apiRunList is the answer of GET /api/v1/runs.
type apiRunList struct {
	Runs []apiRunItem `json:"runs"`
	// Next is the cursor of the next page, empty on the last; NextURL is
	// the same request with it.
	Next    string `json:"next,omitempty"`
	NextURL string `json:"next_url,omitempty"`
}

type apiRunItem struct {
	ID            string           `json:"id"`
	URL           string           `json:"url"`
	Title         string           `json:"title"`
	UploadedAt    string           `json:"uploaded_at"`
	Demo          bool             `json:"demo,omitempty"`
	Hardware      catalog.Identity `json:"hardware"`
	Engine        apiEngine        `json:"engine"`
	Model         apiModel         `json:"model"`
	Submitter     *apiSubmitter    `json:"submitter"`
	BestSingleTPS *float64         `json:"best_single_tps"`
	BestPeakTPS   *float64         `json:"best_peak_tps"`
	// Flags are the stored plausibility flags ("above_bound",
	// "power_implausible").
	Flags []string `json:"flags"`
}

// apiSubmitter is who uploaded a run, the same object as the run
// document's "submitter": slug "" and verified false for a name typed
// without a token or session (claimed), which has no page.
type apiSubmitter = export.Submitter

// newAPISubmitter is the run's submitter (empty strings without a name).
func newAPISubmitter(it *store.RunItem) *apiSubmitter {
	sub := export.NewSubmitter(it.Submitter, it.SubmitterVerified, run.Org{Slug: it.OrgSlug, Name: it.OrgName})
	return &sub
}

type apiEngine struct {
	catalog.Identity
	Version      string `json:"version"`
	Quantization string `json:"quantization"`
}

type apiModel struct {
	catalog.Identity
	Base catalog.Identity `json:"base"`
}

// RunsJSON is GET /api/v1/runs: the runs of /runs as JSON, with the same
// parameters (model, hardware, engine, version, quant, submitter, sort,
// after).
func (s *Handlers) RunsJSON(w http.ResponseWriter, r *http.Request) error {
	l := i18n.FromContext(r.Context())
	rq, err := readRunsQuery(r.URL.Query())
	if err != nil {
		return err
	}
	items, next, err := s.listRuns(r, rq)
	if err != nil && errors.Is(err, store.ErrBadCursor) {
		return kit.ErrBadRequest
	}
	if err != nil {
		return err
	}
	out := apiRunList{Runs: make([]apiRunItem, 0, len(items)), Next: next}
	if next != "" {
		out.NextURL = s.Origin(r) + browse.WithParam(r.URL, "after", next)
	}
	for i := range items {
		it := &items[i]
		model, base := catalog.Model(it.ModelID)
		eng := catalog.Engine(it.EngineName)
		out.Runs = append(out.Runs, apiRunItem{
			ID: it.ID, URL: s.Origin(r) + paths.Run(it.ID), Title: browse.ItemTitle(l, it),
			UploadedAt: it.UploadedAt.Format("2006-01-02T15:04:05.999999Z07:00"), Demo: it.Demo,
			Hardware:      catalog.Hardware(browse.ItemHardware(it)),
			Engine:        apiEngine{Identity: eng, Version: it.EngineVersion, Quantization: it.Quantization},
			Model:         apiModel{Identity: model, Base: base},
			Submitter:     newAPISubmitter(it),
			BestSingleTPS: it.BestSingleTPS, BestPeakTPS: it.BestPeakTPS, Flags: append([]string{}, it.Flags...),
		})
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "no-cache")
	return kit.WriteJSON(w, http.StatusOK, out)
}
