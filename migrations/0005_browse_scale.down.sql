CREATE INDEX best_cells_hardware_idx ON best_cells (hardware_slug, context, concurrency, metric, status);
CREATE INDEX best_cells_engine_idx ON best_cells (engine_slug, context, concurrency, metric, status);
CREATE INDEX best_cells_model_idx ON best_cells (model_slug, context, concurrency, metric, status);
CREATE INDEX best_cells_model_base_idx ON best_cells (model_base_slug, context, concurrency, metric, status);
DROP INDEX best_cells_hardware_rank_idx, best_cells_engine_rank_idx, best_cells_model_rank_idx,
    best_cells_model_base_rank_idx;
CREATE INDEX browse_groups_hardware_idx ON browse_groups (hardware_slug);
CREATE INDEX browse_groups_engine_idx ON browse_groups (engine_slug);
CREATE INDEX browse_groups_model_base_idx ON browse_groups (model_base_slug);
DROP INDEX browse_groups_hardware_engine_idx, browse_groups_hardware_base_idx, browse_groups_engine_base_idx,
    browse_groups_base_model_idx;
