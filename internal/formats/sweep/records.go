package sweep

import (
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Records is what a parser of serving-benchmark records (vLLM bench serve,
// SGLang bench_serving: one JSON record per measured load) keeps while it
// reads a file, and the rules both apply at the end.
type Records struct {
	// Probs collects the file's problems; its records' numbers are read
	// through it.
	Probs *jsondoc.Checker
	// Rate collects rate-driven records: they refuse the file only when
	// nothing else in it can be shown.
	Rate problem.List
	// FirstModel is the model of the first record; a record of another
	// model is refused.
	FirstModel string
	// TBTIsTPOT is set when a record gave time per output token, not the
	// median gap between tokens.
	TBTIsTPOT bool
}

// NewRecords returns the state for reading one file.
func NewRecords() *Records {
	return &Records{Probs: jsondoc.NewChecker(), Rate: problem.List{Kind: problem.Invalid}}
}

// Finish adds the notes the file calls for (rate-driven records left out, a
// truncated file, TPOT as time between tokens) and returns the refusal, if
// any: rate-driven records refuse the file only when no cell is left.
func (r *Records) Finish(out *run.Parsed, truncated bool) error {
	switch {
	case len(out.Decode) == 0 && len(r.Rate.Problems) > 0:
		r.Probs.Problems = append(r.Probs.Problems, r.Rate.Problems...)
	case len(r.Rate.Problems) > 0:
		out.Notes = append(out.Notes, NoteRateRowsSkipped)
	}
	if truncated {
		out.Notes = append(out.Notes, NoteTruncated)
	}
	if r.TBTIsTPOT {
		out.Notes = append(out.Notes, NoteTBTIsTPOT)
	}
	return r.Probs.Err()
}
