package ingest

import (
	"context"
	"fmt"
	"github.com/speedmatrix/speedmatrix/internal/calculator"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// RederiveStore is what deriving stored runs again needs of the database.
type RederiveStore interface {
	StaleRuns(ctx context.Context, rulesVersion, boundVersion string) ([]string, error)
	GetRun(ctx context.Context, id string) (*run.Run, error)
	GetSource(ctx context.Context, id string) ([]byte, run.Source, error)
	ReplaceDerived(ctx context.Context, id string, r *run.Run) error
}

// RederiveStale derives every run stored under older status rules (or
// flagged with older calculator tables, calculator.BoundVersion) again
// from its source document, so a change of the rules reaches every page,
// and returns how many it renewed. The facts merged at upload (hardware,
// engine, model, submitter) are the stored ones: the form's fields are not
// in the source file.
func RederiveStale(ctx context.Context, st RederiveStore) (int, error) {
	ids, err := st.StaleRuns(ctx, status.RulesVersion, calculator.BoundVersion())
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		if err := Rederive(ctx, st, id); err != nil {
			return i, err
		}
	}
	return len(ids), nil
}

// Rederive derives one stored run again from its source document.
func Rederive(ctx context.Context, st RederiveStore, id string) error {
	stored, err := st.GetRun(ctx, id)
	if err != nil {
		return err
	}
	body, _, err := st.GetSource(ctx, id)
	if err != nil {
		return err
	}
	p, err := formats.Parse(body)
	if err != nil {
		return fmt.Errorf("run %s: its source no longer parses: %w", id, err)
	}
	p.Submitter, p.Hardware, p.Engine, p.Model = stored.Submitter, stored.Hardware, stored.Engine, stored.Model
	if err := validate(p); err != nil {
		return fmt.Errorf("run %s: its source no longer validates: %w", id, err)
	}
	return st.ReplaceDerived(ctx, id, derive(p))
}
