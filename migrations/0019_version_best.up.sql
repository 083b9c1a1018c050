-- The best cell per browse group and engine version at each grid point and
-- metric, among the runs best_cells ranks (not hidden, not quick, not above
-- the physical bound) that name a version: what a leaderboard filtered by
-- engine version shows (Store.Leaderboard). It ranked every matching run's
-- cell at the point instead, a read that grew with the version's runs
-- (60-100 ms at 30,000 runs for a version 8-15 % of them have). Kept
-- current exactly as best_cells is (internal/store/browse_index_sql.go,
-- bestTable): offered by every upload and bulk load, rebuilt with the
-- run's group on hide, show, delete and deriving again.
CREATE TABLE version_best_cells (
    context           integer NOT NULL,
    concurrency       integer NOT NULL,
    metric            text NOT NULL CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms')),
    status            text NOT NULL CHECK (status IN ('valid', 'queued')),
    model_slug        text NOT NULL,
    model_base_slug   text NOT NULL,
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    quantization_slug text NOT NULL,
    demo              boolean NOT NULL,
    sort_value        double precision NOT NULL,
    value             double precision NOT NULL,
    run_id            text NOT NULL,
    uploaded_at       timestamptz NOT NULL,
    engine_version    text NOT NULL CHECK (engine_version <> ''),
    -- By group first: a rebuild of one group's bests deletes one range.
    PRIMARY KEY (model_slug, hardware_slug, engine_slug, quantization_slug, demo, engine_version,
        context, concurrency, metric, status)
) WITH (fillfactor = 80);
-- A version's board at a point is one range of this: its groups' bests,
-- a few hundred rows to sort (679 for the largest version at 30,000 demo
-- runs, 4-5 ms). Not in rank order, on purpose: no index has sort_value,
-- uploaded_at or run_id, the columns an upload that takes a best changes,
-- so that update is a heap-only tuple (room kept for it by the fillfactor)
-- that writes no index entry. best_cells' way, the rank columns in this
-- index and an index on run_id, read the board in 1.1 ms but made the
-- offer of a run that takes its 51 bests cost 4.2-5.8 ms against 3.1
-- (docs/performance.md): uploads are what this site is short of.
CREATE INDEX version_best_cells_board_idx ON version_best_cells
    (engine_version, context, concurrency, metric, status);

-- A run's rows go with it (migration 0017's triggers, now with this
-- table), found by its group and version, the primary key's prefix: no
-- index on run_id to keep current.
CREATE OR REPLACE FUNCTION runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM run_sources WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM decode_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM prefill_rows WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM best_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM version_best_cells v USING gone g
    WHERE (v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, v.demo, v.engine_version) =
        (g.model_slug, g.hardware_slug, g.engine_slug, g.quantization_slug, g.demo, g.engine_version)
        AND v.run_id = g.id;
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, best_cells, version_best_cells, history_cells;
    RETURN NULL;
END $$;

-- Filled from the stored runs once, as rebuildAllBest does.
INSERT INTO version_best_cells
SELECT DISTINCT ON (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, r.engine_version,
    c.context, c.concurrency, m.metric, c.status)
    c.context, c.concurrency, m.metric, c.status,
    r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo,
    CASE WHEN m.metric = 'ttft_ms' THEN m.v ELSE -m.v END, m.v, r.id, r.uploaded_at, r.engine_version
FROM decode_cells c
JOIN runs r ON r.id = c.run_id
CROSS JOIN LATERAL (VALUES ('total_tps', c.total_tps), ('per_request_tps', c.per_request_tps),
    ('ttft_ms', c.ttft_ms)) AS m (metric, v)
WHERE c.status IN ('valid', 'queued') AND m.v > 0
    AND NOT r.hidden AND r.profile <> 'quick' AND NOT r.above_bound AND r.engine_version <> ''
ORDER BY r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, r.engine_version,
    c.context, c.concurrency, m.metric, c.status, 11, r.uploaded_at, r.id;
