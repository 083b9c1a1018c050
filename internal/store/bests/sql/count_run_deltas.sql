-- Run $1 counted $2 times (1, or -1 for a run that leaves) in its browse
-- group, and in history_runs when it is one a history reads: a row of
-- browse_count_deltas, a table no one waits on, which the fold adds up.
INSERT INTO browse_count_deltas (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug,
    runs, history_runs)
SELECT r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.engine_version, r.quantization_slug, $2::bigint,
    $2::bigint * (r.engine_version <> '' AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick')::integer
FROM runs r
WHERE r.id = $1
