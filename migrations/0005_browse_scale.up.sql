-- Browse at scale (docs/scale.md): entity pages read the same few rows with
-- 100,000 runs as with 1,000.
--
-- An entity's best cell at a grid point (Store.BestAt) is one probe of an
-- index that ends in the rank order; the old per-identity indexes stopped
-- at status, so the best had to be found among every group's cell at the
-- point. Each new index has the old one as its prefix and replaces it.
CREATE INDEX best_cells_hardware_rank_idx ON best_cells
    (hardware_slug, context, concurrency, metric, status, sort_value, uploaded_at, run_id);
CREATE INDEX best_cells_engine_rank_idx ON best_cells
    (engine_slug, context, concurrency, metric, status, sort_value, uploaded_at, run_id);
CREATE INDEX best_cells_model_rank_idx ON best_cells
    (model_slug, context, concurrency, metric, status, sort_value, uploaded_at, run_id);
CREATE INDEX best_cells_model_base_rank_idx ON best_cells
    (model_base_slug, context, concurrency, metric, status, sort_value, uploaded_at, run_id);
DROP INDEX best_cells_hardware_idx, best_cells_engine_idx, best_cells_model_idx, best_cells_model_base_idx;

-- What an entity was seen with (Store.SeenWith) asks, per identity of the
-- other kind, whether one group pairs the two: one probe of an index on the
-- pair, in either order. The primary key covers (model, hardware) and
-- (model, anything: a variant has few groups); these cover the rest and
-- replace the single-column indexes they start with.
CREATE INDEX browse_groups_hardware_engine_idx ON browse_groups (hardware_slug, engine_slug);
CREATE INDEX browse_groups_hardware_base_idx ON browse_groups (hardware_slug, model_base_slug);
CREATE INDEX browse_groups_engine_base_idx ON browse_groups (engine_slug, model_base_slug);
CREATE INDEX browse_groups_base_model_idx ON browse_groups (model_base_slug, model_slug);
DROP INDEX browse_groups_hardware_idx, browse_groups_engine_idx, browse_groups_model_base_idx;
