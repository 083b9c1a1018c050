package plan

import (
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
)

// API is the answer as GET /api/v1/plan gives it.
type API struct {
	Hardware   string        `json:"hardware"`
	GPUs       int           `json:"gpus"`
	Context    int           `json:"context"`
	MinUserTPS float64       `json:"min_user_tps"`
	Users      int           `json:"users,omitempty"`
	Setups     []APISetup    `json:"setups"`
	Unmet      []APISetup    `json:"unmet"`
	Estimates  []APIEstimate `json:"estimates"`
	// SetupsTotal and UnmetTotal count each list whole: the lists hold
	// the first limit (10 unless asked) of each.
	SetupsTotal int `json:"setups_total"`
	UnmetTotal  int `json:"unmet_total"`
}

// APISetup is one measured setup. Cell is null when no measured cell
// meets the need (or its run was hidden meanwhile); PerRequestDerived says per_request_tps is total ÷
// concurrency because the file lacks it; ContextRaised that the asked
// context lies between two measured ones and the next larger was used;
// ContextShort that no measured context reaches it.
type APISetup struct {
	Run               string   `json:"run,omitempty"`
	URL               string   `json:"url,omitempty"`
	Model             string   `json:"model"`
	Engine            string   `json:"engine"`
	Quantization      string   `json:"quantization"`
	Demo              bool     `json:"demo,omitempty"`
	MaxUsers          int      `json:"max_users"`
	Cell              *APICell `json:"cell"`
	ContextUsed       int      `json:"context_used"`
	ContextRaised     bool     `json:"context_raised,omitempty"`
	ContextShort      bool     `json:"context_short,omitempty"`
	PerRequestDerived bool     `json:"per_request_derived,omitempty"`
	BoundShare        *float64 `json:"bound_share,omitempty"`
	LaunchCommand     string   `json:"launch_command,omitempty"`
}

// APICell is the measured cell a setup's answer rests on.
type APICell struct {
	Context       int      `json:"context"`
	Concurrency   int      `json:"concurrency"`
	PerRequestTPS float64  `json:"per_request_tps"`
	TotalTPS      *float64 `json:"total_tps"`
	TTFTms        *float64 `json:"ttft_ms"`
}

// APIEstimate is one calculator estimate: an upper bound, not measured.
type APIEstimate struct {
	Model           string   `json:"model"`
	Weights         string   `json:"weights"`
	Users           int      `json:"users"`
	UpperBound      bool     `json:"upper_bound"`
	PerRequestTPS   float64  `json:"per_request_tps"`
	TotalTPS        float64  `json:"total_tps"`
	NeededGB        float64  `json:"needed_gb"`
	UsableGB        float64  `json:"usable_gb"`
	MeetsNeed       bool     `json:"meets_need"`
	Calculator      string   `json:"calculator"`
	GPUConfidence   string   `json:"gpu_confidence"`
	GPUSource       string   `json:"gpu_source"`
	ModelConfidence string   `json:"model_confidence"`
	ModelSource     string   `json:"model_source"`
	MeasureCommands []string `json:"measure_commands"`
}

// API is res as the API gives it.
func (res *Result) API() API {
	r := res.Request
	out := API{Hardware: r.Hardware, GPUs: r.GPUs, Context: r.Context, MinUserTPS: r.MinUserTPS, Users: r.Users,
		Setups: []APISetup{}, Unmet: []APISetup{}, SetupsTotal: res.SetupsTotal, UnmetTotal: res.UnmetTotal,
		Estimates: []APIEstimate{}}
	for _, list := range []struct {
		from []Setup
		to   *[]APISetup
	}{{res.Setups, &out.Setups}, {res.Unmet, &out.Unmet}} {
		for _, s := range list.from {
			*list.to = append(*list.to, res.apiSetup(s))
		}
	}
	for _, e := range res.Estimates {
		out.Estimates = append(out.Estimates, APIEstimate{Model: e.Model.ID, Weights: e.Weights, Users: e.Users,
			UpperBound: true, PerRequestTPS: e.Bound.PerRequestTPS, TotalTPS: e.Bound.TotalTPS,
			NeededGB: e.NeededGB, UsableGB: e.UsableGB, MeetsNeed: e.MeetsNeed,
			Calculator:    report.CalculatorPath + "?" + e.Calculator,
			GPUConfidence: res.GPU.Confidence, GPUSource: res.GPU.URL,
			ModelConfidence: e.Model.Confidence, ModelSource: e.Model.URL,
			MeasureCommands: MeasureCommands(r, e)})
	}
	return out
}

func (res *Result) apiSetup(s Setup) APISetup {
	a := APISetup{Model: s.Key.Model, Engine: s.Key.Engine, Quantization: s.Key.Quantization, Demo: s.Key.Demo,
		MaxUsers: s.MaxUsers, ContextUsed: s.ContextUsed, ContextRaised: s.Raised, ContextShort: s.Short}
	if s.MaxUsers == 0 {
		return a
	}
	a.Run, a.URL, a.PerRequestDerived = s.RunID, paths.RunCell(s.RunID, s.ContextUsed, s.MaxUsers), s.Derived
	if s.Cell != nil {
		a.Cell = &APICell{Context: s.Cell.Context, Concurrency: s.Cell.Concurrency, PerRequestTPS: s.PerRequestTPS,
			TotalTPS: s.Cell.TotalTPS, TTFTms: s.Cell.TTFTms}
	}
	if b, ok := res.Bounds[s.RunID]; ok && b.OK {
		a.BoundShare = &b.Efficiency
	}
	if rr := res.Runs[s.RunID]; rr != nil {
		a.LaunchCommand = rr.Engine.LaunchCommand
	}
	return a
}
