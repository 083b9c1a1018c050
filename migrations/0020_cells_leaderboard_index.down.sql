CREATE INDEX decode_cells_leaderboard_idx
    ON decode_cells (context, concurrency, status, total_tps);
