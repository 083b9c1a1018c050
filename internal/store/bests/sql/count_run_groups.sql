-- Run $1's browse group gets its row, with no runs, when it has none yet: an
-- existing row is left out before the insert, unlocked, so the insert never
-- waits on a fold that is updating it. The run itself is counted in
-- browse_count_deltas (count_run_deltas.sql).
INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.engine_version, r.quantization_slug, 0
FROM runs r
WHERE r.id = $1 AND NOT EXISTS (SELECT FROM browse_groups o
    WHERE (o.model_slug, o.hardware_slug, o.engine_slug, o.engine_version, o.quantization_slug) =
        (r.model_slug, r.hardware_slug, r.engine_slug, r.engine_version, r.quantization_slug))
ON CONFLICT DO NOTHING
