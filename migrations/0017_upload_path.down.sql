ALTER TABLE run_sources ALTER COLUMN body SET COMPRESSION default;
-- The foreign keys back; rows whose run is gone (none, while the triggers
-- kept them) would refuse them.
DROP TRIGGER runs_truncated ON runs;
DROP TRIGGER runs_deleted ON runs;
DROP FUNCTION runs_truncated(), runs_deleted();
DELETE FROM run_sources t WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = t.run_id);
DELETE FROM decode_cells t WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = t.run_id);
DELETE FROM prefill_rows t WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = t.run_id);
DELETE FROM best_cells t WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = t.run_id);
DELETE FROM history_cells t WHERE NOT EXISTS (SELECT FROM runs r WHERE r.id = t.run_id);
ALTER TABLE run_sources ADD CONSTRAINT run_sources_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE decode_cells ADD CONSTRAINT decode_cells_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE prefill_rows ADD CONSTRAINT prefill_rows_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE best_cells ADD CONSTRAINT best_cells_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;
ALTER TABLE history_cells ADD CONSTRAINT history_cells_run_id_fkey FOREIGN KEY (run_id) REFERENCES runs (id) ON DELETE CASCADE;

-- Fold the pending history counts before their column goes, and drop the
-- versions left with no run, which the old check refuses.
INSERT INTO history_versions AS h (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version, model_base_slug, runs)
SELECT hardware_slug, engine_slug, model_slug, quantization_slug, engine_version, min(model_base_slug), sum(history_runs)
FROM browse_count_deltas WHERE history_runs <> 0
GROUP BY hardware_slug, engine_slug, model_slug, quantization_slug, engine_version
ON CONFLICT (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version) DO UPDATE SET runs = h.runs + excluded.runs;
DELETE FROM history_versions WHERE runs <= 0;
ALTER TABLE history_versions DROP CONSTRAINT history_versions_runs_check,
    ADD CONSTRAINT history_versions_runs_check CHECK (runs > 0);
ALTER TABLE browse_count_deltas DROP COLUMN history_runs;
