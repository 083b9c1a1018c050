package store

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The runs row: insertRunSQL, runRowArgs, selectRunSQL and scanRun list the
// columns in the same order, grouped as run.Run groups its fields.

// runColumns are the columns a run is written and read by, after its id.
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
// browse index's own columns (browseRowArgs), so the row is written once
// rather than inserted and updated twice (every update of an indexed
// column writes a new entry in each of runs' dozen indexes).
const insertRunSQL = insertRunHead + `
    -- A verified run belongs to its submitter's account (who may delete it).
    (SELECT id FROM submitters WHERE $45 AND lower(handle) = lower($5)),
    -- The organisation it was uploaded for; InsertRun checked the
    -- membership (a restore keeps the organisation as it was).
    (SELECT id FROM orgs WHERE $45 AND $59 <> '' AND lower(slug) = lower($59))
)
ON CONFLICT DO NOTHING
RETURNING (SELECT epoch FROM best_epoch)`

// insertUnverifiedRunSQL is insertRunSQL for a run whose submitter is not
// verified, which belongs to no account and no organisation: the same row
// without the two lookups, and without $59 (the organisation's slug).
// With them, a custom plan folds `$45 AND …` away, which makes it cheaper
// than the generic plan by the two subqueries, so PostgreSQL planned the
// statement afresh at every such upload (0.14 ms of the backend's CPU);
// without them it keeps the generic plan.
const insertUnverifiedRunSQL = insertRunHead + `
    NULL, NULL
)
ON CONFLICT DO NOTHING
RETURNING (SELECT epoch FROM best_epoch)`

// insertRunHead is insertRunSQL up to its last two values, the run's
// account and organisation.
const insertRunHead = `
INSERT INTO runs (
    id, dedupe_key,` + runColumns + `,
    hardware_slug, engine_slug, model_slug, model_base_slug, submitter_slug, quantization_slug,
    catalog_version, best_single_tps, best_peak_tps, above_bound, bound_version,
    submitter_id, org_id
) VALUES (
    $1, $2, $3, 1, $4, $5, $6,
    $7, $8, $9, $10,
    $11, $12, $13, $14,
    $15, $16, $17, $18, $19,
    $20, $21, $22, $23, $24,
    $25,
    $26, $27, $28,
    $29, $30, $31,
    $32, $33, $34,
    $35, $36, $37,
    $38,
    $39, $40, $41, $42,
    $43, $44,
    $45, $46, $47,
    $48, $49, $50, $51, $52, $53,
    $54, $55, $56, $57, $58,
    `

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
	}, append(browseRowArgs(r), r.Org.Slug)...)
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
