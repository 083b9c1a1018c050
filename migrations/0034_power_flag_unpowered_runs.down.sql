DROP TABLE unpowered_run_deltas;
DROP TABLE unpowered_runs;
ALTER TABLE runs DROP COLUMN flags;
