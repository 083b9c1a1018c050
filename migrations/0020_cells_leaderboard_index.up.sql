-- decode_cells_leaderboard_idx (context, concurrency, status, total_tps)
-- served the leaderboard when it ranked every run's cells; since best_cells
-- only a board ranked from runs' own cells reads decode_cells by point (a
-- submitter's board, the runs above the bound), and those find their runs
-- first and each run's cell by the primary key (Store.Leaderboard's
-- liveBests). The index cost every upload 48 of its ~150 index entries.
DROP INDEX decode_cells_leaderboard_idx;
