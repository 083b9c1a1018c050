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
