package demo_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

func collect(seed int64, n int) []demo.Synthetic {
	var out []demo.Synthetic
	for s := range demo.Generate(seed, n) {
		out = append(out, s)
	}
	return out
}

// TestGenerateDeterministic: a seed gives the same runs every time, another
// seed other runs, and each run is the same whether generated alone or in
// sequence.
func TestGenerateDeterministic(t *testing.T) {
	a, b, c := collect(7, 40), collect(7, 40), collect(8, 40)
	same := 0
	for i := range a {
		if a[i].Key != b[i].Key || !bytes.Equal(a[i].Source, b[i].Source) || !reflect.DeepEqual(a[i].Run, b[i].Run) {
			t.Fatalf("run %d differs between two generations of seed 7", i)
		}
		if bytes.Equal(a[i].Source, c[i].Source) {
			same++
		}
		if one := demo.One(7, i); !bytes.Equal(one.Source, a[i].Source) {
			t.Fatalf("One(7, %d) differs from the %dth run of Generate", i, i)
		}
	}
	if same > 0 {
		t.Errorf("%d runs of seed 8 equal those of seed 7", same)
	}
	if a[3].Key != "demo:7:3" {
		t.Errorf("key %q, want demo:7:3", a[3].Key)
	}
}

// TestGenerateCoverage: a few hundred runs span the catalogue and every
// status, and every run is marked demo.
func TestGenerateCoverage(t *testing.T) {
	var runs []*run.Run
	statuses := map[run.Status]int{}
	for _, s := range collect(1, 300) {
		runs = append(runs, s.Run)
		if !s.Run.Demo {
			t.Fatalf("%s is not marked demo", s.Key)
		}
		for _, c := range s.Run.Decode {
			statuses[c.Status]++
		}
	}
	gpus, engines, models := demo.Counts(runs)
	if len(gpus) < 10 || len(engines) != 3 || len(models) < 8 {
		t.Errorf("covers %d GPUs, %d engines, %d models; want ≥ 10, 3, ≥ 8:\n%v\n%v\n%v", len(gpus), len(engines), len(models), gpus, engines, models)
	}
	for _, st := range []run.Status{run.Valid, run.Queued, run.OverCapacity, run.Failed} {
		if statuses[st] == 0 {
			t.Errorf("no %s cell in 300 runs: %v", st, statuses)
		}
	}
	if statuses[run.Valid] < statuses[run.Queued] || statuses[run.Valid] < statuses[run.OverCapacity] {
		t.Errorf("valid cells are not the most common: %v", statuses)
	}
}

// TestGeneratePlausible: throughput scales with bandwidth and falls with
// model size and context, as the roofline says.
func TestGeneratePlausible(t *testing.T) {
	for _, s := range collect(3, 200) {
		r := s.Run
		var at0, atLong *float64
		for _, c := range r.Decode {
			if c.Concurrency != 1 || c.Status != run.Valid {
				continue
			}
			if c.Context == 0 {
				at0 = c.PerRequestTPS
			} else if c.Context >= 65536 {
				atLong = c.PerRequestTPS
			}
			if *c.PerRequestTPS <= 0 || *c.PerRequestTPS > 2000 {
				t.Errorf("%s: single-stream %.1f tok/s at %d", s.Key, *c.PerRequestTPS, c.Context)
			}
		}
		if at0 != nil && atLong != nil && *atLong > *at0*1.1 {
			t.Errorf("%s: single stream faster at long context (%.1f) than at 0 (%.1f)", s.Key, *atLong, *at0)
		}
	}
}

// TestSourceDerivesAgain: the stored source parses like an upload and
// derives the same cells, so re-deriving a demo run works.
func TestSourceDerivesAgain(t *testing.T) {
	for _, s := range collect(5, 20) {
		p, err := formats.Parse(s.Source)
		if err != nil {
			t.Fatalf("%s: %v", s.Key, err)
		}
		prefill, decode := status.Derive(p)
		if !reflect.DeepEqual(decode, s.Run.Decode) || !reflect.DeepEqual(prefill, s.Run.Prefill) {
			t.Fatalf("%s: cells derived from the source differ from the run's", s.Key)
		}
	}
}

// TestSourceIsTheExport: the source is the run's export document as
// export.New builds it for any stored run, though the generator takes the
// flags its derivation computed rather than bounding the cells again.
func TestSourceIsTheExport(t *testing.T) {
	for _, s := range collect(5, 200) {
		r := *s.Run
		r.Source = run.Source{} // set from the document, after it
		want, err := json.Marshal(export.New(&r, ""))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s.Source, want) {
			t.Fatalf("%s: the source differs from the run's export document", s.Key)
		}
	}
}
