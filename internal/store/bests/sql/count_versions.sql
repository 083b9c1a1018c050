-- count_run_versions.sql for runs counted in memory (freshIndex): $1–$6 as
-- count_groups.sql's, $7 how many of each group's runs a history reads. The
-- new rows go in in key order, then their setups' rows, in key order.
WITH h AS (
    INSERT INTO history_versions (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version,
        model_base_slug, runs)
    SELECT n.hardware_slug, n.engine_slug, n.model_slug, n.quantization_slug, n.engine_version, n.model_base_slug, 0
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
        AS n (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, history_runs)
    WHERE n.history_runs > 0 AND NOT EXISTS (SELECT FROM history_versions o
        WHERE (o.hardware_slug, o.engine_slug, o.model_slug, o.quantization_slug, o.engine_version) =
            (n.hardware_slug, n.engine_slug, n.model_slug, n.quantization_slug, n.engine_version))
    ORDER BY n.hardware_slug, n.engine_slug, n.model_slug, n.quantization_slug, n.engine_version
    ON CONFLICT DO NOTHING
    RETURNING hardware_slug, engine_slug, model_slug, quantization_slug, model_base_slug)
INSERT INTO history_setups AS s (hardware_slug, engine_slug, model_slug, quantization_slug, model_base_slug, versions)
SELECT hardware_slug, engine_slug, model_slug, quantization_slug, min(model_base_slug), count(*) FROM h
GROUP BY hardware_slug, engine_slug, model_slug, quantization_slug
ORDER BY hardware_slug, engine_slug, model_slug, quantization_slug
ON CONFLICT (hardware_slug, engine_slug, model_slug, quantization_slug) DO UPDATE SET versions = s.versions + excluded.versions
