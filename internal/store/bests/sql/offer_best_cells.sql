-- Offers to best_cells, the best per browse group, one per key, as arrays by column ($1–$17;
-- offerArgs): the columns of best_cells' kind, then the run's engine version, submitter
-- and proven submitter's slug, which a board shows (bestShownColumns). Each takes its key's
-- place when it beats the stored row, probed first so that a losing offer locks nothing.
INSERT INTO best_cells AS b (context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at, engine_version, submitter, submitter_slug)
SELECT y.* FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::bool[], $11::float8[], $12::float8[], $13::text[], $14::timestamptz[], $15::text[], $16::text[], $17::text[])
    AS y (context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
        quantization_slug, demo, sort_value, value, run_id, uploaded_at, engine_version, submitter, submitter_slug)
LEFT JOIN LATERAL (SELECT o.sort_value, o.uploaded_at, o.run_id FROM best_cells o
    WHERE (o.context, o.concurrency, o.metric, o.status, o.model_slug, o.hardware_slug, o.engine_slug, o.quantization_slug, o.demo) =
        (y.context, y.concurrency, y.metric, y.status, y.model_slug, y.hardware_slug, y.engine_slug, y.quantization_slug, y.demo)
    LIMIT 1) AS o ON true
WHERE o.run_id IS NULL OR (y.sort_value, y.uploaded_at, y.run_id) < (o.sort_value, o.uploaded_at, o.run_id)
ORDER BY context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo
ON CONFLICT (context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at,
    engine_version = excluded.engine_version, submitter = excluded.submitter, submitter_slug = excluded.submitter_slug
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)
