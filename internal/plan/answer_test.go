package plan

import (
	"net/url"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

func f(v float64) *float64 { return &v }

var qwen = SetupKey{Model: "qwen3-5-4b-fp8", ModelBase: "qwen3-5-4b", Engine: "vllm", Quantization: "fp8"}

// grid builds one run's cells: per[ctx][conc] is the per-request speed,
// negative for a queued cell.
func grid(id string, k SetupKey, per map[int]map[int]float64) []Cell {
	var out []Cell
	for ctx, row := range per {
		for conc, v := range row {
			c := Cell{RunID: id, Setup: k, ModelName: k.Model, Context: ctx, Concurrency: conc, Status: run.Valid,
				PerRequestTPS: f(v), TotalTPS: f(v * float64(conc))}
			if v < 0 {
				c.Status, c.PerRequestTPS, c.TotalTPS = run.Queued, f(-v), f(-v*float64(conc))
			}
			out = append(out, c)
		}
	}
	return out
}

// seedLike is shaped as the seed run: 16 users queue at every context.
var seedLike = map[int]map[int]float64{
	0:     {1: 60, 2: 55, 4: 48, 8: 40, 16: -30},
	16384: {1: 48, 2: 43.5, 4: 39.3, 8: 25, 16: -12},
	32768: {1: 40, 2: 35, 4: 28, 8: 15, 16: -8},
}

func one(t *testing.T, r Request, cells []Cell) Setup {
	t.Helper()
	a := Measured(r, cells, false)
	all := append(append([]Setup(nil), a.Setups...), a.Unmet...)
	if len(all) != 1 {
		t.Fatalf("setups %d, want 1: %+v", len(all), a)
	}
	return all[0]
}

func TestMaxUsersAtAskedContext(t *testing.T) {
	cells := grid("seed", qwen, seedLike)
	for _, tc := range []struct {
		ctx       int
		need      float64
		users     int
		used      int
		raised    bool
		wantUsers int
	}{
		{16384, 20, 0, 16384, false, 8},
		{16384, 40, 0, 16384, false, 2},
		{20000, 30, 0, 32768, true, 2}, // between two: the next larger measured context
		{0, 20, 0, 0, false, 8},        // 16 users queued: not valid, not counted
		{16384, 100, 0, 16384, false, 0},
	} {
		s := one(t, Request{Context: tc.ctx, MinUserTPS: tc.need, Users: tc.users}, cells)
		if s.MaxUsers != tc.wantUsers || s.ContextUsed != tc.used || s.Raised != tc.raised {
			t.Errorf("ctx %d need %g: users %d at %d (raised %v), want %d at %d (%v)",
				tc.ctx, tc.need, s.MaxUsers, s.ContextUsed, s.Raised, tc.wantUsers, tc.used, tc.raised)
		}
		if tc.wantUsers > 0 && (s.Cell.Concurrency != tc.wantUsers || s.Cell.Context != tc.used || s.RunID != "seed") {
			t.Errorf("ctx %d need %g: cell %+v", tc.ctx, tc.need, s.Cell)
		}
		if tc.wantUsers == 0 && s.RunID != "" {
			t.Errorf("need %g met by no cell, yet run %q answers", tc.need, s.RunID)
		}
	}
}

func TestLargestCountWinsOverNoise(t *testing.T) {
	// 4 users miss 20 tok/s by noise, 8 meet it: the answer is 8.
	cells := grid("r", qwen, map[int]map[int]float64{4096: {1: 30, 2: 25, 4: 19.8, 8: 20.1}})
	if s := one(t, Request{Context: 4096, MinUserTPS: 20}, cells); s.MaxUsers != 8 || s.PerRequestTPS != 20.1 {
		t.Errorf("got %d users at %g, want 8 at 20.1", s.MaxUsers, s.PerRequestTPS)
	}
}

func TestShortContext(t *testing.T) {
	cells := grid("r", qwen, map[int]map[int]float64{0: {1: 50}, 8192: {1: 40}})
	s := one(t, Request{Context: 65536, MinUserTPS: 10}, cells)
	if !s.Short || s.ContextUsed != 8192 || s.MaxUsers != 0 {
		t.Errorf("got %+v, want short at 8192 with no users", s)
	}
}

func TestUsersFilterSplits(t *testing.T) {
	other := SetupKey{Model: "llama-3-1-8b", ModelBase: "llama-3-1-8b", Engine: "llama-cpp", Quantization: "q4-k-m"}
	cells := append(grid("a", qwen, seedLike), grid("b", other, map[int]map[int]float64{16384: {1: 70, 2: 50, 4: 30}})...)
	a := Measured(Request{Context: 16384, MinUserTPS: 20, Users: 8}, cells, false)
	if len(a.Setups) != 1 || a.Setups[0].Key != qwen || len(a.Unmet) != 1 || a.Unmet[0].MaxUsers != 4 {
		t.Fatalf("users=8: setups %+v, unmet %+v", a.Setups, a.Unmet)
	}
	// Without users= both meet, ranked by users served.
	a = Measured(Request{Context: 16384, MinUserTPS: 20}, cells, false)
	if len(a.Setups) != 2 || a.Setups[0].Key != qwen || a.Setups[1].MaxUsers != 4 {
		t.Fatalf("any users: %+v", a.Setups)
	}
	// Same users served: the faster per request first.
	a = Measured(Request{Context: 16384, MinUserTPS: 45}, cells, false)
	if len(a.Setups) != 2 || a.Setups[0].Key != other || a.Setups[0].MaxUsers != 2 || a.Setups[1].MaxUsers != 1 {
		t.Fatalf("need 45: %+v", a.Setups)
	}
}

func TestPerRequestFallback(t *testing.T) {
	cells := grid("r", qwen, map[int]map[int]float64{1024: {1: 30, 4: 22}})
	for i := range cells {
		cells[i].PerRequestTPS = nil
	}
	s := one(t, Request{Context: 1024, MinUserTPS: 20}, cells)
	if s.MaxUsers != 4 || !s.Derived || s.PerRequestTPS != 22 {
		t.Errorf("got %d users at %g (derived %v), want 4 at total÷4 = 22, derived", s.MaxUsers, s.PerRequestTPS, s.Derived)
	}
	// A measured per-request speed is used as it is, even below total ÷ n.
	cells[1].PerRequestTPS = f(18)
	if s := one(t, Request{Context: 1024, MinUserTPS: 20}, cells); s.MaxUsers == 4 && !s.Derived {
		t.Errorf("measured 18 tok/s per request taken as meeting 20: %+v", s)
	}
}

func TestBestRunServesMostThenFastest(t *testing.T) {
	cells := append(grid("slow", qwen, map[int]map[int]float64{0: {1: 30, 8: 21}}),
		grid("fast", qwen, map[int]map[int]float64{0: {1: 50, 8: 25}})...)
	cells = append(cells, grid("wide", qwen, map[int]map[int]float64{0: {16: 20.5}})...)
	if s := one(t, Request{Context: 0, MinUserTPS: 20}, cells); s.RunID != "wide" || s.MaxUsers != 16 {
		t.Errorf("got run %q with %d users, want wide with 16", s.RunID, s.MaxUsers)
	}
	if s := one(t, Request{Context: 0, MinUserTPS: 21}, cells); s.RunID != "fast" || s.MaxUsers != 8 {
		t.Errorf("got run %q with %d users, want fast with 8", s.RunID, s.MaxUsers)
	}
}

func TestFiltersAndDemo(t *testing.T) {
	demo := qwen
	demo.Demo = true
	other := SetupKey{Model: "qwen3-14b-awq", ModelBase: "qwen3-14b", Engine: "sglang", Quantization: "awq"}
	cells := append(append(grid("a", qwen, seedLike), grid("d", demo, seedLike)...),
		grid("b", other, map[int]map[int]float64{16384: {1: 30}})...)
	r := Request{Context: 16384, MinUserTPS: 20}
	if a := Measured(r, cells, false); len(a.Setups) != 2 {
		t.Errorf("without demo: %d setups, want 2", len(a.Setups))
	}
	a := Measured(r, cells, true)
	if len(a.Setups) != 3 || !a.Setups[2].Key.Demo {
		t.Errorf("demo setups rank after measured ones: %+v", a.Setups)
	}
	for _, tc := range []struct {
		r    Request
		want int
	}{
		{Request{Model: "4b"}, 1}, {Request{Model: "14b"}, 1}, {Request{Model: "qwen3"}, 2},
		{Request{Model: "qwen3-5"}, 1}, {Request{Engine: "sglang"}, 1}, {Request{Quantization: "fp8"}, 1},
		{Request{Model: "qwen"}, 0},
	} {
		tc.r.Context, tc.r.MinUserTPS = 16384, 20
		if a := Measured(tc.r, cells, false); len(a.Setups) != tc.want {
			t.Errorf("%+v: %d setups, want %d", tc.r, len(a.Setups), tc.want)
		}
	}
}

func TestParseRequest(t *testing.T) {
	parse := func(q string) (Request, []Problem) {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		return ParseRequest(v)
	}
	r, probs := parse("hardware=rtx-3060-12gb&context=16384&min_user_tps=20")
	if len(probs) != 0 || r.Hardware != "rtx-3060-12gb" || r.GPUs != 1 || r.Context != 16384 || r.MinUserTPS != 20 || r.Users != 1 {
		t.Errorf("plain: %+v %v", r, probs)
	}
	r, _ = parse("hardware=rtx-3090-24gb&gpus=2")
	if r.Hardware != "2x-rtx-3090-24gb" || r.Device != "rtx-3090-24gb" || r.GPUs != 2 {
		t.Errorf("gpus=2: %+v", r)
	}
	r, _ = parse("hardware=2x-RTX-3090-24gb&preset=team")
	if r.GPUs != 2 || r.Context != 16384 || r.Users != 8 || r.Preset != "team" {
		t.Errorf("team preset: %+v", r)
	}
	if q := r.Query(); q != "hardware=2x-rtx-3090-24gb&preset=team" {
		t.Errorf("query %q", q)
	}
	for q, param := range map[string]string{
		"hardware=rtx-3060-12gb&context=-1":         "context",
		"hardware=rtx-3060-12gb&context=abc":        "context",
		"context=8192":                              "hardware",
		"hardware=rtx 3060":                         "hardware",
		"hardware=2x-rtx-3090-24gb&gpus=4":          "gpus",
		"hardware=rtx-3060-12gb&min_user_tps=0":     "min_user_tps",
		"hardware=rtx-3060-12gb&min_user_tps=NaN":   "min_user_tps",
		"hardware=rtx-3060-12gb&users=5000":         "users",
		"hardware=rtx-3060-12gb&preset=party":       "preset",
		"hardware=rtx-3060-12gb&model=%3Cscript%3E": "model",
		"hardware=rtx-3060-12gb&gpus=0":             "gpus",
	} {
		_, probs := parse(q)
		if len(probs) != 1 || probs[0].Param != param {
			t.Errorf("%s: problems %v, want one naming %s", q, probs, param)
		}
	}
	// Each of Params (the cache key) is read: a bad value of each is
	// a problem naming it.
	all := url.Values{}
	for _, p := range Params {
		all.Set(p, "bad value")
	}
	if _, probs := ParseRequest(all); len(probs) != len(Params) {
		t.Errorf("%d problems of %d parameters: %v", len(probs), len(Params), probs)
	}
	if _, probs := parse("hardware=rtx-3060-12gb&context=-5"); probs[0].Error() != "context: out of range" {
		t.Errorf("error text %q", probs[0].Error())
	}
}
