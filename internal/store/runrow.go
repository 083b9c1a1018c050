package store

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
)

// The runs row: insert_run.sql, runRowArgs, selectRunSQL and scanRun list
// the columns in the same order, grouped as run.Run groups its fields.

// runColumns are the columns a run is read by (and copied by, bulkRunColumns),
// after its id.
const runColumns = `
    uploaded_at, revision, rules_version, submitter, provenance,
    tool_name, tool_version, source_format, measured_at,
    hardware_type, hardware_gpu_name, hardware_gpu_count, hardware_vram_gb,
    hardware_cpu_name, hardware_cpu_cores, hardware_ram_gb, hardware_os, hardware_driver,
    engine_name, engine_version, engine_quantization, engine_backend, engine_build,
    engine_launch_command,
    model_id, model_served_name, model_revision,
    settings_decode_mode, settings_prefill_mode, settings_seconds_per_measurement,
    settings_request_count, settings_max_output_tokens, settings_kv_budget_tokens,
    settings_max_running_requests, settings_contexts, settings_concurrencies,
    settings_prefill_contexts,
    source_sha256, source_filename, source_content_type, source_size,
    demo, notes,
    submitter_verified, profile, integrity`

// insertRunSQL inserts a fresh run's row whole: its columns, then the
// browse index's own columns (bests.BrowseColumns), so the row is written
// once rather than inserted and updated twice (every update of an indexed
// column writes a new entry in each of runs' dozen indexes). It returns
// the epoch of the stored bests (package bests: the epoch) when the row
// went in, and no row when its key or id is stored.
var insertRunSQL = sqlFile("insert_run")

// insertUnverifiedRunSQL is insertRunSQL for a run whose submitter is not
// verified, which belongs to no account and no organisation: the same row
// without the two lookups, and without $60 (the organisation's slug).
// With them, a custom plan folds `$45 AND …` away, which makes it cheaper
// than the generic plan by the two subqueries, so PostgreSQL planned the
// statement afresh at every such upload (0.14 ms of the backend's CPU);
// without them it keeps the generic plan.
var insertUnverifiedRunSQL = sqlFile("insert_run_unverified")

// insertRun is the statement that inserts r's row under id, and its
// parameters: insertRunSQL, or insertUnverifiedRunSQL when r's submitter
// is not verified.
func insertRun(id, dedupeKey string, uploaded time.Time, r *run.Run) (string, []any) {
	args := runRowArgs(id, dedupeKey, uploaded, r)
	if !r.SubmitterVerified {
		return insertUnverifiedRunSQL, args[:len(args)-1]
	}
	return insertRunSQL, args
}

// runRowArgs are insertRunSQL's parameters for r under id.
func runRowArgs(id, dedupeKey string, uploaded time.Time, r *run.Run) []any {
	h, e, m, st, src := &r.Hardware, &r.Engine, &r.Model, &r.Settings, &r.Source
	return append([]any{
		id, dedupeKey, uploaded, r.RulesVersion, r.Submitter, string(r.Provenance),
		r.Tool.Name, r.Tool.Version, r.SourceFormat, r.MeasuredAt,
		string(h.Type), h.GPUName, h.GPUCount, h.VRAMGB,
		h.CPUName, h.CPUCores, h.RAMGB, h.OS, h.Driver,
		e.Name, e.Version, e.Quantization, e.Backend, e.Build,
		e.LaunchCommand,
		m.ID, m.ServedName, m.Revision,
		st.DecodeMode, st.PrefillMode, st.SecondsPerMeasurement,
		st.RequestCount, st.MaxOutputTokens, st.KVBudgetTokens,
		st.MaxRunningRequests, st.Contexts, st.Concurrencies,
		st.PrefillContexts,
		src.SHA256, src.Filename, src.ContentType, src.Size,
		r.Demo, r.Notes,
		r.SubmitterVerified, r.Profile, r.Integrity,
	}, append(bests.BrowseColumns(r), r.Org.Slug)...)
}

const selectRunSQL = `
SELECT
    id,` + runColumns + `, edited_at
FROM runs
WHERE id = $1 AND NOT hidden`

func scanRun(row pgx.Row) (*run.Run, error) {
	r := new(run.Run)
	h, e, m, st, src := &r.Hardware, &r.Engine, &r.Model, &r.Settings, &r.Source
	err := row.Scan(
		&r.ID, &r.UploadedAt, &r.Revision, &r.RulesVersion, &r.Submitter, &r.Provenance,
		&r.Tool.Name, &r.Tool.Version, &r.SourceFormat, &r.MeasuredAt,
		&h.Type, &h.GPUName, &h.GPUCount, &h.VRAMGB,
		&h.CPUName, &h.CPUCores, &h.RAMGB, &h.OS, &h.Driver,
		&e.Name, &e.Version, &e.Quantization, &e.Backend, &e.Build,
		&e.LaunchCommand,
		&m.ID, &m.ServedName, &m.Revision,
		&st.DecodeMode, &st.PrefillMode, &st.SecondsPerMeasurement,
		&st.RequestCount, &st.MaxOutputTokens, &st.KVBudgetTokens,
		&st.MaxRunningRequests, &st.Contexts, &st.Concurrencies,
		&st.PrefillContexts,
		&src.SHA256, &src.Filename, &src.ContentType, &src.Size,
		&r.Demo, &r.Notes,
		&r.SubmitterVerified, &r.Profile, &r.Integrity, &r.EditedAt,
	)
	if err != nil {
		return nil, err
	}
	r.UploadedAt = r.UploadedAt.UTC()
	return r, nil
}
