DROP TABLE browse_groups;
DROP TABLE best_cells;
DROP TABLE identities;
DROP INDEX runs_newest_idx, runs_hardware_idx, runs_engine_idx, runs_model_idx, runs_model_base_idx,
    runs_submitter_idx, runs_single_idx, runs_peak_idx;
ALTER TABLE runs
    DROP COLUMN hardware_slug, DROP COLUMN engine_slug, DROP COLUMN model_slug,
    DROP COLUMN model_base_slug, DROP COLUMN submitter_slug, DROP COLUMN quantization_slug,
    DROP COLUMN catalog_version, DROP COLUMN best_single_tps, DROP COLUMN best_peak_tps;
