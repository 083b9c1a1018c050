// Package formatstest holds what the format parsers' tests share: the
// contract every parser's fuzz target checks.
package formatstest

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// Check asserts a parser's answer (p, err) to data keeps the contract every
// format shares: it refuses with problems that each name a path and a
// message id, or it returns a run the statuses can be derived from, whose
// numbers are clean (finite and non-negative); and the whole ingest then
// accepts the document or refuses it with problems, never another error.
//
// Our own export is read back as written, so its numbers are clean only if
// nobody edited the file: for it, the ingest's checks, which name the
// export's own paths ($.decode[3].total_tps), must refuse what is not.
func Check(t *testing.T, data []byte, p *run.Parsed, err error) {
	t.Helper()
	if err != nil {
		refusal(t, err)
		if p != nil {
			t.Fatal("both a result and an error")
		}
		return
	}
	if p == nil {
		t.Fatal("no result and no error")
	}
	bad := unclean(p)
	if bad != "" && p.Format != export.Schema {
		t.Fatal(bad)
	}
	status.Derive(p)
	_, _, err = ingest.Prepare(ingest.Upload{Files: []archive.File{{Data: data}}}, time.Unix(0, 0))
	if err != nil {
		refusal(t, err)
		return
	}
	if bad != "" {
		t.Fatalf("the ingest accepted %s", bad)
	}
}

// refusal asserts err is a refusal whose problems name a path and a message.
func refusal(t *testing.T, err error) {
	t.Helper()
	pe, ok := problem.As(err)
	if !ok || len(pe.Problems) == 0 {
		t.Fatalf("error is not a refusal: %v", err)
	}
	for _, pr := range pe.Problems {
		if pr.Path == "" || pr.Key == "" {
			t.Fatalf("problem without path or message: %+v", pr)
		}
	}
}

// unclean names the first number of p that is not finite and non-negative,
// or returns "".
func unclean(p *run.Parsed) string {
	for _, m := range p.Decode {
		for _, v := range []*float64{m.TotalTPS, m.PerRequestTPS, m.TTFTms, m.TBTms, m.AvgActive, m.MeasuredS} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0) {
				return fmt.Sprintf("unclean number %v at %s", *v, m.Path)
			}
		}
		for _, v := range []*int64{m.Completed, m.OutputTokens} {
			if v != nil && *v < 0 {
				return fmt.Sprintf("negative count %d at %s", *v, m.Path)
			}
		}
	}
	for _, r := range p.Prefill {
		for _, v := range []*float64{r.PromptTPS, r.TTFTms} {
			if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0) {
				return fmt.Sprintf("unclean prefill number %v at %s", *v, r.Path)
			}
		}
	}
	return ""
}
