-- Leaderboards rank by tokens per joule too: a cell's total tok/s ÷ its
-- average GPU board power (decode_cells.telemetry's power_w). The tables of
-- bests take the metric, and are filled for the runs already stored by the
-- same rule an upload's offers follow (bestCellsSelect): valid and queued
-- cells with a positive value, of runs shown, not quick and not flagged;
-- cells without a measured power have no value and do not rank.
ALTER TABLE best_cells DROP CONSTRAINT best_cells_metric_check,
    ADD CONSTRAINT best_cells_metric_check CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms', 'tokens_per_joule'));
ALTER TABLE version_best_cells DROP CONSTRAINT version_best_cells_metric_check,
    ADD CONSTRAINT version_best_cells_metric_check CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms', 'tokens_per_joule'));
ALTER TABLE submitter_best_cells DROP CONSTRAINT submitter_best_cells_metric_check,
    ADD CONSTRAINT submitter_best_cells_metric_check CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms', 'tokens_per_joule'));

CREATE TEMPORARY TABLE tpj_cells ON COMMIT DROP AS
SELECT c.context, c.concurrency, 'tokens_per_joule'::text AS metric, c.status,
    r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo,
    -(c.total_tps / (c.telemetry->>'power_w')::float8) AS sort_value,
    c.total_tps / (c.telemetry->>'power_w')::float8 AS value, r.id AS run_id, r.uploaded_at,
    r.engine_version, r.submitter_slug
FROM decode_cells c
JOIN runs r ON r.id = c.run_id
WHERE c.status IN ('valid', 'queued') AND c.total_tps > 0 AND (c.telemetry->>'power_w')::float8 > 0
    AND NOT r.hidden AND r.profile <> 'quick' AND NOT r.above_bound;

INSERT INTO best_cells (context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at)
SELECT DISTINCT ON (context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo)
    context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at
FROM tpj_cells
ORDER BY context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo,
    sort_value, uploaded_at, run_id;

INSERT INTO version_best_cells (context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at, engine_version)
SELECT DISTINCT ON (context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo, engine_version)
    context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at, engine_version
FROM tpj_cells WHERE engine_version <> ''
ORDER BY context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo, engine_version,
    sort_value, uploaded_at, run_id;

INSERT INTO submitter_best_cells (context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at, submitter_slug)
SELECT DISTINCT ON (context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo, submitter_slug)
    context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at, submitter_slug
FROM tpj_cells WHERE submitter_slug <> ''
ORDER BY context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo, submitter_slug,
    sort_value, uploaded_at, run_id;
