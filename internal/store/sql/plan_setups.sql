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
-- It reads best_cells_plan_idx alone (index-only), two probes per setup:
-- the next setup after the last (a skip scan, as PostgreSQL has none of
-- its own), then the entries of its context used, never those of its
-- other contexts. So the work grows with the setups measured on the
-- hardware, never with their runs. A run's cell is read only where the
-- total best may answer faster than the per-request best without a speed
-- of its own, which formats that all give per-request speeds never ask.
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
)
SELECT s.model_slug, s.model_base_slug, s.engine_slug, s.quantization_slug, s.demo,
    coalesce(im.name, s.model_slug), coalesce(ie.name, s.engine_slug), coalesce(iq.name, ''),
    coalesce(a.context, l.context), a.context IS NULL,
    CASE WHEN a.meets THEN a.concurrency ELSE 0 END, CASE WHEN a.meets THEN a.run_id ELSE '' END,
    CASE WHEN a.meets THEN a.speed ELSE 0 END, coalesce(a.meets AND a.is_derived, false)
FROM setups s
LEFT JOIN LATERAL (
    -- The context used's largest concurrency that meets $3, or, when none
    -- does, a row that names that context alone.
    SELECT p.*, p.speed >= $3::float8 IS TRUE AS meets
    FROM (
        SELECT p.context, p.concurrency, p.is_derived,
            CASE WHEN p.is_derived THEN p.derived ELSE p.per_request END AS speed,
            CASE WHEN p.is_derived THEN p.total_run ELSE p.per_request_run END AS run_id
        FROM (
            SELECT p.*, p.per_request_run IS NULL OR coalesce(c.lacks, false) AS is_derived
            FROM (
                SELECT b.context, b.concurrency,
                    max(b.value) FILTER (WHERE b.metric = 'per_request_tps' AND b.status = 'valid') AS per_request,
                    min(b.run_id) FILTER (WHERE b.metric = 'per_request_tps' AND b.status = 'valid') AS per_request_run,
                    max(b.value) FILTER (WHERE b.metric = 'total_tps' AND b.status = 'valid') / b.concurrency AS derived,
                    min(b.run_id) FILTER (WHERE b.metric = 'total_tps' AND b.status = 'valid') AS total_run
                FROM (
                    -- The entries of the smallest context at or above $2.
                    SELECT b.context, b.concurrency, b.metric, b.status, b.value, b.run_id
                    FROM best_cells b
                    WHERE b.hardware_slug = $1 AND b.metric IN ('per_request_tps', 'total_tps')
                        AND (b.model_slug, b.engine_slug, b.quantization_slug, b.demo) =
                            (s.model_slug, s.engine_slug, s.quantization_slug, s.demo)
                        AND b.context >= $2::int
                    ORDER BY b.context
                    FETCH FIRST 1 ROWS WITH TIES
                ) b
                GROUP BY b.context, b.concurrency
            ) p
            -- LIMIT keeps the look-up a probe per row, made only where it
            -- may change the answer (the conditions on p alone gate it).
            LEFT JOIN LATERAL (
                SELECT NOT coalesce(d.per_request_tps > 0, false) AS lacks
                FROM decode_cells d
                WHERE (d.run_id, d.context, d.concurrency) = (p.total_run, p.context, p.concurrency)
                    AND p.total_run <> p.per_request_run AND p.derived > p.per_request AND p.derived >= $3::float8
                LIMIT 1
            ) c ON true
        ) p
    ) p
    ORDER BY meets DESC, p.concurrency DESC
    LIMIT 1
) a ON true
LEFT JOIN LATERAL (
    -- A setup measured short of $2: its longest context.
    SELECT b.context
    FROM best_cells b
    WHERE a.context IS NULL AND b.hardware_slug = $1 AND b.metric IN ('per_request_tps', 'total_tps')
        AND (b.model_slug, b.engine_slug, b.quantization_slug, b.demo) =
            (s.model_slug, s.engine_slug, s.quantization_slug, s.demo)
    ORDER BY b.context DESC
    LIMIT 1
) l ON true
LEFT JOIN identities im ON im.kind = 'model' AND im.slug = s.model_slug
LEFT JOIN identities ie ON ie.kind = 'engine' AND ie.slug = s.engine_slug
LEFT JOIN identities iq ON iq.kind = 'quantization' AND iq.slug = s.quantization_slug
