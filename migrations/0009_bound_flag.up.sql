-- A run with a cell above the physical bound (the decode calculator's
-- optimistic bound × 1.1) is flagged, never refused: lists show a badge
-- and leaderboards leave it out unless asked. bound_version names the
-- calculator tables and rule the flag was derived with; runs derived with
-- another one (every run, right after this migration) are derived again
-- at startup.
ALTER TABLE runs
    ADD COLUMN above_bound boolean NOT NULL DEFAULT false,
    ADD COLUMN bound_version text NOT NULL DEFAULT '';
