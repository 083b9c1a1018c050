DROP INDEX best_cells_plan_idx;
