-- Moves every delta its snapshot sees into the folded counts: browse_groups,
-- identity_runs (per hardware, engine and model variant, with its base),
-- engine_version_runs and history_versions, each in key order, and returns
-- how many deltas there were. One statement, so a reader sees the deltas
-- either before the fold or folded, never both or neither. The order of its
-- four writes does not matter: they update rows that only holders of
-- foldLock, which the fold holds, lock (an upload locks only rows it makes).
WITH d AS (DELETE FROM browse_count_deltas RETURNING *),
g AS (INSERT INTO browse_groups AS g (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version,
        quantization_slug, runs)
    SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, sum(runs)
    FROM d
    GROUP BY model_slug, hardware_slug, engine_slug, engine_version, quantization_slug
    ORDER BY model_slug, hardware_slug, engine_slug, engine_version, quantization_slug
    ON CONFLICT (model_slug, hardware_slug, engine_slug, engine_version, quantization_slug)
        DO UPDATE SET runs = g.runs + excluded.runs),
i AS (INSERT INTO identity_runs AS i (kind, slug, base, runs)
    SELECT k.kind, k.slug, min(k.base), sum(d.runs)
    FROM d CROSS JOIN LATERAL (VALUES ('hardware', d.hardware_slug, ''), ('engine', d.engine_slug, ''),
        ('model', d.model_slug, d.model_base_slug)) AS k (kind, slug, base)
    WHERE k.slug <> ''
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (kind, slug) DO UPDATE SET runs = i.runs + excluded.runs),
v AS (INSERT INTO engine_version_runs AS v (engine_slug, engine_version, runs)
    SELECT engine_slug, engine_version, sum(runs) FROM d WHERE engine_version <> ''
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (engine_slug, engine_version) DO UPDATE SET runs = v.runs + excluded.runs),
h AS (INSERT INTO history_versions AS h (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version,
        model_base_slug, runs)
    SELECT hardware_slug, engine_slug, model_slug, quantization_slug, engine_version, min(model_base_slug),
        sum(history_runs)
    FROM d WHERE history_runs <> 0
    GROUP BY hardware_slug, engine_slug, model_slug, quantization_slug, engine_version
    ORDER BY hardware_slug, engine_slug, model_slug, quantization_slug, engine_version
    ON CONFLICT (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version)
        DO UPDATE SET runs = h.runs + excluded.runs)
SELECT count(*) FROM d
