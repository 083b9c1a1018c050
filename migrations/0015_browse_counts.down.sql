-- Fold what is pending back into browse_groups before the deltas go.
INSERT INTO browse_groups AS g (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, sum(runs)
FROM browse_count_deltas GROUP BY model_slug, hardware_slug, engine_slug, engine_version, quantization_slug
ON CONFLICT (model_slug, hardware_slug, engine_slug, engine_version, quantization_slug) DO UPDATE SET runs = g.runs + excluded.runs;
DELETE FROM browse_groups WHERE runs <= 0;
DROP TABLE browse_count_deltas, identity_runs, engine_version_runs;
