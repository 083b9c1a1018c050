DROP INDEX runs_above_bound_idx;
