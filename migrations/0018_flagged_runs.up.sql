-- The runs above the physical bound, which best_cells leaves out: a
-- leaderboard that includes them adds their cells to best_cells' bests
-- (Store.bestsWithFlagged), and finds them here instead of reading every
-- run's cell at the grid point. Partial, so an ordinary upload never
-- touches it.
CREATE INDEX runs_above_bound_idx ON runs (id) WHERE above_bound;
