-- The tables of bests without the columns of runs a board shows, and the
-- version board's index without the rank columns.
DROP INDEX version_best_cells_board_idx;
CREATE INDEX version_best_cells_board_idx ON version_best_cells (engine_version, context, concurrency, metric, status);
ALTER TABLE best_cells DROP COLUMN engine_version, DROP COLUMN submitter, DROP COLUMN submitter_slug;
ALTER TABLE version_best_cells DROP COLUMN submitter, DROP COLUMN submitter_slug;
ALTER TABLE submitter_best_cells DROP COLUMN engine_version, DROP COLUMN submitter;
