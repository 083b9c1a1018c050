package api

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/calcview"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// calcAnswer is GET /api/v1/calculator's body (web/api/api_docs_openapi.json).
type calcAnswer struct {
	Bound       calcBound    `json:"bound"`
	Memory      calcMemory   `json:"memory"`
	Assumptions []string     `json:"assumptions"`
	Sources     []calcSource `json:"sources"`
}

type calcBound struct {
	TotalTPS      float64  `json:"total_tps"`
	PerRequestTPS float64  `json:"per_request_tps"`
	BoundBy       string   `json:"bound_by"`
	MemoryTPS     float64  `json:"memory_tps"`
	ComputeTPS    *float64 `json:"compute_tps"`
	TokensPerStep float64  `json:"tokens_per_step"`
}

type calcMemory struct {
	WeightsGB      float64 `json:"weights_gb"`
	KVGBPerRequest float64 `json:"kv_gb_per_request"`
	StateGBPerReq  float64 `json:"state_gb_per_request"`
	NeededGB       float64 `json:"needed_gb"`
	UsableGB       float64 `json:"usable_gb"`
	Fits           bool    `json:"fits"`
	MaxConcurrency *int    `json:"max_concurrency"`
}

type calcSource struct {
	Name       string `json:"name"`
	URL        string `json:"url"`
	Confidence string `json:"confidence"`
}

// calcAssumptions are the assumptions every answer rests on, worded in the
// reader's language.
var calcAssumptions = []string{"calc.assume.peak", "calc.assume.usable", "calc.assume.routing", "calc.assume.draft"}

// Calculator is GET /api/v1/calculator: the page's calculation with the
// same query fields, as JSON. A field it cannot use is a 422 naming it.
func (s *Handlers) Calculator(w http.ResponseWriter, r *http.Request) error {
	tables, err := calculator.Data()
	if err != nil {
		return err
	}
	f, probs := calcview.ParseForm(r.URL.Query())
	var in calculator.Input
	var m *calculator.Model
	if len(probs) == 0 {
		in, m, probs = f.Input(tables)
	}
	if len(probs) > 0 {
		list := problem.List{Kind: problem.Invalid}
		for _, p := range probs {
			list.Add(p.Field, p.Message, map[string]any{"Field": p.Detail})
		}
		return list.Err()
	}
	l := i18n.FromContext(r.Context())
	res := calculator.Calculate(in)
	a := calcAnswer{
		Bound: calcBound{TotalTPS: res.Bound.TotalTPS, PerRequestTPS: res.Bound.PerRequestTPS, BoundBy: res.Bound.BoundBy,
			MemoryTPS: res.Bound.MemoryTPS, TokensPerStep: res.Bound.TokensPerStep},
		Memory: calcMemory{WeightsGB: res.Memory.WeightsGB, KVGBPerRequest: res.Memory.KVGBPerRequest,
			StateGBPerReq: res.Memory.StateGBPerRequest, NeededGB: res.Memory.NeededGB, UsableGB: res.Memory.UsableGB,
			Fits: res.Memory.Fits},
		Sources: []calcSource{{in.GPU.Name, in.GPU.URL, in.GPU.Confidence}},
	}
	if res.Bound.ComputeTPS > 0 {
		a.Bound.ComputeTPS = &res.Bound.ComputeTPS
	}
	if res.Memory.MaxConcurrency >= 0 { // -1: no limit from the cache, null
		a.Memory.MaxConcurrency = &res.Memory.MaxConcurrency
	}
	if m != nil {
		a.Sources = append(a.Sources, calcSource{m.Name, m.URL, m.Confidence})
	}
	for _, id := range calcAssumptions {
		a.Assumptions = append(a.Assumptions, l.T(id, nil))
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return kit.WriteJSON(w, http.StatusOK, a)
}
