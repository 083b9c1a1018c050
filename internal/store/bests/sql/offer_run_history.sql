-- Run $1's valid cells offered to history_cells: $2–$5 each cell's run id
-- (the run's), context, concurrency and total tok/s (offerRunHistoryArgs);
-- the run's slugs, version, upload time and rankability come from its runs
-- row. Per key the best offer takes the stored row's place when it is better.
-- An offer no better than the stored row is left out before the upsert, whose
-- ON CONFLICT would lock the row even when it keeps it: a setup's history is
-- mostly settled, so most uploads lock nothing here. That is safe while uploads
-- hold bestLock shared: only a rebuild, which holds it exclusively, makes a
-- stored row worse.
INSERT INTO history_cells AS h (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug,
    engine_version, model_base_slug, total_tps, uploaded_at, run_id, demo)
SELECT * FROM (
    SELECT DISTINCT ON (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version) *
    FROM (
        SELECT r.hardware_slug, r.engine_slug, r.model_slug, c.context, c.concurrency, r.quantization_slug,
            r.engine_version, r.model_base_slug, c.total_tps, r.uploaded_at, r.id AS run_id, r.demo
        FROM runs r
        JOIN unnest($2::text[], $3::integer[], $4::integer[], $5::double precision[])
            AS c (id, context, concurrency, total_tps) ON c.id = r.id
        WHERE r.id = $1 AND r.engine_version <> '' AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick') AS x
    ORDER BY hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version,
        total_tps DESC, uploaded_at, run_id) AS y
WHERE NOT EXISTS (SELECT FROM history_cells o
    WHERE (o.hardware_slug, o.engine_slug, o.model_slug, o.context, o.concurrency, o.quantization_slug, o.engine_version) =
        (y.hardware_slug, y.engine_slug, y.model_slug, y.context, y.concurrency, y.quantization_slug, y.engine_version)
    AND (-o.total_tps, o.uploaded_at, o.run_id) <= (-y.total_tps, y.uploaded_at, y.run_id))
ORDER BY hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version
ON CONFLICT (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version) DO UPDATE SET
    total_tps = excluded.total_tps, uploaded_at = excluded.uploaded_at, run_id = excluded.run_id, demo = excluded.demo
WHERE (-excluded.total_tps, excluded.uploaded_at, excluded.run_id) < (-h.total_tps, h.uploaded_at, h.run_id)
