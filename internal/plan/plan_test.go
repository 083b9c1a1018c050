package plan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// fakeStore answers PlanSetups with setups on one hardware, and counts
// the cells PlanRuns is asked for.
type fakeStore struct {
	hardware string
	setups   []Setup
	asked    *int
}

func (st fakeStore) PlanSetups(_ context.Context, hw string, _ int, _ float64) ([]Setup, error) {
	if hw != st.hardware {
		return nil, nil
	}
	return st.setups, nil
}

func (st fakeStore) PlanRuns(_ context.Context, cells []CellRef) (map[string]*run.Run, error) {
	if st.asked != nil {
		*st.asked += len(cells)
	}
	out := map[string]*run.Run{}
	for _, c := range cells {
		out[c.RunID] = &run.Run{ID: c.RunID, Hardware: run.Hardware{Type: run.DiscreteGPU, GPUName: "RTX 3060", GPUCount: 1, VRAMGB: 12},
			Engine: run.Engine{Name: "vllm", Quantization: "FP8", LaunchCommand: "vllm serve Qwen/Qwen3.5-4B-FP8"},
			Model:  run.Model{ID: "Qwen/Qwen3.5-4B-FP8"},
			Decode: []run.DecodeCell{{Context: c.Context, Concurrency: c.Concurrency, Status: run.Valid,
				Metrics: run.Metrics{PerRequestTPS: f(43.5), TotalTPS: f(87), TTFTms: f(120)}}}}
	}
	return out, nil
}

