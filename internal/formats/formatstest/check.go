// Package formatstest holds what the format parsers' tests share: the
// contract every parser's fuzz target checks.
package formatstest

import (
	"math"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// Check asserts a parser's answer to data keeps the contract: it refuses
// with problems that each name a path and a message id, or it returns clean
// values (finite, non-negative numbers) that the statuses can be derived
// from; and the whole ingest then accepts the document or refuses it with
// problems, never another error.
func Check(t *testing.T, data []byte, p *run.Parsed, err error) {
	t.Helper()
	if err != nil {
		pe, ok := problem.As(err)
		if !ok || len(pe.Problems) == 0 {
			t.Fatalf("error is not a refusal: %v", err)
		}
		for _, pr := range pe.Problems {
			if pr.Path == "" || pr.Key == "" {
				t.Fatalf("problem without path or message: %+v", pr)
			}
		}
		if p != nil {
			t.Fatal("both a result and an error")
		}
		return
	}
	if p == nil {
		t.Fatal("no result and no error")
	}
	for _, m := range p.Decode {
		for _, v := range []*float64{m.TotalTPS, m.PerRequestTPS, m.TTFTms, m.TBTms, m.AvgActive, m.MeasuredS} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0) {
				t.Fatalf("unclean number %v at %s", *v, m.Path)
			}
		}
		for _, v := range []*int64{m.Completed, m.OutputTokens} {
			if v != nil && *v < 0 {
				t.Fatalf("negative count %d at %s", *v, m.Path)
			}
		}
	}
	for _, r := range p.Prefill {
		for _, v := range []*float64{r.PromptTPS, r.TTFTms} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0) {
				t.Fatalf("unclean prefill number %v at %s", *v, r.Path)
			}
		}
	}
	status.Derive(p)
	if _, _, err := ingest.Prepare(ingest.Upload{Files: []archive.File{{Data: data}}}, time.Unix(0, 0)); err != nil {
		if _, ok := problem.As(err); !ok {
			t.Fatalf("ingest failed without a refusal: %v", err)
		}
	}
}
