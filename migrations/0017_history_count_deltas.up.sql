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
