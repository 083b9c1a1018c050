-- The tables of bests keep what a board shows of each best's run beside
-- the cell: its engine version, its submitter's name and its proven
-- submitter's slug. A board read them from runs, one probe of runs' key and
-- heap per ranked row: 100 probes at a rare grid point, about 400 buffers at
-- a million runs against one scan of the 14 pages of runs at a thousand, so
-- that board took 1.2-2.8 times its time at a thousand runs. Now a board is
-- one range of its index at any size. Every table has all three columns
-- (version_best_cells' engine_version and submitter_best_cells'
-- submitter_slug are their key columns already); the offers write them from
-- the run (offer_best_cells.sql and its kin), the rebuilds from the runs
-- row, and a claim, the one change of a stored run's submitter, renews them
-- (bests.RenewClaimedRun). The other columns of runs a board shows cannot
-- change after the upload: engine_version is the document's, and a run above
-- the physical bound holds no best (a change of its flags rebuilds its
-- group).
ALTER TABLE best_cells ADD COLUMN engine_version text NOT NULL DEFAULT '',
    ADD COLUMN submitter text NOT NULL DEFAULT '', ADD COLUMN submitter_slug text NOT NULL DEFAULT '';
ALTER TABLE version_best_cells ADD COLUMN submitter text NOT NULL DEFAULT '',
    ADD COLUMN submitter_slug text NOT NULL DEFAULT '';
ALTER TABLE submitter_best_cells ADD COLUMN engine_version text NOT NULL DEFAULT '',
    ADD COLUMN submitter text NOT NULL DEFAULT '';

UPDATE best_cells b SET engine_version = r.engine_version, submitter = r.submitter, submitter_slug = r.submitter_slug
FROM runs r WHERE r.id = b.run_id;
UPDATE version_best_cells b SET submitter = r.submitter, submitter_slug = r.submitter_slug
FROM runs r WHERE r.id = b.run_id;
UPDATE submitter_best_cells b SET engine_version = r.engine_version, submitter = r.submitter
FROM runs r WHERE r.id = b.run_id;

-- No default once filled: a statement that writes a best without them fails
-- rather than storing an empty name.
ALTER TABLE best_cells ALTER COLUMN engine_version DROP DEFAULT,
    ALTER COLUMN submitter DROP DEFAULT, ALTER COLUMN submitter_slug DROP DEFAULT;
ALTER TABLE version_best_cells ALTER COLUMN submitter DROP DEFAULT, ALTER COLUMN submitter_slug DROP DEFAULT;
ALTER TABLE submitter_best_cells ALTER COLUMN engine_version DROP DEFAULT, ALTER COLUMN submitter DROP DEFAULT;

-- A version's board at a point is the first rows of one range of this, in
-- the board's order, as a submitter's is (submitter_best_cells_board_idx).
-- Without the rank columns it read and sorted the whole range: for version
-- 0.32.0 at 0 × 1, 65 rows at a thousand demo runs and 1,143 at a million,
-- each a heap page of its own, and the board took 1.7 times as long at
-- 100,000 runs. An upload that takes a version best now writes an entry
-- here and in the key (no heap-only update), as one that names a
-- submitter does.
DROP INDEX version_best_cells_board_idx;
CREATE INDEX version_best_cells_board_idx ON version_best_cells
    (engine_version, context, concurrency, metric, status, sort_value, uploaded_at, run_id);
