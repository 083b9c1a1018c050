-- Run $1's engine version gets its history_versions row, with no runs, when
-- the run is one a history reads and the version has no row yet; a new row
-- adds a version to its setup's history_setups row. The setup's row is
-- written from the version row the insert returns, so after it.
WITH h AS (
    INSERT INTO history_versions (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version,
        model_base_slug, runs)
    SELECT r.hardware_slug, r.engine_slug, r.model_slug, r.quantization_slug, r.engine_version, r.model_base_slug, 0
    FROM runs r
    WHERE r.id = $1 AND r.engine_version <> '' AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick'
        AND NOT EXISTS (SELECT FROM history_versions o
            WHERE (o.hardware_slug, o.engine_slug, o.model_slug, o.quantization_slug, o.engine_version) =
                (r.hardware_slug, r.engine_slug, r.model_slug, r.quantization_slug, r.engine_version))
    ON CONFLICT DO NOTHING
    RETURNING hardware_slug, engine_slug, model_slug, quantization_slug, model_base_slug)
INSERT INTO history_setups AS s (hardware_slug, engine_slug, model_slug, quantization_slug, model_base_slug, versions)
SELECT hardware_slug, engine_slug, model_slug, quantization_slug, model_base_slug, 1 FROM h
ON CONFLICT (hardware_slug, engine_slug, model_slug, quantization_slug) DO UPDATE SET versions = s.versions + excluded.versions
