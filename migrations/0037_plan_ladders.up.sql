-- The planner's ladders: per hardware and setup (model, engine,
-- quantization, demo), the speed per request each concurrency of each
-- context measured serves, read from the best cells per request and in
-- total at its grid points (best_cells, status valid). The planner
-- answered every setup of a hardware from best_cells itself, two index
-- probes and an aggregate per setup, so its read grew with the setups
-- measured there: 6 setups of the busiest hardware at a thousand demo
-- runs, 121 at a million, and the page took 1.6-2.8 times as long. Now it
-- reads one range of this table, a row per setup, and takes from each row
-- the ladder of the context it uses.
--
-- contexts lists the setup's measured contexts, ascending; a context whose
-- points hold queued bests only is among them, as it is still the context
-- the planner uses for a question it reaches. The ladders lie one after
-- another in the flat arrays, the context's ascending concurrencies where
-- a valid best answers (concurrencies), the speed per request there
-- (speeds), the run that answers (run_ids) and whether the speed is
-- derived (derived): the total best's total ÷ users, where no run of the
-- point gives a speed per request, or where the total best lacks one of
-- its own and is faster that way. The ladder of contexts[i] is elements
-- starts[i] to starts[i+1] - 1 (starts has one more element than
-- contexts).
CREATE TABLE plan_ladders (
    hardware_slug     text      NOT NULL,
    model_slug        text      NOT NULL,
    engine_slug       text      NOT NULL,
    quantization_slug text      NOT NULL,
    demo              boolean   NOT NULL,
    model_base_slug   text      NOT NULL,
    contexts          integer[] NOT NULL,
    starts            integer[] NOT NULL,
    concurrencies     integer[] NOT NULL,
    speeds            float8[]  NOT NULL,
    run_ids           text[]    NOT NULL,
    derived           boolean[] NOT NULL,
    PRIMARY KEY (hardware_slug, model_slug, engine_slug, quantization_slug, demo)
);

