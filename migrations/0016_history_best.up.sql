-- A setup's history (Store.History, HistoryChoices, SetupVersions,
-- SetupsWithHistory) read every rankable run of its setup: the demo's
-- series setups hold a twentieth of all runs each. These keep what it
-- shows, current as runs arrive, are hidden, go or are derived again
-- (internal/store/history_best.go), so a history reads a few rows by key
-- at any size.
--
-- history_cells is the best valid total tok/s per setup, engine version
-- and cell among the rankable runs (those historyWhere picks: not hidden,
-- not above the physical bound, not quick, naming a version), ties to the
-- earlier upload, then the smaller id. The key leads with the setup and
-- the cell, so one cell's versions are one range of it.
CREATE TABLE history_cells (
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    model_slug        text NOT NULL,
    context           integer NOT NULL,
    concurrency       integer NOT NULL,
    quantization_slug text NOT NULL,
    engine_version    text NOT NULL,
    -- model_base_slug follows from model_slug; a history may name the base.
    model_base_slug   text NOT NULL,
    total_tps         double precision NOT NULL,
    uploaded_at       timestamptz NOT NULL,
    run_id            text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    demo              boolean NOT NULL,
    PRIMARY KEY (hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version)
);
CREATE INDEX history_cells_base_idx ON history_cells
    (model_base_slug, hardware_slug, engine_slug, context, concurrency);
CREATE INDEX history_cells_run_idx ON history_cells (run_id);

-- history_versions counts the rankable runs per setup and engine version:
-- a setup's versions are its rows, and its quantizations are ordered by
-- their runs.
CREATE TABLE history_versions (
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    model_slug        text NOT NULL,
    quantization_slug text NOT NULL,
    engine_version    text NOT NULL,
    model_base_slug   text NOT NULL,
    runs              bigint NOT NULL CHECK (runs > 0),
    PRIMARY KEY (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version)
);
CREATE INDEX history_versions_base_idx ON history_versions (model_base_slug, hardware_slug, engine_slug);
CREATE INDEX history_versions_engine_idx ON history_versions (engine_slug);
CREATE INDEX history_versions_model_idx ON history_versions (model_slug);

-- Filled from the stored runs once, as rebuildAllHistory does.
-- On a database of 100,000 demo runs (3.1 M cells) this migration took
-- 31 s on two cores loaded 7–8 by other work: 250,772 cells, 8,953 versions.
INSERT INTO history_versions
SELECT hardware_slug, engine_slug, model_slug, quantization_slug, engine_version, min(model_base_slug), count(*)
FROM runs
WHERE engine_version <> '' AND NOT hidden AND NOT above_bound AND profile <> 'quick'
GROUP BY hardware_slug, engine_slug, model_slug, quantization_slug, engine_version;

INSERT INTO history_cells
SELECT DISTINCT ON (r.hardware_slug, r.engine_slug, r.model_slug, c.context, c.concurrency, r.quantization_slug, r.engine_version)
    r.hardware_slug, r.engine_slug, r.model_slug, c.context, c.concurrency, r.quantization_slug, r.engine_version,
    r.model_base_slug, c.total_tps, r.uploaded_at, r.id, r.demo
FROM runs r JOIN decode_cells c ON c.run_id = r.id
WHERE r.engine_version <> '' AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick'
    AND c.status = 'valid' AND c.total_tps > 0
ORDER BY r.hardware_slug, r.engine_slug, r.model_slug, c.context, c.concurrency, r.quantization_slug, r.engine_version,
    c.total_tps DESC, r.uploaded_at, r.id;
