-- Browse: normalised identities on every run (internal/catalog computes them
-- in Go at insert; runs stored before this migration, or under an older
-- catalog.Version, get them when the store migrates: see
-- internal/store/browse_backfill.go), each run's headline numbers for the
-- sorts of /runs, the names behind the slugs, and the best cell per group
-- for the leaderboard.
ALTER TABLE runs
    ADD COLUMN hardware_slug     text NOT NULL DEFAULT '',
    ADD COLUMN engine_slug       text NOT NULL DEFAULT '',
    ADD COLUMN model_slug        text NOT NULL DEFAULT '',
    ADD COLUMN model_base_slug   text NOT NULL DEFAULT '',
    ADD COLUMN submitter_slug    text NOT NULL DEFAULT '',
    ADD COLUMN quantization_slug text NOT NULL DEFAULT '',
    -- catalog_version is the catalog.Version the slugs were computed with;
    -- 0 means not yet.
    ADD COLUMN catalog_version   integer NOT NULL DEFAULT 0,
    -- best_single_tps: total tok/s of the valid cell at concurrency 1 and
    -- the smallest context; best_peak_tps: the highest valid total tok/s.
    -- NULL when there is no such cell.
    ADD COLUMN best_single_tps   double precision,
    ADD COLUMN best_peak_tps     double precision;

-- /runs pages newest first by (uploaded_at, id), whole or filtered by one
-- identity; the best-number sorts page by (number, uploaded_at, id).
CREATE INDEX runs_newest_idx ON runs (uploaded_at, id);
CREATE INDEX runs_hardware_idx ON runs (hardware_slug, uploaded_at, id);
CREATE INDEX runs_engine_idx ON runs (engine_slug, uploaded_at, id);
CREATE INDEX runs_model_idx ON runs (model_slug, uploaded_at, id);
CREATE INDEX runs_model_base_idx ON runs (model_base_slug, uploaded_at, id);
CREATE INDEX runs_submitter_idx ON runs (submitter_slug, uploaded_at, id);
CREATE INDEX runs_single_idx ON runs ((coalesce(best_single_tps, -1)), uploaded_at, id);
CREATE INDEX runs_peak_idx ON runs ((coalesce(best_peak_tps, -1)), uploaded_at, id);

-- The display name of every slug seen, for headings, filter choices and the
-- search box. The first spelling seen names it.
CREATE TABLE identities (
    kind text NOT NULL CHECK (kind IN ('hardware', 'engine', 'model', 'model_base', 'submitter', 'quantization')),
    slug text NOT NULL,
    name text NOT NULL,
    PRIMARY KEY (kind, slug)
);

-- The best valid (and, apart, the best queued) cell per group (model
-- variant, hardware, engine, quantization, demo or not) at each grid point
-- and metric. sort_value is the metric signed so that smaller is better
-- (-tok/s, +TTFT); ties go to the earlier upload, then the smaller run id.
-- Kept current at insert, so the leaderboard reads a few hundred rows
-- however many runs there are.
CREATE TABLE best_cells (
    context           integer NOT NULL,
    concurrency       integer NOT NULL,
    metric            text NOT NULL CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms')),
    status            text NOT NULL CHECK (status IN ('valid', 'queued')),
    model_slug        text NOT NULL,
    -- model_base_slug follows from model_slug; kept for the base model's page.
    model_base_slug   text NOT NULL,
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    quantization_slug text NOT NULL,
    demo              boolean NOT NULL,
    sort_value        double precision NOT NULL,
    value             double precision NOT NULL,
    run_id            text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    uploaded_at       timestamptz NOT NULL,
    PRIMARY KEY (context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo)
);
CREATE INDEX best_cells_rank_idx ON best_cells (context, concurrency, metric, status, sort_value, uploaded_at, run_id);
CREATE INDEX best_cells_run_idx ON best_cells (run_id);
CREATE INDEX best_cells_hardware_idx ON best_cells (hardware_slug, context, concurrency, metric, status);
CREATE INDEX best_cells_engine_idx ON best_cells (engine_slug, context, concurrency, metric, status);
CREATE INDEX best_cells_model_idx ON best_cells (model_slug, context, concurrency, metric, status);
CREATE INDEX best_cells_model_base_idx ON best_cells (model_base_slug, context, concurrency, metric, status);

-- One row per combination of identities seen, with its number of runs: what
-- entity pages link across (the engines and models seen on a hardware, an
-- engine's versions, a base model's variants) without scanning runs.
CREATE TABLE browse_groups (
    model_slug        text NOT NULL,
    model_base_slug   text NOT NULL,
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    engine_version    text NOT NULL,
    quantization_slug text NOT NULL,
    runs              bigint NOT NULL,
    PRIMARY KEY (model_slug, hardware_slug, engine_slug, engine_version, quantization_slug)
);
CREATE INDEX browse_groups_hardware_idx ON browse_groups (hardware_slug);
CREATE INDEX browse_groups_engine_idx ON browse_groups (engine_slug);
CREATE INDEX browse_groups_model_base_idx ON browse_groups (model_base_slug);
