-- One run's offers to submitter_best_cells, the best per browse group and proven submitter (offerRunArgs): $1–$6
-- each offer's context, concurrency, metric, status, sort value and value; $7–$17
-- what they share: the run's model, base model, hardware, engine, quantization,
-- demo flag, id and upload time, then its engine version, submitter and proven
-- submitter's slug, which a board shows (bestShownColumns). $18 marks the offers that cannot
-- win while best_epoch holds $19 (bestBounds): those are left out unprobed.
INSERT INTO submitter_best_cells AS b (context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at, engine_version, submitter, submitter_slug)
SELECT y.context, y.concurrency, y.metric, y.status, $7::text AS model_slug, $8::text AS model_base_slug,
    $9::text AS hardware_slug, $10::text AS engine_slug, $11::text AS quantization_slug, $12::bool AS demo,
    y.sort_value, y.value, $13::text AS run_id, $14::timestamptz AS uploaded_at,
    $15::text AS engine_version, $16::text AS submitter, $17::text AS submitter_slug
FROM (SELECT u.context, ($2::int[])[u.i::integer] AS concurrency, ($3::text[])[u.i::integer] AS metric,
        ($4::text[])[u.i::integer] AS status, ($5::float8[])[u.i::integer] AS sort_value,
        ($6::float8[])[u.i::integer] AS value
    FROM unnest($1::int[]) WITH ORDINALITY AS u (context, i)
    WHERE NOT (($18::bool[])[u.i::integer] AND (SELECT e.epoch FROM best_epoch e) = $19::bigint)) AS y
LEFT JOIN LATERAL (SELECT o.sort_value, o.uploaded_at, o.run_id FROM submitter_best_cells o
    WHERE (o.context, o.concurrency, o.metric, o.status, o.model_slug, o.hardware_slug, o.engine_slug, o.quantization_slug, o.demo, o.submitter_slug) =
        (y.context, y.concurrency, y.metric, y.status, $7::text, $9::text, $10::text, $11::text, $12::bool, $17::text)
    LIMIT 1) AS o ON true
WHERE o.run_id IS NULL OR (y.sort_value, $14::timestamptz, $13::text) < (o.sort_value, o.uploaded_at, o.run_id)
ORDER BY context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo, submitter_slug
ON CONFLICT (context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo, submitter_slug) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at,
    engine_version = excluded.engine_version, submitter = excluded.submitter
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)