func tables(t *testing.T) *calculator.Tables {
	t.Helper()
	tb, err := calculator.Data()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestEstimatesFitTheMemory(t *testing.T) {
	tb := tables(t)
	gpu, ok := tb.GPUByID("rtx-3060-12gb")
	if !ok {
		t.Fatal("no RTX 3060 row")
	}
	r := Request{Hardware: "rtx-3060-12gb", Device: "rtx-3060-12gb", GPUs: 1, Context: 8192, Users: 1, MinUserTPS: 20}
	est := Estimates(r, tb, gpu, nil)
	if len(est) == 0 {
		t.Fatal("no model of the table fits 12 GB")
	}
	fits := map[string]bool{}
	for _, e := range est {
		fits[e.Model.ID] = true
		if e.NeededGB > e.UsableGB || e.UsableGB > 12 {
			t.Errorf("%s %s needs %.1f of %.1f GB", e.Model.ID, e.Weights, e.NeededGB, e.UsableGB)
		}
		if !strings.Contains(e.Calculator, "gpu=rtx-3060-12gb") || !strings.Contains(e.Calculator, "context=8192") {
			t.Errorf("calculator link %q", e.Calculator)
		}
	}
	if fits["meta-llama/Llama-3.1-70B"] || fits["deepseek-ai/DeepSeek-V3"] {
		t.Errorf("a model far over 12 GB is estimated: %v", fits)
	}
	for i := 1; i < len(est); i++ {
		if est[i].Bound.PerRequestTPS > est[i-1].Bound.PerRequestTPS {
			t.Errorf("estimates not sorted by bound at %d", i)
		}
	}
	// A model measured on the hardware is no estimate.
	measured := []Setup{{Key: SetupKey{Model: "qwen-qwen3-5-4b-fp8", ModelBase: "qwen3-5-4b"}}}
	for _, e := range Estimates(r, tb, gpu, measured) {
		if e.Model.ID == "Qwen/Qwen3.5-4B" {
			t.Errorf("the measured model is estimated too")
		}
	}
	// Two cards hold what one does not.
	r2 := r
	r2.GPUs = 8
	if len(Estimates(r2, tb, gpu, nil)) <= len(est) {
		t.Errorf("eight cards fit no more than one")
	}
}

func TestPlanUnknownHardware(t *testing.T) {
	tb := tables(t)
	_, err := Plan(context.Background(), fakeStore{}, tb, Request{Hardware: "abacus", Device: "abacus", GPUs: 1}, false)
	var p Problem
	if !errors.As(err, &p) || p.Param != "hardware" {
		t.Errorf("unknown hardware: %v, want a problem naming hardware", err)
	}
	// In the table but unmeasured: estimates only.
	res, err := Plan(context.Background(), fakeStore{}, tb, Request{Hardware: "rtx-3060-12gb", Device: "rtx-3060-12gb", GPUs: 1, Context: 8192, MinUserTPS: 20}, false)
	if err != nil || len(res.Setups) != 0 || len(res.Estimates) == 0 {
		t.Errorf("unmeasured 3060: %v, %+v", err, res)
	}
}

func TestPlanAPI(t *testing.T) {
	tb := tables(t)
	k := SetupKey{Model: "qwen-qwen3-5-4b-fp8", ModelBase: "qwen3-5-4b", Engine: "vllm", Quantization: "fp8"}
	st := fakeStore{hardware: "rtx-3060-12gb", setups: []Setup{
		{Key: k, RunID: "seedrun", MaxUsers: 2, PerRequestTPS: 43.5, ContextUsed: 16384}}}
	r := Request{Hardware: "rtx-3060-12gb", Device: "rtx-3060-12gb", GPUs: 1, Context: 16384, MinUserTPS: 40}
	res, err := Plan(context.Background(), st, tb, r, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.API())
	var got struct {
		Setups []struct {
			Run      string `json:"run"`
			MaxUsers int    `json:"max_users"`
			Cell     struct {
				Context, Concurrency int
				PerRequestTPS        float64 `json:"per_request_tps"`
			} `json:"cell"`
			ContextUsed   int      `json:"context_used"`
			BoundShare    *float64 `json:"bound_share"`
			LaunchCommand string   `json:"launch_command"`
		} `json:"setups"`
		Estimates []struct {
			UpperBound bool `json:"upper_bound"`
			Model      string
		} `json:"estimates"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Setups) != 1 || got.Setups[0].MaxUsers != 2 || got.Setups[0].Cell.PerRequestTPS != 43.5 ||
		got.Setups[0].Cell.Concurrency != 2 || got.Setups[0].ContextUsed != 16384 || got.Setups[0].LaunchCommand == "" {
		t.Errorf("setups: %s", b)
	}
	if got.Setups[0].BoundShare == nil || *got.Setups[0].BoundShare <= 0 {
		t.Errorf("no share of the bound for a run the calculator places: %s", b)
	}
	for _, e := range got.Estimates {
		if !e.UpperBound || e.Model == "Qwen/Qwen3.5-4B" {
			t.Errorf("estimate %+v", e)
		}
	}
}

// TestPlanShowsTheBest: an answer lists the best DefaultLimit setups of
// each kind and counts the rest, and reads cells and runs for those it
// lists only, however many setups the hardware has; limit= lists more.
func TestPlanShowsTheBest(t *testing.T) {
	tb := tables(t)
	var setups []Setup
	for i := range 50 {
		k := SetupKey{Model: fmt.Sprintf("model-%02d", i), ModelBase: fmt.Sprintf("model-%02d", i), Engine: "vllm", Quantization: "fp8"}
		s := Setup{Key: k, ModelName: k.Model, ContextUsed: 8192}
		if i%2 == 0 { // the even ones meet the need, the more users the higher i
			s.RunID, s.MaxUsers, s.PerRequestTPS = fmt.Sprintf("run%02d", i), 1+i, 25
		}
		setups = append(setups, s)
	}
	setups[49].Key.Model, setups[49].Key.ModelBase = "qwen-qwen3-5-4b-fp8", "qwen3-5-4b"
	asked := 0
	st := fakeStore{hardware: "rtx-3060-12gb", setups: setups, asked: &asked}
	r := Request{Hardware: "rtx-3060-12gb", Device: "rtx-3060-12gb", GPUs: 1, Context: 8192, MinUserTPS: 20}
	res, err := Plan(context.Background(), st, tb, r, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Setups) != DefaultLimit || res.SetupsTotal != 25 || len(res.Unmet) != DefaultLimit || res.UnmetTotal != 25 {
		t.Fatalf("%d of %d setups, %d of %d unmet; want %d of 25 each", len(res.Setups), res.SetupsTotal,
			len(res.Unmet), res.UnmetTotal, DefaultLimit)
	}
	if res.Setups[0].RunID != "run48" || res.Setups[0].Cell == nil || res.Setups[DefaultLimit-1].Cell == nil {
		t.Errorf("the first setup shown is %+v, want run48 with its cell", res.Setups[0])
	}
	if asked != DefaultLimit {
		t.Errorf("PlanRuns asked for %d cells, want the %d shown setups' only", asked, DefaultLimit)
	}
	// The last setup, unmet and not shown, is still measured: no estimate.
	for _, e := range res.Estimates {
		if e.Model.ID == "Qwen/Qwen3.5-4B" {
			t.Error("a model measured on the hardware, beyond the setups shown, is estimated")
		}
	}
	r.Limit = MaxLimit
	if res, _ := Plan(context.Background(), st, tb, r, false); len(res.Setups) != 25 || len(res.Unmet) != 25 {
		t.Errorf("limit=%d: %d setups, %d unmet, want all", MaxLimit, len(res.Setups), len(res.Unmet))
	}
}
