-- The planner's answer per setup on one hardware (Store.PlanSetups): $1 the
-- hardware slug, $2 the asked context, $3 the speed each request needs.
-- One row per setup (model, engine, quantization, demo) of best_cells on
-- the hardware, deciding the answer there:
--   * the context used is the setup's smallest measured context at or
--     above $2, or its longest when none reaches $2 (short: no answer);
--   * at each concurrency of that context, the valid cells best per
--     request and best in total answer: the per-request best at its
--     per_request_tps, or the total best at total ÷ users where its file
--     lacks a per-request speed (derived: where no run of the point has
--     one, or where the total best lacks it and is faster that way);
--   * the answer is the largest concurrency whose speed meets $3, even
--     where a smaller one misses it by noise; 0 users when none does.
-- It reads best_cells_plan_idx alone (index-only), a few probes per setup:
-- the next setup after the last (a skip scan, as PostgreSQL has none of
-- its own), its context used, and that context's entries, never the rows
-- of the setup's other contexts. So the work grows with the setups
-- measured on the hardware, never with their runs. A run's cell is read
-- only where the total best may answer faster than the per-request best
-- without a speed of its own, which formats that all give per-request
-- speeds never ask.
WITH RECURSIVE setups AS (
    (SELECT model_slug, engine_slug, quantization_slug, demo, model_base_slug
    FROM best_cells
    WHERE hardware_slug = $1 AND metric IN ('per_request_tps', 'total_tps')
    ORDER BY model_slug, engine_slug, quantization_slug, demo
    LIMIT 1)
    UNION ALL
    SELECT n.*
    FROM setups s
    CROSS JOIN LATERAL (
        SELECT b.model_slug, b.engine_slug, b.quantization_slug, b.demo, b.model_base_slug
        FROM best_cells b
        WHERE b.hardware_slug = $1 AND b.metric IN ('per_request_tps', 'total_tps')
            AND (b.model_slug, b.engine_slug, b.quantization_slug, b.demo) >
                (s.model_slug, s.engine_slug, s.quantization_slug, s.demo)
        ORDER BY b.model_slug, b.engine_slug, b.quantization_slug, b.demo
        LIMIT 1
    ) n
), used AS (
    SELECT s.*, r.context AS reached, coalesce(r.context, l.context) AS context
    FROM setups s
    LEFT JOIN LATERAL (
        SELECT b.context
        FROM best_cells b
        WHERE b.hardware_slug = $1 AND b.metric IN ('per_request_tps', 'total_tps')
            AND (b.model_slug, b.engine_slug, b.quantization_slug, b.demo) =
                (s.model_slug, s.engine_slug, s.quantization_slug, s.demo)
            AND b.context >= $2::int
        ORDER BY b.context
        LIMIT 1
    ) r ON true
    LEFT JOIN LATERAL (
        SELECT b.context
        FROM best_cells b
        WHERE r.context IS NULL AND b.hardware_slug = $1 AND b.metric IN ('per_request_tps', 'total_tps')
            AND (b.model_slug, b.engine_slug, b.quantization_slug, b.demo) =
                (s.model_slug, s.engine_slug, s.quantization_slug, s.demo)
        ORDER BY b.context DESC
        LIMIT 1
    ) l ON true
)
SELECT u.model_slug, u.model_base_slug, u.engine_slug, u.quantization_slug, u.demo,
    coalesce(im.name, u.model_slug), coalesce(ie.name, u.engine_slug), coalesce(iq.name, ''),
    u.context, u.reached IS NULL,
    coalesce(a.concurrency, 0), coalesce(a.run_id, ''), coalesce(a.speed, 0), coalesce(a.is_derived, false)
FROM used u
LEFT JOIN LATERAL (
    -- The largest concurrency of the context used that meets $3.
    SELECT p.concurrency,
        CASE WHEN p.is_derived THEN p.derived ELSE p.per_request END AS speed,
        CASE WHEN p.is_derived THEN p.total_run ELSE p.per_request_run END AS run_id, p.is_derived
    FROM (
        SELECT p.*, p.per_request_run IS NULL OR coalesce(c.lacks, false) AS is_derived
        FROM (
            SELECT b.concurrency,
                max(b.value) FILTER (WHERE b.metric = 'per_request_tps') AS per_request,
                min(b.run_id) FILTER (WHERE b.metric = 'per_request_tps') AS per_request_run,
                max(b.value) FILTER (WHERE b.metric = 'total_tps') / b.concurrency AS derived,
                min(b.run_id) FILTER (WHERE b.metric = 'total_tps') AS total_run
            FROM best_cells b
            WHERE b.hardware_slug = $1 AND b.metric IN ('per_request_tps', 'total_tps')
                AND (b.model_slug, b.engine_slug, b.quantization_slug, b.demo, b.context) =
                    (u.model_slug, u.engine_slug, u.quantization_slug, u.demo, u.context)
                AND b.status = 'valid'
            GROUP BY b.concurrency
        ) p
        -- LIMIT keeps the look-up a probe per row, made only where it may
        -- change the answer (the conditions on p alone gate it).
        LEFT JOIN LATERAL (
            SELECT NOT coalesce(d.per_request_tps > 0, false) AS lacks
            FROM decode_cells d
            WHERE (d.run_id, d.context, d.concurrency) = (p.total_run, u.context, p.concurrency)
                AND p.total_run <> p.per_request_run AND p.derived > p.per_request AND p.derived >= $3::float8
            LIMIT 1
        ) c ON true
    ) p
    WHERE u.reached IS NOT NULL AND CASE WHEN p.is_derived THEN p.derived ELSE p.per_request END >= $3::float8
    ORDER BY p.concurrency DESC
    LIMIT 1
) a ON true
LEFT JOIN identities im ON im.kind = 'model' AND im.slug = u.model_slug
LEFT JOIN identities ie ON ie.kind = 'engine' AND ie.slug = u.engine_slug
LEFT JOIN identities iq ON iq.kind = 'quantization' AND iq.slug = u.quantization_slug
