-- The ladder the planner answers from, per setup on one hardware
-- (Store.PlanSetups): $1 the hardware slug, $2 the asked context. One row
-- per setup (model, engine, quantization, demo) measured on the hardware,
-- its ladder (plan_ladders says what a ladder holds and how it is kept) at
-- the context used: the setup's smallest measured context at or above $2,
-- or its longest when none reaches $2 (short: no answer). The answer on
-- the ladder is plan.Ladder's Answer.
--
-- It reads one range of the table's key, a row per setup: the work grows
-- with the setups measured on the hardware, which the catalog bounds,
-- never with their runs. width_bucket counts a setup's contexts below $2
-- (a binary search of the ascending array).
SELECT l.model_slug, l.model_base_slug, l.engine_slug, l.quantization_slug, l.demo,
    coalesce(im.name, l.model_slug), coalesce(ie.name, l.engine_slug), coalesce(iq.name, ''),
    l.contexts[u.at], u.short,
    l.concurrencies[l.starts[u.at]:l.starts[u.at + 1] - 1], l.speeds[l.starts[u.at]:l.starts[u.at + 1] - 1],
    l.run_ids[l.starts[u.at]:l.starts[u.at + 1] - 1], l.derived[l.starts[u.at]:l.starts[u.at + 1] - 1]
FROM plan_ladders l
CROSS JOIN LATERAL (SELECT width_bucket($2::int - 1, l.contexts) AS below) b
CROSS JOIN LATERAL (
    SELECT b.below = cardinality(l.contexts) AS short,
        CASE WHEN b.below = cardinality(l.contexts) THEN b.below ELSE b.below + 1 END AS at
) u
LEFT JOIN identities im ON im.kind = 'model' AND im.slug = l.model_slug
LEFT JOIN identities ie ON ie.kind = 'engine' AND ie.slug = l.engine_slug
LEFT JOIN identities iq ON iq.kind = 'quantization' AND iq.slug = l.quantization_slug
WHERE l.hardware_slug = $1
