-- count_run_groups.sql for runs counted in memory (freshIndex), one element
-- per browse group: $1–$6 the groups' model, base model, hardware, engine,
-- engine version and quantization. The new rows go in in key order.
INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT n.model_slug, n.model_base_slug, n.hardware_slug, n.engine_slug, n.engine_version, n.quantization_slug, 0
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
    AS n (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug)
WHERE NOT EXISTS (SELECT FROM browse_groups o
    WHERE (o.model_slug, o.hardware_slug, o.engine_slug, o.engine_version, o.quantization_slug) =
        (n.model_slug, n.hardware_slug, n.engine_slug, n.engine_version, n.quantization_slug))
ORDER BY n.model_slug, n.hardware_slug, n.engine_slug, n.engine_version, n.quantization_slug
ON CONFLICT DO NOTHING
