package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// telemetryJSON is a cell's or row's telemetry as its jsonb column holds
// it: nil (NULL) when the file measured nothing.
func telemetryJSON(t *run.Telemetry) []byte {
	if t.Empty() {
		return nil
	}
	b, err := json.Marshal(t)
	if err != nil {
		return nil // only plain numbers and strings: cannot fail
	}
	return b
}

// telemetryText is telemetryJSON as text for the insert statements' text
// arrays (cast to jsonb there); nil is NULL.
func telemetryText(t *run.Telemetry) *string {
	b := telemetryJSON(t)
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

// readTelemetry fills t from its column's JSON (nothing for NULL).
func readTelemetry(raw []byte, t *run.Telemetry) error {
	*t = run.Telemetry{}
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, t); err != nil {
		return fmt.Errorf("telemetry: %w", err)
	}
	return nil
}

// runTelemetryJSON is r's run telemetry for run_telemetry.body, nil when
// it has none (no row).
func runTelemetryJSON(r *run.Run) []byte {
	if r.Telemetry == nil {
		return nil
	}
	b, err := json.Marshal(r.Telemetry)
	if err != nil {
		return nil
	}
	return b
}

const insertRunTelemetrySQL = `INSERT INTO run_telemetry (run_id, body) VALUES ($1, $2::text::jsonb)`

// queueInsertRunTelemetry queues on b the insert of r's run telemetry
// under runID, when it has any.
func queueInsertRunTelemetry(b *pgx.Batch, runID string, r *run.Run) {
	if body := runTelemetryJSON(r); body != nil {
		b.Queue(insertRunTelemetrySQL, runID, string(body))
	}
}

// replaceRunTelemetry stores r's run telemetry in place of what run id had.
func replaceRunTelemetry(ctx context.Context, tx pgx.Tx, id string, r *run.Run) error {
	if _, err := tx.Exec(ctx, `DELETE FROM run_telemetry WHERE run_id = $1`, id); err != nil {
		return fmt.Errorf("run telemetry: %w", err)
	}
	if body := runTelemetryJSON(r); body != nil {
		if _, err := tx.Exec(ctx, insertRunTelemetrySQL, id, string(body)); err != nil {
			return fmt.Errorf("run telemetry: %w", err)
		}
	}
	return nil
}

const selectRunTelemetrySQL = `SELECT body FROM run_telemetry WHERE run_id = $1`

// scanRunTelemetry reads selectRunTelemetrySQL's row into r.Telemetry
// (nil when there is none).
func scanRunTelemetry(row pgx.Row, r *run.Run) error {
	var raw []byte
	switch err := row.Scan(&raw); err {
	case nil:
	case pgx.ErrNoRows:
		return nil
	default:
		return fmt.Errorf("run telemetry: %w", err)
	}
	r.Telemetry = new(run.RunTelemetry)
	if err := json.Unmarshal(raw, r.Telemetry); err != nil {
		return fmt.Errorf("run telemetry: %w", err)
	}
	return nil
}
