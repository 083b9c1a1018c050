package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// RederiveStore is what deriving stored runs again needs of the database.
type RederiveStore interface {
	StaleRuns(ctx context.Context, rulesVersion, boundVersion string) (rules, flags []string, err error)
	ConfirmFlags(ctx context.Context, boundVersion string, ids []string, flags [][]string) error
	GetRun(ctx context.Context, id string) (*run.Run, error)
	GetSource(ctx context.Context, id string) ([]byte, run.Source, error)
	ReplaceDerived(ctx context.Context, id string, r *run.Run) error
}

// confirmBatch is how many runs whose flags held are recorded in one
// statement.
const confirmBatch = 500

// RederiveStale derives every run stored under older status rules again
// from its source document, so a change of the rules reaches every page,
// and checks the flags of every run flagged with older calculator tables
// (calculator.BoundVersion) again. It returns how many runs it renewed.
// The facts merged at upload (hardware, engine, model, submitter) are the
// stored ones: the form's fields are not in the source file.
//
// An edit of the GPU or model tables leaves every stored run's flags
// stale, and deriving a million runs again, each renewing its group's
// bests and pages, would take hours. So a run flagged with older tables is
// only read, its flags computed with today's tables from its stored cells,
// and where they are what is stored, only the version is recorded, in
// batches; a run whose flags change is derived again in full, which
// renews what ranks it.
func RederiveStale(ctx context.Context, st RederiveStore) (int, error) {
	version := calculator.BoundVersion()
	ids, flagged, err := st.StaleRuns(ctx, status.RulesVersion, version)
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		if err := Rederive(ctx, st, id); err != nil {
			return i, err
		}
	}
	renewed := len(ids)
	var held []string
	var heldFlags [][]string
	confirm := func() error {
		err := st.ConfirmFlags(ctx, version, held, heldFlags)
		held, heldFlags = held[:0], heldFlags[:0]
		return err
	}
	for _, id := range flagged {
		r, err := st.GetRun(ctx, id)
		if errors.Is(err, db.ErrNotFound) {
			continue // deleted since it was listed
		} else if err != nil {
			return renewed, err
		}
		if flags := calculator.Flags(r); slices.Equal(flags, r.Flags) {
			held, heldFlags = append(held, id), append(heldFlags, flags)
			if len(held) == confirmBatch {
				if err := confirm(); err != nil {
					return renewed, err
				}
			}
			continue
		}
		if err := Rederive(ctx, st, id); err != nil {
			return renewed, err
		}
		renewed++
	}
	if len(held) > 0 {
		return renewed, confirm()
	}
	return renewed, nil
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
