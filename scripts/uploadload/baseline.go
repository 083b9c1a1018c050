package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// baseline is the floor the upload path is measured against
// (docs/performance.md): raw pgx inserts of the same runs into scratch
// tables of the same shape as runs, decode_cells and prefill_rows (their
// columns, defaults, keys and indexes), one transaction per run, the row
// by INSERT and the cells by CopyFrom. It has none of the upload's
// guarantees beyond the transaction (no dedupe, no browse index, no
// notification), which is why it is a tool's and not the store's. The row
// holds the document's columns; the browse index's (slugs, headline
// numbers) keep their defaults, and have their index entries all the same.
type baseline struct {
	pool                  *pgxpool.Pool
	runs, decode, prefill string
	insertSQL             string
}

// newBaseline creates the scratch tables on the database at url, named
// with a random suffix so several measurements can share a database. drop
// removes them.
func newBaseline(ctx context.Context, url string) (*baseline, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	suffix := strings.ToLower(rand.Text()[:8])
	b := &baseline{pool: pool, runs: "baseline_runs_" + suffix, decode: "baseline_decode_" + suffix,
		prefill: "baseline_prefill_" + suffix}
	for _, t := range [][2]string{{b.runs, "runs"}, {b.decode, "decode_cells"}, {b.prefill, "prefill_rows"}} {
		// Unlike runs, the scratch tables have no foreign keys: those
		// would tie them to the site's own rows.
		if _, err := pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE %s (LIKE %s INCLUDING ALL)`, t[0], t[1])); err != nil {
			pool.Close()
			return nil, err
		}
	}
	placeholders := make([]string, len(runColumns))
	for i := range placeholders {
		placeholders[i] = fmt.Sprintf("$%d", i+1)
	}
	b.insertSQL = `INSERT INTO ` + b.runs + ` (` + strings.Join(runColumns, ", ") + `) VALUES (` +
		strings.Join(placeholders, ", ") + `)`
	return b, nil
}

// insert stores r's row, decode cells and prefill rows under key in one
// transaction.
func (b *baseline) insert(ctx context.Context, r *run.Run, key string) error {
	id := runID(key)
	uploaded := time.Now().UTC().Truncate(time.Microsecond)
	return pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, b.insertSQL, runRow(id, key, uploaded, r)...); err != nil {
			return err
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{b.decode}, decodeColumns,
			pgx.CopyFromSlice(len(r.Decode), func(i int) ([]any, error) { return decodeRow(id, &r.Decode[i]), nil })); err != nil {
			return err
		}
		_, err := tx.CopyFrom(ctx, pgx.Identifier{b.prefill}, prefillColumns,
			pgx.CopyFromSlice(len(r.Prefill), func(i int) ([]any, error) { return prefillRow(id, &r.Prefill[i]), nil }))
		return err
	})
}

// drop removes the scratch tables and closes the pool.
func (b *baseline) drop(ctx context.Context) error {
	defer b.pool.Close()
	_, err := b.pool.Exec(ctx, fmt.Sprintf(`DROP TABLE IF EXISTS %s, %s, %s`, b.runs, b.decode, b.prefill))
	return err
}

// runID is a run's id as long as the store's, from its dedupe key.
func runID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return strings.ToLower(base32.StdEncoding.EncodeToString(sum[:]))[:12]
}

// runColumns are the runs columns runRow fills.
var runColumns = strings.Fields(`id dedupe_key uploaded_at revision rules_version submitter provenance
    tool_name tool_version source_format measured_at
    hardware_type hardware_gpu_name hardware_gpu_count hardware_vram_gb
    hardware_cpu_name hardware_cpu_cores hardware_ram_gb hardware_os hardware_driver
    engine_name engine_version engine_quantization engine_backend engine_build engine_launch_command
    model_id model_served_name model_revision
    settings_decode_mode settings_prefill_mode settings_seconds_per_measurement
    settings_request_count settings_max_output_tokens settings_kv_budget_tokens
    settings_max_running_requests settings_contexts settings_concurrencies settings_prefill_contexts
    source_sha256 source_filename source_content_type source_size
    demo notes submitter_verified profile integrity`)

// runRow is r's row under id, in runColumns' order.
func runRow(id, key string, uploaded time.Time, r *run.Run) []any {
	h, e, m, st, src := &r.Hardware, &r.Engine, &r.Model, &r.Settings, &r.Source
	return []any{
		id, key, uploaded, 1, r.RulesVersion, r.Submitter, string(r.Provenance),
		r.Tool.Name, r.Tool.Version, r.SourceFormat, r.MeasuredAt,
		string(h.Type), h.GPUName, h.GPUCount, h.VRAMGB,
		h.CPUName, h.CPUCores, h.RAMGB, h.OS, h.Driver,
		e.Name, e.Version, e.Quantization, e.Backend, e.Build, e.LaunchCommand,
		m.ID, m.ServedName, m.Revision,
		st.DecodeMode, st.PrefillMode, st.SecondsPerMeasurement,
		st.RequestCount, st.MaxOutputTokens, st.KVBudgetTokens,
		st.MaxRunningRequests, st.Contexts, st.Concurrencies, st.PrefillContexts,
		src.SHA256, src.Filename, src.ContentType, src.Size,
		r.Demo, r.Notes, r.SubmitterVerified, r.Profile, r.Integrity,
	}
}

// decodeColumns and prefillColumns are the cells tables' columns, as
// decodeRow and prefillRow fill them.
var (
	decodeColumns = []string{"run_id", "context", "concurrency", "measured_context", "status", "reason",
		"reason_code", "total_tps", "per_request_tps", "ttft_ms", "tbt_ms", "avg_active", "completed",
		"output_tokens", "measured_s", "measured", "signal_failed", "signal_failure_reason",
		"signal_loop_detected", "signal_capacity_limited", "signal_avg_queue", "signal_queue_fraction"}
	prefillColumns = []string{"run_id", "context", "measured_context", "status", "reason", "reason_code",
		"prompt_tps", "ttft_ms", "completed", "measured"}
)

func decodeRow(id string, c *run.DecodeCell) []any {
	return []any{
		id, c.Context, c.Concurrency, c.MeasuredContext, string(c.Status), c.Reason, string(c.ReasonCode),
		c.TotalTPS, c.PerRequestTPS, c.TTFTms, c.TBTms, c.AvgActive, c.Completed,
		c.OutputTokens, c.MeasuredS, c.Measured,
		c.Signals.Failed, c.Signals.FailureReason, c.Signals.LoopDetected,
		c.Signals.CapacityLimited, c.Signals.AvgQueue, c.Signals.QueueFraction,
	}
}

func prefillRow(id string, p *run.PrefillRow) []any {
	return []any{id, p.Context, p.MeasuredContext, string(p.Status), p.Reason,
		string(p.ReasonCode), p.PromptTPS, p.TTFTms, p.Completed, p.Measured}
}
