-- The tables of bests without the columns of runs a board shows.
ALTER TABLE best_cells DROP COLUMN engine_version, DROP COLUMN submitter, DROP COLUMN submitter_slug;
ALTER TABLE version_best_cells DROP COLUMN submitter, DROP COLUMN submitter_slug;
ALTER TABLE submitter_best_cells DROP COLUMN engine_version, DROP COLUMN submitter;
