-- The planner's candidate cells on one hardware (Store.PlanCells): $1 the
-- hardware slug, $2 the asked context. For each setup (model, engine,
-- quantization, demo) of best_cells on the hardware, the context used is
-- its smallest measured context at or above $2, or its longest when none
-- reaches $2; the cells returned are, at that context and each
-- concurrency, the decode cells of the runs best_cells names best by
-- per-request and by total tok/s, valid or queued (a setup whose context
-- is all queued still shows, as meeting nothing). best_cells holds one
-- row per group and point, never hidden runs, quick runs or runs above
-- the bound, so this reads as many rows with a million runs as with one
-- per setup: through best_cells_hardware_rank_idx, then each run's cell
-- by decode_cells' primary key.
WITH b AS (
    SELECT context, concurrency, model_slug, model_base_slug, engine_slug, quantization_slug, demo, run_id
    FROM best_cells
    WHERE hardware_slug = $1 AND metric IN ('per_request_tps', 'total_tps') AND status IN ('valid', 'queued')
), used AS (
    SELECT model_slug, engine_slug, quantization_slug, demo,
        coalesce(min(context) FILTER (WHERE context >= $2::int), max(context)) AS context
    FROM b
    GROUP BY model_slug, engine_slug, quantization_slug, demo
), named AS (
    -- The names per setup, not per cell: a setup has a dozen cells.
    SELECT u.*, coalesce(im.name, u.model_slug) AS model_name, coalesce(ie.name, u.engine_slug) AS engine_name,
        coalesce(iq.name, '') AS quantization_name
    FROM used u
    LEFT JOIN identities im ON im.kind = 'model' AND im.slug = u.model_slug
    LEFT JOIN identities ie ON ie.kind = 'engine' AND ie.slug = u.engine_slug
    LEFT JOIN identities iq ON iq.kind = 'quantization' AND iq.slug = u.quantization_slug
), picked AS (
    SELECT DISTINCT b.run_id, b.context, b.concurrency, b.model_slug, b.model_base_slug, b.engine_slug,
        b.quantization_slug, b.demo, n.model_name, n.engine_name, n.quantization_name
    FROM b
    JOIN named n ON (n.model_slug, n.engine_slug, n.quantization_slug, n.demo, n.context) =
        (b.model_slug, b.engine_slug, b.quantization_slug, b.demo, b.context)
)
SELECT p.run_id, p.model_slug, p.model_base_slug, p.engine_slug, p.quantization_slug, p.demo,
    p.model_name, p.engine_name, p.quantization_name,
    c.context, c.concurrency, c.measured_context, c.status, c.per_request_tps, c.total_tps, c.ttft_ms
FROM picked p
JOIN decode_cells c ON (c.run_id, c.context, c.concurrency) = (p.run_id, p.context, p.concurrency)
ORDER BY p.model_slug, p.engine_slug, p.quantization_slug, p.demo, c.concurrency, p.run_id
