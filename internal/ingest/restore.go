package ingest

import (
	"context"
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// RestoreStore is what restoring a backed-up run needs of the database.
type RestoreStore interface {
	RestoreRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte, hidden bool) error
}

// Restore stores a backed-up run again the way an upload is stored: its
// source is parsed, validated and derived by the current rules, with the
// facts merged at upload (submitter, hardware, engine, model: the form's
// fields are not in the file) taken from the backup, as Rederive does.
// Identity and standing come from the backup too (id, dedupe key, upload
// time, verified name, demo mark, time of the last edit, hidden), so every
// address keeps working. The edited facts themselves are among the facts
// merged.
func Restore(ctx context.Context, st RestoreStore, kept *run.Run, dedupeKey string, source []byte, hidden bool) error {
	p, err := formats.Parse(source)
	if err != nil {
		return fmt.Errorf("run %s: its source does not parse: %w", kept.ID, err)
	}
	p.Submitter, p.Hardware, p.Engine, p.Model = kept.Submitter, kept.Hardware, kept.Engine, kept.Model
	if err := validate(p); err != nil {
		return fmt.Errorf("run %s: its source does not validate: %w", kept.ID, err)
	}
	if formats.SHA256(source) != kept.Source.SHA256 {
		return fmt.Errorf("run %s: its source is not the one uploaded (SHA-256 differs)", kept.ID)
	}
	r := derive(p)
	r.ID, r.UploadedAt, r.Source = kept.ID, kept.UploadedAt, kept.Source
	r.SubmitterVerified, r.Demo, r.EditedAt = kept.SubmitterVerified, kept.Demo, kept.EditedAt
	if kept.Demo {
		// A synthetic run's file is its export, written after the fact:
		// the run never came from a tool's format, and says so.
		r.SourceFormat = kept.SourceFormat
	}
	return st.RestoreRun(ctx, r, dedupeKey, source, hidden)
}
