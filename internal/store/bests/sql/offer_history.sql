-- offer_run_history.sql for cells kept in memory (freshIndex), one per key,
-- as arrays by column in the table's order ($1–$12).
INSERT INTO history_cells AS h (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug,
    engine_version, model_base_slug, total_tps, uploaded_at, run_id, demo)
SELECT y.* FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::integer[], $6::text[], $7::text[],
    $8::text[], $9::double precision[], $10::timestamptz[], $11::text[], $12::boolean[])
    AS y (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version,
        model_base_slug, total_tps, uploaded_at, run_id, demo)
WHERE NOT EXISTS (SELECT FROM history_cells o
    WHERE (o.hardware_slug, o.engine_slug, o.model_slug, o.context, o.concurrency, o.quantization_slug, o.engine_version) =
        (y.hardware_slug, y.engine_slug, y.model_slug, y.context, y.concurrency, y.quantization_slug, y.engine_version)
    AND (-o.total_tps, o.uploaded_at, o.run_id) <= (-y.total_tps, y.uploaded_at, y.run_id))
ORDER BY hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version
ON CONFLICT (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version) DO UPDATE SET
    total_tps = excluded.total_tps, uploaded_at = excluded.uploaded_at, run_id = excluded.run_id, demo = excluded.demo
WHERE (-excluded.total_tps, excluded.uploaded_at, excluded.run_id) < (-h.total_tps, h.uploaded_at, h.run_id)
