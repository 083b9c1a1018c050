-- A run's plausibility flags by name (run.Flags: 'above_bound' for a cell
-- faster than the physical bound, 'power_implausible' for a power the
-- boards cannot draw), so lists word each as it is. above_bound keeps
-- saying whether any is raised (run.Unrankable): every ranking reads it.
-- A constant default: adding the column rewrites no row.
ALTER TABLE runs ADD COLUMN flags text[] NOT NULL DEFAULT '{}';

-- The runs flagged so far say which flag by the power rule SQL can check
-- (a cell or prefill row above its limit, or the run's, by more than a
-- tenth, or above the boards' highest limit); the rest were above the
-- bound. The bound itself and the GPU table's board power are the
-- calculator's, in Go: these runs are marked stale (bound_version), so
-- the server derives their flags again from their files at its start.
-- Flagged runs are few, found by runs_above_bound_idx.
UPDATE runs r SET bound_version = '', flags = CASE WHEN EXISTS (
        SELECT FROM (SELECT c.telemetry FROM decode_cells c WHERE c.run_id = r.id
            UNION ALL SELECT p.telemetry FROM prefill_rows p WHERE p.run_id = r.id) AS x (t)
        LEFT JOIN run_telemetry rt ON rt.run_id = r.id
        WHERE (x.t->>'power_w')::float8 > 1.1 * coalesce((x.t->>'power_limit_w')::float8, (rt.body->>'power_limit_w')::float8)
            OR (x.t->>'power_w')::float8 > 1.1 * (rt.body->>'power_limit_max_w')::float8)
    THEN '{power_implausible}'::text[] ELSE '{above_bound}'::text[] END
WHERE r.above_bound;

-- How many runs a tokens-per-joule leaderboard leaves out for want of a
-- measured power, kept as runs come and go (internal/store/bests/
-- unpowered.go) so a board counts them by a few rows whatever the number
-- of runs: per grid point and setup (the board's filters: browse group,
-- engine version, submitter), the runs that rank there by total tok/s (a
-- valid cell with a positive total, of a run shown, not quick, not
-- flagged) but have no positive board power at that cell. An upload
-- appends its runs to unpowered_run_deltas, which no one waits on, and the
-- fold of the run counts adds them up; a change of a run (hidden, shown,
-- deleted, derived again, claimed) counts its browse group again.
CREATE TABLE unpowered_runs (
    model_slug        text NOT NULL,
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    quantization_slug text NOT NULL,
    demo              boolean NOT NULL,
    context           integer NOT NULL,
    concurrency       integer NOT NULL,
    engine_version    text NOT NULL,
    submitter_slug    text NOT NULL,
    -- model_base_slug follows from model_slug; a board may filter by it.
    model_base_slug   text NOT NULL,
    runs              bigint NOT NULL,
    -- The browse group first: a change counts one group again.
    PRIMARY KEY (model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
        engine_version, submitter_slug)
);
-- A board reads one grid point's rows.
CREATE INDEX unpowered_runs_point_idx ON unpowered_runs (context, concurrency);

CREATE TABLE unpowered_run_deltas (
    model_slug        text NOT NULL,
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    quantization_slug text NOT NULL,
    demo              boolean NOT NULL,
    context           integer NOT NULL,
    concurrency       integer NOT NULL,
    engine_version    text NOT NULL,
    submitter_slug    text NOT NULL,
    model_base_slug   text NOT NULL,
    runs              bigint NOT NULL
);

-- Filled from the stored runs once, as rebuildAllUnpowered does: each
-- run at the points where it ranks by total tok/s, less those where a cell
-- has a positive power.
INSERT INTO unpowered_runs
SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug, min(model_base_slug), count(*)
FROM (SELECT r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, c.context, c.concurrency,
        r.engine_version, r.submitter_slug, r.model_base_slug
    FROM runs r
    JOIN decode_cells c ON c.run_id = r.id
    WHERE c.status = 'valid' AND c.total_tps > 0 AND NOT r.hidden AND r.profile <> 'quick' AND NOT r.above_bound
    GROUP BY r.id, c.context, c.concurrency
    HAVING NOT bool_or(coalesce((c.telemetry->>'power_w')::float8 > 0, false))) AS x
GROUP BY model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency, engine_version, submitter_slug;
