package plan_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/plan"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// TestSeedRunAnswers: the seed run (RTX 3060 12GB, vLLM, Qwen3.5-4B FP8)
// stored as a site stores it, asked as the page's address asks.
func TestSeedRunAnswers(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Ingest(ctx, s, u); err != nil {
		t.Fatal(err)
	}
	tb, err := calculator.Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query       string
		users, used int
		perRequest  float64
	}{
		{"context=16384&min_user_tps=20", 8, 16384, 0},
		{"context=16384&min_user_tps=40", 2, 16384, 43.5},
		{"context=20000&min_user_tps=30", 2, 32768, 0},
		{"context=0&min_user_tps=20", 8, 0, 0},
	} {
		q, _ := url.ParseQuery("hardware=rtx-3060-12gb&users=0&" + tc.query)
		r, probs := plan.ParseRequest(q)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", tc.query, probs)
		}
		res, err := plan.Plan(ctx, s, tb, r, false)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if len(res.Setups) != 1 {
			t.Fatalf("%s: setups %+v unmet %+v", tc.query, res.Setups, res.Unmet)
		}
		got := res.Setups[0]
		if got.MaxUsers != tc.users || got.ContextUsed != tc.used || tc.perRequest > 0 && got.PerRequestTPS != tc.perRequest {
			t.Errorf("%s: %d users at %d (%.1f tok/s), want %d at %d", tc.query, got.MaxUsers, got.ContextUsed,
				got.PerRequestTPS, tc.users, tc.used)
		}
		if res.Runs[got.RunID] == nil || res.Runs[got.RunID].Engine.LaunchCommand == "" {
			t.Errorf("%s: no launch command for run %s", tc.query, got.RunID)
		}
		for _, e := range res.Estimates {
			if e.NeededGB > 12 {
				t.Errorf("%s: estimate %s %s needs %.1f GB", tc.query, e.Model.ID, e.Weights, e.NeededGB)
			}
		}
		if len(res.Estimates) == 0 {
			t.Errorf("%s: no estimate fits 12 GB", tc.query)
		}
	}
	q, _ := url.ParseQuery("hardware=rtx-9999-1gb")
	r, _ := plan.ParseRequest(q)
	if _, err := plan.Plan(ctx, s, tb, r, false); err == nil {
		t.Error("an unknown hardware is answered")
	}
}
