package status

import (
	"fmt"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestRulesFirstMatchWins walks rules v2 with one cell per rule and the
// cases where two rules compete.
func TestRulesFirstMatchWins(t *testing.T) {
	f, i := run.F, run.I
	tests := []struct {
		name string
		m    run.Measurement
		want run.Status
		code run.ReasonCode
	}{
		{"valid", run.Measurement{Concurrency: 4, Metrics: run.Metrics{TotalTPS: f(100), AvgActive: f(3.9), OutputTokens: i(3000)}}, run.Valid, ""},
		{"failed beats no output", run.Measurement{Concurrency: 1, Signals: run.Signals{Failed: true, FailureReason: "boom"}, Metrics: run.Metrics{OutputTokens: i(0)}}, run.Failed, run.ReasonSource},
		{"loop", run.Measurement{Concurrency: 1, Signals: run.Signals{LoopDetected: true}}, run.Failed, run.ReasonLoop},
		{"no output beats queued", run.Measurement{Concurrency: 8, Metrics: run.Metrics{TotalTPS: f(0), OutputTokens: i(0), AvgActive: f(2)}}, run.OverCapacity, run.ReasonNoOutput},
		{"zero throughput without token count", run.Measurement{Concurrency: 1, Metrics: run.Metrics{TotalTPS: f(0)}}, run.OverCapacity, run.ReasonNoOutput},
		{"capacity limited", run.Measurement{Concurrency: 16, Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9)}, Signals: run.Signals{CapacityLimited: true}}, run.Queued, run.ReasonQueued},
		{"queue average", run.Measurement{Concurrency: 16, Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9)}, Signals: run.Signals{AvgQueue: f(0.1)}}, run.Queued, run.ReasonQueued},
		{"queue fraction", run.Measurement{Concurrency: 16, Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9)}, Signals: run.Signals{QueueFraction: f(0.01)}}, run.Queued, run.ReasonQueued},
		{"active below 95%", run.Measurement{Concurrency: 20, Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9), AvgActive: f(18.99)}}, run.Queued, run.ReasonQueued},
		{"peak at the cap outranks a low mean", run.Measurement{Concurrency: 20, PeakActive: i(20), Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9), AvgActive: f(12)}}, run.Valid, ""},
		{"peak under the cap", run.Measurement{Concurrency: 20, PeakActive: i(19), Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9), AvgActive: f(19.5)}}, run.Queued, run.ReasonQueued},
		{"active at 95%", run.Measurement{Concurrency: 20, Metrics: run.Metrics{TotalTPS: f(9), OutputTokens: i(9), AvgActive: f(19)}}, run.Valid, ""},
	}
	for _, tt := range tests {
		c := decideMeasured(&tt.m)
		if c.Status != tt.want || c.ReasonCode != tt.code {
			t.Errorf("%s: %s %s, want %s %s", tt.name, c.Status, c.ReasonCode, tt.want, tt.code)
		}
	}
}

func TestAbsentCells(t *testing.T) {
	s := &run.Settings{MaxOutputTokens: 1000, KVBudgetTokens: 10000, MaxRunningRequests: 64}
	tests := []struct {
		name      string
		ctx, conc int
		plan      *run.PlanEntry
		want      run.Status
		code      run.ReasonCode
	}{
		{"fits: skipped by the user", 4000, 2, nil, run.NotMeasured, run.ReasonAbsent},
		{"exceeds the budget", 4000, 3, nil, run.OverCapacity, run.ReasonKVBudget},
		{"context 0 within max running", 0, 32, nil, run.NotMeasured, run.ReasonAbsent},
		{"context 0 beyond max running", 0, 65, nil, run.OverCapacity, run.ReasonKVBudget},
		{"plan KV skip", 100, 1, &run.PlanEntry{Skipped: true, OverCapacity: true, Reason: "needs"}, run.OverCapacity, run.ReasonPlan},
		{"plan max-num-seqs outranks KV", 4000, 3, &run.PlanEntry{Skipped: true, Reason: "max-num-seqs"}, run.NotMeasured, run.ReasonPlan},
		{"planned trimmed cell uses its trimmed context", 9500, 1, &run.PlanEntry{MeasuredContext: 8000}, run.NotMeasured, run.ReasonAbsent},
	}
	for _, tt := range tests {
		c := decideAbsent(tt.ctx, tt.conc, tt.plan, s)
		if c.Status != tt.want || c.ReasonCode != tt.code || c.Measured {
			t.Errorf("%s: %s %s, want %s %s", tt.name, c.Status, c.ReasonCode, tt.want, tt.code)
		}
	}
	none := &run.Settings{MaxOutputTokens: 1000}
	if c := decideAbsent(1<<20, 64, nil, none); c.Status != run.NotMeasured {
		t.Errorf("without a budget nothing is over capacity, got %s", c.Status)
	}
}

// TestGroup writes thousands separators as the tools' own messages do.
func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 12: "12", 123: "123", 1234: "1,234", 523776: "523,776",
		1234567: "1,234,567"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestKVReasonAsSprintf checks kvReason's text against the fmt.Sprintf it
// replaced, over numbers of every digit count, zero and negatives.
func TestKVReasonAsSprintf(t *testing.T) {
	for _, sent := range []int{0, 7, 999, 1000, 8192, 312320, 1 << 30} {
		for _, conc := range []int{1, 8, 128, 1234} {
			for _, budget := range []int64{-5, 0, 286720, 123456789012} {
				s := &run.Settings{MaxOutputTokens: sent/3 + 1, KVBudgetTokens: budget}
				want := fmt.Sprintf("needs %s KV tokens (%d × (%s + %s)), the server has %s",
					group(KVNeeded(sent, conc, s)), conc, group(int64(sent)), group(int64(s.MaxOutputTokens)), group(s.KVBudgetTokens))
				if got := kvReason(sent, conc, s); got != want {
					t.Errorf("kvReason(%d, %d) = %q, want %q", sent, conc, got, want)
				}
			}
		}
	}
}
