-- Run counts without a hot row (internal/store/browse_counts.go). Every
-- upload of one setup added to the same browse_groups row and held its lock
-- until its commit was flushed, so concurrent uploads of a setup waited for
-- each other. An upload now appends its counts to browse_count_deltas (no
-- key, no index: nothing to wait for), and a short step folds the deltas
-- into browse_groups and the per-identity counts below, in one statement.
-- Readers add the deltas not folded yet to the folded counts.
CREATE TABLE browse_count_deltas (
    model_slug        text NOT NULL,
    model_base_slug   text NOT NULL,
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    engine_version    text NOT NULL,
    quantization_slug text NOT NULL,
    runs              bigint NOT NULL
);

-- The runs per hardware, engine and model variant (base: its base model),
-- so the identity lists read one row per identity however many browse
-- groups there are.
CREATE TABLE identity_runs (
    kind text NOT NULL CHECK (kind IN ('hardware', 'engine', 'model')),
    slug text NOT NULL,
    base text NOT NULL,
    runs bigint NOT NULL,
    PRIMARY KEY (kind, slug)
);

-- The runs per engine version, for the engine's page.
CREATE TABLE engine_version_runs (
    engine_slug    text NOT NULL,
    engine_version text NOT NULL,
    runs           bigint NOT NULL,
    PRIMARY KEY (engine_slug, engine_version)
);

INSERT INTO identity_runs (kind, slug, base, runs)
SELECT k.kind, k.slug, min(k.base), sum(g.runs)
FROM browse_groups g
CROSS JOIN LATERAL (VALUES ('hardware', g.hardware_slug, ''), ('engine', g.engine_slug, ''),
    ('model', g.model_slug, g.model_base_slug)) AS k (kind, slug, base)
WHERE k.slug <> ''
GROUP BY 1, 2;

INSERT INTO engine_version_runs (engine_slug, engine_version, runs)
SELECT engine_slug, engine_version, sum(runs) FROM browse_groups WHERE engine_version <> '' GROUP BY 1, 2;
