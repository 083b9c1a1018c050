-- The best cell per browse group and submitter at each grid point and
-- metric, among the runs best_cells ranks (not hidden, not quick, not above
-- the physical bound) that name a proven submitter (submitter_slug): what a
-- leaderboard filtered by submitter shows (Store.Leaderboard). It ranked
-- every matching run's cell at the point instead, a read that grew with the
-- submitter's runs (3.0 s at a million demo runs for a submitter of 125,438
-- of them, against 14 ms at a thousand). Kept current exactly as
-- version_best_cells is (internal/store/browse_index_sql.go, bestTable):
-- offered by every upload and bulk load that names a submitter, rebuilt
-- with the run's group on hide, show, delete, deriving again and a claim
-- (the one change of a stored run's submitter_slug).
CREATE TABLE submitter_best_cells (
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
    submitter_slug    text NOT NULL CHECK (submitter_slug <> ''),
    -- By group first: a rebuild of one group's bests deletes one range.
    PRIMARY KEY (model_slug, hardware_slug, engine_slug, quantization_slug, demo, submitter_slug,
        context, concurrency, metric, status)
) WITH (fillfactor = 80);
-- A submitter's board at a point is the first rows of one range of this,
-- in the board's order: 0.13 ms for the submitter of 125,438 of a million
-- demo runs, whose range at a point holds some 3,000 groups' bests. Unlike
-- version_best_cells' board index, it holds the rank columns, so an upload
-- that takes a best writes an entry here and in the key (no heap-only
-- update): without them that board read and sorted the whole range, 8 ms,
-- and the board page took 1.6-2.5 times as long as at a thousand runs,
-- the submitter's page (a best per point) 4.7 times; with them an upload
-- that names a submitter cost about 0.05 ms more of its backend's CPU,
-- within the noise (docs/performance.md). Only such uploads pay it.
CREATE INDEX submitter_best_cells_board_idx ON submitter_best_cells
    (submitter_slug, context, concurrency, metric, status, sort_value, uploaded_at, run_id);

-- A run's rows go with it (migration 0019's triggers, now with this
-- table), found by its group and submitter, the primary key's prefix.
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
    DELETE FROM submitter_best_cells v USING gone g
    WHERE (v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, v.demo, v.submitter_slug) =
        (g.model_slug, g.hardware_slug, g.engine_slug, g.quantization_slug, g.demo, g.submitter_slug)
        AND v.run_id = g.id;
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, best_cells, version_best_cells, submitter_best_cells,
        history_cells;
    RETURN NULL;
END $$;

-- Filled from the stored runs once, as rebuildAllBest does.
INSERT INTO submitter_best_cells
SELECT DISTINCT ON (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, r.submitter_slug,
    c.context, c.concurrency, m.metric, c.status)
    c.context, c.concurrency, m.metric, c.status,
    r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo,
    CASE WHEN m.metric = 'ttft_ms' THEN m.v ELSE -m.v END, m.v, r.id, r.uploaded_at, r.submitter_slug
FROM decode_cells c
JOIN runs r ON r.id = c.run_id
CROSS JOIN LATERAL (VALUES ('total_tps', c.total_tps), ('per_request_tps', c.per_request_tps),
    ('ttft_ms', c.ttft_ms)) AS m (metric, v)
WHERE c.status IN ('valid', 'queued') AND m.v > 0
    AND NOT r.hidden AND r.profile <> 'quick' AND NOT r.above_bound AND r.submitter_slug <> ''
ORDER BY r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, r.submitter_slug,
    c.context, c.concurrency, m.metric, c.status, 11, r.uploaded_at, r.id;