-- plan_ladder_rows are the ladders of the setups given (parallel arrays:
-- hardware, model, engine, quantization, demo) as best_cells holds them
-- now: the one place the ladder's rule is written. A setup with no
-- per-request or total best has none.
CREATE FUNCTION plan_ladder_rows(hardwares text[], models text[], engines text[], quantizations text[],
    demos boolean[]) RETURNS SETOF plan_ladders LANGUAGE sql STABLE AS $$
    WITH points AS (
        SELECT k.h, k.m, k.e, k.q, k.d, p.context, p.concurrency, p.model_base_slug, p.is_derived,
            CASE WHEN p.is_derived THEN p.derived ELSE p.per_request END AS speed,
            CASE WHEN p.is_derived THEN p.total_run ELSE p.per_request_run END AS run_id
        FROM (SELECT DISTINCT * FROM unnest(hardwares, models, engines, quantizations, demos) AS k (h, m, e, q, d)) k
        CROSS JOIN LATERAL (
            SELECT p.*, p.per_request_run IS NULL OR coalesce(c.lacks, false) AS is_derived
            FROM (
                SELECT b.context, b.concurrency, min(b.model_base_slug) AS model_base_slug,
                    max(b.value) FILTER (WHERE b.metric = 'per_request_tps' AND b.status = 'valid') AS per_request,
                    min(b.run_id) FILTER (WHERE b.metric = 'per_request_tps' AND b.status = 'valid') AS per_request_run,
                    max(b.value) FILTER (WHERE b.metric = 'total_tps' AND b.status = 'valid') / b.concurrency AS derived,
                    min(b.run_id) FILTER (WHERE b.metric = 'total_tps' AND b.status = 'valid') AS total_run
                FROM best_cells b
                WHERE (b.hardware_slug, b.model_slug, b.engine_slug, b.quantization_slug, b.demo) = (k.h, k.m, k.e, k.q, k.d)
                    AND b.metric IN ('per_request_tps', 'total_tps')
                GROUP BY b.context, b.concurrency
            ) p
            -- Whether the total best's own cell lacks a speed per request:
            -- asked only where the answer may be its total ÷ users.
            LEFT JOIN LATERAL (
                SELECT NOT coalesce(d.per_request_tps > 0, false) AS lacks
                FROM decode_cells d
                WHERE (d.run_id, d.context, d.concurrency) = (p.total_run, p.context, p.concurrency)
                    AND p.total_run <> p.per_request_run AND p.derived > p.per_request
                LIMIT 1
            ) c ON true
        ) p
    ), ladders AS (
        -- Each context with the first element of its ladder.
        SELECT h, m, e, q, d, context, 1 + coalesce(sum(count(speed)) OVER (PARTITION BY h, m, e, q, d ORDER BY context
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::int AS start, count(speed)::int AS n
        FROM points
        GROUP BY h, m, e, q, d, context
    ), starts AS (
        SELECT h, m, e, q, d, array_agg(context ORDER BY context) AS contexts,
            array_agg(start ORDER BY context) || max(start + n) AS starts
        FROM ladders
        GROUP BY h, m, e, q, d
    )
    SELECT p.h, p.m, p.e, p.q, p.d, min(p.model_base_slug), s.contexts, s.starts,
        coalesce(array_agg(p.concurrency ORDER BY p.context, p.concurrency) FILTER (WHERE p.speed IS NOT NULL), '{}'),
        coalesce(array_agg(p.speed ORDER BY p.context, p.concurrency) FILTER (WHERE p.speed IS NOT NULL), '{}'),
        coalesce(array_agg(p.run_id ORDER BY p.context, p.concurrency) FILTER (WHERE p.speed IS NOT NULL), '{}'),
        coalesce(array_agg(p.is_derived ORDER BY p.context, p.concurrency) FILTER (WHERE p.speed IS NOT NULL), '{}')
    FROM points p
    JOIN starts s USING (h, m, e, q, d)
    GROUP BY p.h, p.m, p.e, p.q, p.d, s.contexts, s.starts
$$;

-- plan_ladders_renew puts the ladders of the setups given (as
-- plan_ladder_rows takes them) in place of what the table held for them.
-- Called by best_cells' triggers, it runs in the transaction of whatever
-- wrote best_cells.
--
-- Uploads offer to best_cells side by side (they hold bestLock shared),
-- and two of them may write bests of one setup, each not seeing the
-- other's. So a renewal first locks its setups, an advisory lock per setup
-- in the order of its hash, then derives the ladders in statements that
-- begin after the locks are held: whoever renews a setup last, after the
-- other committed, sees both uploads' bests. An upload writes best_cells
-- in one statement, so it renews its ladders once (step 5 of the lock
-- order, package bests). Renewing many setups at once (a bulk load, a
-- rebuild of every table) would fill the lock table with one lock each,
-- so beyond 256 setups it locks the table from other writers instead.
CREATE FUNCTION plan_ladders_renew(hardwares text[], models text[], engines text[], quantizations text[],
    demos boolean[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF cardinality(hardwares) = 0 THEN
        RETURN;
    END IF;
    IF cardinality(hardwares) > 256 THEN
        LOCK TABLE plan_ladders IN EXCLUSIVE MODE;
    ELSE
        LOCK TABLE plan_ladders IN ROW EXCLUSIVE MODE;
        -- 1886151022 is 'plan' in ASCII, the class of these locks: the
        -- two-key advisory locks are apart from the one-key ones the
        -- other locks of the site take.
        PERFORM pg_advisory_xact_lock(1886151022, h)
        FROM (SELECT DISTINCT hashtext(concat_ws(chr(31), k.h, k.m, k.e, k.q, k.d)) AS h
            FROM unnest(hardwares, models, engines, quantizations, demos) AS k (h, m, e, q, d)) x
        ORDER BY h;
    END IF;

    DELETE FROM plan_ladders l
    USING unnest(hardwares, models, engines, quantizations, demos) AS k (h, m, e, q, d)
    WHERE (l.hardware_slug, l.model_slug, l.engine_slug, l.quantization_slug, l.demo) = (k.h, k.m, k.e, k.q, k.d);
    INSERT INTO plan_ladders
    SELECT * FROM plan_ladder_rows(hardwares, models, engines, quantizations, demos);
END $$;

-- plan_ladders_renew_all renews the ladder of every setup best_cells
-- holds: the migration's fill, and the end of a bulk load into an empty
-- database (below).
CREATE FUNCTION plan_ladders_renew_all() RETURNS void LANGUAGE sql AS $$
    SELECT plan_ladders_renew(array_agg(h), array_agg(m), array_agg(e), array_agg(q), array_agg(d))
    FROM (SELECT DISTINCT hardware_slug, model_slug, engine_slug, quantization_slug, demo
        FROM best_cells WHERE metric IN ('per_request_tps', 'total_tps')) AS k (h, m, e, q, d)
$$;

-- The triggers renew the ladders of every setup whose per-request or
-- total bests a statement inserted, changed or deleted, whoever wrote
-- them: an upload's offers, a rebuild, a bulk load's copy. An update that
-- leaves a best's value and run as they were (a claim renaming the
-- submitter) renews nothing. They fire in every session, even one that
-- skips triggers while it loads (session_replication_role = replica):
-- ENABLE ALWAYS. The one exception is a bulk load into an empty database,
-- which builds the indexes of best_cells and decode_cells at its end that
-- a renewal reads through: it defers the ladders as it defers those
-- indexes, naming them in bulk_deferred_indexes, whose statement for them
-- renews every ladder once the indexes are built (package store's
-- deferIndexes); meanwhile the triggers leave the ladders alone.
CREATE FUNCTION plan_ladders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM bulk_deferred_indexes WHERE name = 'plan_ladders') THEN
        RETURN NULL;
    END IF;
    PERFORM plan_ladders_renew(array_agg(h), array_agg(m), array_agg(e), array_agg(q), array_agg(d))
    FROM (SELECT DISTINCT hardware_slug, model_slug, engine_slug, quantization_slug, demo
        FROM changed WHERE metric IN ('per_request_tps', 'total_tps')) AS k (h, m, e, q, d)
    HAVING count(*) > 0;
    RETURN NULL;
END $$;

CREATE FUNCTION plan_ladders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT FROM bulk_deferred_indexes WHERE name = 'plan_ladders') THEN
        RETURN NULL;
    END IF;
    PERFORM plan_ladders_renew(array_agg(h), array_agg(m), array_agg(e), array_agg(q), array_agg(d))
    FROM (SELECT DISTINCT n.hardware_slug, n.model_slug, n.engine_slug, n.quantization_slug, n.demo
        FROM before o JOIN after n USING (context, concurrency, metric, status, model_slug, hardware_slug,
            engine_slug, quantization_slug, demo)
        WHERE n.metric IN ('per_request_tps', 'total_tps') AND (n.value, n.run_id) IS DISTINCT FROM (o.value, o.run_id)
    ) AS k (h, m, e, q, d)
    HAVING count(*) > 0;
    RETURN NULL;
END $$;

CREATE FUNCTION plan_ladders_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE plan_ladders;
    RETURN NULL;
END $$;

CREATE TRIGGER best_cells_plan_inserted AFTER INSERT ON best_cells REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION plan_ladders_changed();
CREATE TRIGGER best_cells_plan_deleted AFTER DELETE ON best_cells REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION plan_ladders_changed();
CREATE TRIGGER best_cells_plan_updated AFTER UPDATE ON best_cells REFERENCING OLD TABLE AS before NEW TABLE AS after
    FOR EACH STATEMENT EXECUTE FUNCTION plan_ladders_updated();
CREATE TRIGGER best_cells_plan_truncated AFTER TRUNCATE ON best_cells
    FOR EACH STATEMENT EXECUTE FUNCTION plan_ladders_truncated();
ALTER TABLE best_cells ENABLE ALWAYS TRIGGER best_cells_plan_inserted,
    ENABLE ALWAYS TRIGGER best_cells_plan_deleted,
    ENABLE ALWAYS TRIGGER best_cells_plan_updated,
    ENABLE ALWAYS TRIGGER best_cells_plan_truncated;

-- Every ladder of the bests stored.
SELECT plan_ladders_renew_all();
