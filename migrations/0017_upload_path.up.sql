-- A setup's version counts without a hot row (internal/store/browse_counts.go).
-- Every rankable upload added one to its history_versions row and held the
-- row's lock until its commit was flushed, so uploads of one setup and
-- engine version took turns, as they did on browse_groups before migration
-- 0015. The count now travels with the upload's browse_count_deltas row: that
-- row already has history_versions' key (the setup and version), so it says
-- how many of its runs a history reads too, and the fold adds them to
-- history_versions with the rest. A column, not a second table: one row per
-- upload as before, and the readers of the browse counts are unchanged.
ALTER TABLE browse_count_deltas ADD COLUMN history_runs bigint NOT NULL DEFAULT 0;

-- An upload makes sure its version's row exists, with no runs until the
-- fold adds its delta; readers add the pending deltas and leave out a
-- version whose sum is not positive.
ALTER TABLE history_versions DROP CONSTRAINT history_versions_runs_check,
    ADD CONSTRAINT history_versions_runs_check CHECK (runs >= 0);

-- A run's rows in other tables go with it by two statement triggers
-- instead of foreign keys. Each of an upload's 48 decode cells, 5 prefill
-- rows, source and new bests checked its run by a query and a row lock
-- (about 0.7 ms of the 5 ms an upload cost its backend); these tables are
-- written only by the store, next to their run's row in the same
-- transaction, or under the lock that keeps deletes out (bestLock). A
-- delete of runs deletes their rows, in the same statement as the cascade
-- did; TRUNCATE runs (CASCADE or not) empties these tables too.
-- TestRunRowsGoWithTheirRun checks every table with a run_id column.
ALTER TABLE run_sources DROP CONSTRAINT run_sources_run_id_fkey;
ALTER TABLE decode_cells DROP CONSTRAINT decode_cells_run_id_fkey;
ALTER TABLE prefill_rows DROP CONSTRAINT prefill_rows_run_id_fkey;
ALTER TABLE best_cells DROP CONSTRAINT best_cells_run_id_fkey;
ALTER TABLE history_cells DROP CONSTRAINT history_cells_run_id_fkey;

CREATE FUNCTION runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM run_sources WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM decode_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM prefill_rows WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM best_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;
CREATE TRIGGER runs_deleted AFTER DELETE ON runs REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION runs_deleted();

CREATE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, best_cells, history_cells;
    RETURN NULL;
END $$;
CREATE TRIGGER runs_truncated AFTER TRUNCATE ON runs
    FOR EACH STATEMENT EXECUTE FUNCTION runs_truncated();

-- An upload's document (14 KB for a seed run) was compressed by pglz, 0.25
-- ms of the backend's CPU; lz4 takes 0.07 ms for about 10 % more bytes, and
-- is as much faster to read back. Only documents stored from now on.
ALTER TABLE run_sources ALTER COLUMN body SET COMPRESSION lz4;
