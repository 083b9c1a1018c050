package sweep

import (
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Records is what reading a file of serving-benchmark records (vLLM bench
// serve, SGLang bench_serving: one JSON record per measured load) keeps from
// one record to the next, and the rules both tools' files follow at the end.
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

// RecordTool is what sets one tool's serving records apart: its names, where
// it writes the setup, and how it writes one measured load.
type RecordTool struct {
	// Format and Name name the format and the tool on runs.
	Format, Name string
	// Facts reads the setup (model, engine, settings) from the file's first
	// record.
	Facts func(o *jsondoc.Object, out *run.Parsed)
	// Record reads one record as a decode cell; false leaves it out, its
	// problem recorded in r.
	Record func(r *Records, o *jsondoc.Object) (run.Measurement, bool)
}

// ParseRecords reads a file of serving records (JSON Lines, results appended
// one after another, or an array) as one run: the setup from the first
// record, a decode cell from each record t reads, and the notes and the
// refusal the file calls for.
func ParseRecords(data []byte, t RecordTool) (*run.Parsed, error) {
	docs, err := jsondoc.Split(data)
	if err != nil {
		return nil, err
	}
	r := newRecords()
	out := &run.Parsed{Format: t.Format, Tool: run.Tool{Name: t.Name}, Provenance: run.Measured}
	for i, raw := range docs.Values {
		o := jsondoc.NewObject(raw, docs.Path(i), r.Probs)
		if o == nil {
			continue
		}
		if i == 0 {
			t.Facts(o, out)
		}
		if m, ok := t.Record(r, o); ok {
			out.Decode = append(out.Decode, m)
		}
	}
	if err := r.finish(out, docs.Truncated); err != nil {
		return nil, err
	}
	return out, nil
}

func newRecords() *Records {
	return &Records{Probs: jsondoc.NewChecker(), Rate: problem.List{Kind: problem.Invalid}}
}

// finish adds the notes the file calls for (rate-driven records left out, a
// truncated file, TPOT as time between tokens) and returns the refusal, if
// any: rate-driven records refuse the file only when no cell is left.
func (r *Records) finish(out *run.Parsed, truncated bool) error {
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
