package browse

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/history"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/regressview"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// historyStore is what the history area needs of the database.
type historyStore interface {
	History(ctx context.Context, q store.HistoryQuery) ([]store.HistoryPoint, error)
	HistoryChoices(ctx context.Context, q store.HistoryQuery) (store.HistoryOptions, error)
	SetupsWithHistory(ctx context.Context, kind, slug string, limit int) ([]store.Setup, error)
	VersionChanges(ctx context.Context, q store.VersionChangeQuery) ([]store.VersionChange, error)
}

// entityHistories is how many setups an entity page links to the history of.
const entityHistories = 10

// histories are the links an entity page gives to the histories of its
// setups, each named "model · hardware · engine · quantization".
func (s *Handlers) histories(ctx context.Context, l *i18n.Localizer, kind, slug string) ([]browse.Link, error) {
	setups, err := s.store.SetupsWithHistory(ctx, kind, slug, entityHistories)
	if err != nil || len(setups) == 0 {
		return nil, err
	}
	names := map[string]map[string]string{}
	for _, k := range []string{store.KindModel, store.KindHardware, store.KindEngine} {
		var slugs []string
		for _, st := range setups {
			slugs = append(slugs, map[string]string{store.KindModel: st.Model, store.KindHardware: st.Hardware, store.KindEngine: st.Engine}[k])
		}
		if names[k], err = s.store.IdentityNames(ctx, k, slugs); err != nil {
			return nil, err
		}
	}
	name := func(k, slug string) string { return cmp.Or(names[k][slug], slug) }
	out := make([]browse.Link, len(setups))
	for i, st := range setups {
		text := strings.Join([]string{name(store.KindModel, st.Model), name(store.KindHardware, st.Hardware),
			name(store.KindEngine, st.Engine), st.Quantization}, l.T("common.dot_sep", nil))
		out[i] = browse.Link{Href: history.URL(st.HistoryQuery), Text: text}
	}
	return out, nil
}

var errHistoryParams = &kit.HTTPError{Status: http.StatusBadRequest, Key: "history.error.params"}

// readHistoryQuery reads /history's setup (model, hardware and engine are
// required; quant is optional) and cell ("cell=32768x8", default 0 × 1).
func readHistoryQuery(qv url.Values) (store.HistoryQuery, error) {
	q := store.HistoryQuery{Model: qv.Get("model"), Hardware: qv.Get("hardware"), Engine: qv.Get("engine"),
		Quantization: qv.Get("quant"), Concurrency: 1}
	for _, v := range []string{q.Model, q.Hardware, q.Engine, q.Quantization} {
		if len(v) > maxParam {
			return q, kit.ErrBadRequest
		}
	}
	if q.Model == "" || q.Hardware == "" || q.Engine == "" {
		return q, errHistoryParams
	}
	if cell := qv.Get("cell"); cell != "" {
		c, k, ok := strings.Cut(cell, "x")
		var err1, err2 error
		q.Context, err1 = strconv.Atoi(c)
		q.Concurrency, err2 = strconv.Atoi(k)
		if !ok || err1 != nil || err2 != nil || cell != strconv.Itoa(q.Context)+"x"+strconv.Itoa(q.Concurrency) || q.Context < 0 || q.Concurrency < 1 || q.Context > 1<<24 || q.Concurrency > 1<<16 {
			return q, badParam("cell")
		}
	}
	return q, nil
}

// HistoryPage is GET /history: one cell of one setup across the engine's
// versions. Without a quantization it shows the setup's most measured one.
func (s *Handlers) HistoryPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	q, err := readHistoryQuery(r.URL.Query())
	if err != nil {
		return err
	}
	opts, err := s.store.HistoryChoices(ctx, q)
	if err != nil {
		return err
	}
	if q.Quantization == "" && len(opts.Quantizations) > 0 {
		q.Quantization = opts.Quantizations[0]
		if opts, err = s.store.HistoryChoices(ctx, q); err != nil {
			return err
		}
	}
	pts, err := s.store.History(ctx, q)
	if err != nil {
		return err
	}
	names := history.Names{Model: q.Model, Hardware: q.Hardware, Engine: q.Engine}
	for _, n := range []struct {
		kind string
		dst  *string
	}{{store.KindModel, &names.Model}, {store.KindModelBase, &names.Model}, {store.KindHardware, &names.Hardware}, {store.KindEngine, &names.Engine}} {
		if name, err := s.store.IdentityName(ctx, n.kind, *n.dst); err == nil && name != "" {
			*n.dst = name
		}
	}
	p := history.NewPage(l, q, names, pts, opts)
	if len(opts.Quantizations) == 0 {
		p.Empty = l.T("history.none", nil)
	}
	// The setup's changes between engine versions, linked to /regressions.
	changes, err := s.store.VersionChanges(ctx, store.VersionChangeQuery{Model: q.Model, Hardware: q.Hardware,
		Engine: q.Engine, Quantization: q.Quantization})
	if err != nil {
		return err
	}
	kit.KeptIf(w, r, len(opts.Quantizations) > 0)
	return kit.Render(w, r, http.StatusOK, templates.HistoryPage(s.Base(r, p.Title, l.T("history.sub", nil)), p,
		regressview.Links(l, changes)))
}
