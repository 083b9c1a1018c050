package docs

import (
	"net/http"
	"sync"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// StartPage is GET /start: getting started, from nothing to a linked report.
func (s *Handlers) StartPage(w http.ResponseWriter, r *http.Request) error {
	l := i18n.FromContext(r.Context())
	return kit.Render(w, r, http.StatusOK, templates.StartPage(s.Base(r, l.T("start.title", nil), l.T("start.intro", nil)), s.Origin(r)))
}

// seedRun is the seed document derived by the real ingest, once: the
// worked example of /bench needs no database.
var seedRun = sync.OnceValues(func() (*run.Run, error) {
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		return nil, err
	}
	r, _, err := ingest.Prepare(u, time.Time{})
	return r, err
})

// BenchPage is GET /bench: what the matrix measures and how each cell's
// status is decided (internal/status), shown on the seed run's grid.
func (s *Handlers) BenchPage(w http.ResponseWriter, r *http.Request) error {
	seed, err := seedRun()
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	var statuses []templates.StatusMeaning
	for _, st := range []run.Status{run.Valid, run.Queued, run.OverCapacity, run.Failed, run.NotMeasured} {
		statuses = append(statuses, templates.StatusMeaning{Kind: string(st), Label: report.StatusLabel(l, st),
			Meaning: l.T("status.meaning."+string(st), nil)})
	}
	v := report.Build(seed, l)
	return kit.Render(w, r, http.StatusOK, templates.BenchPage(s.Base(r, l.T("bench.title", nil), l.T("bench.intro", nil)), v, statuses))
}
