-- An entity page links the setups of its hardware, engine, model or base
-- model that rankable runs measured with more than one engine version, the
-- most versions first (Store.SetupsWithHistory). It grouped every one of
-- the identity's history_versions rows to count them: 2,385 rows for one
-- engine at a million demo runs against 187 at a thousand, most of the
-- engine page's time. history_setups keeps the count per setup instead, so
-- the links are the first rows of one index range.
--
-- A setup's versions are its history_versions rows: an upload makes a
-- version's row in the statement that counts its runs, so every row is a
-- version with runs (folded, or pending in browse_count_deltas), and a
-- rebuild of a setup and version makes only rows with runs. The count
-- moves only when a row is made (an upload's new version: countRunsSQL,
-- the bulk load's countDeltasSQL) or a setup's rows are derived again
-- (rebuildHistoryOf, rebuildAllHistory), not at every upload.
CREATE TABLE history_setups (
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    model_slug        text NOT NULL,
    quantization_slug text NOT NULL,
    -- model_base_slug follows from model_slug; a base model's page reads it.
    model_base_slug   text NOT NULL,
    versions          integer NOT NULL CHECK (versions > 0),
    PRIMARY KEY (hardware_slug, engine_slug, model_slug, quantization_slug)
);

-- One index per kind of page, in the order the links are listed (most
-- versions, then model, hardware, engine and quantization; the page's own
-- column is fixed), holding only the setups a page links: a setup with one
-- version, most of them, writes no entry here.
CREATE INDEX history_setups_hardware_idx ON history_setups
    (hardware_slug, versions DESC, model_slug, engine_slug, quantization_slug) WHERE versions > 1;
CREATE INDEX history_setups_engine_idx ON history_setups
    (engine_slug, versions DESC, model_slug, hardware_slug, quantization_slug) WHERE versions > 1;
CREATE INDEX history_setups_model_idx ON history_setups
    (model_slug, versions DESC, hardware_slug, engine_slug, quantization_slug) WHERE versions > 1;
CREATE INDEX history_setups_base_idx ON history_setups
    (model_base_slug, versions DESC, model_slug, hardware_slug, engine_slug, quantization_slug) WHERE versions > 1;

-- Filled once from history_versions, as rebuildAllHistory does.
INSERT INTO history_setups
SELECT hardware_slug, engine_slug, model_slug, quantization_slug, min(model_base_slug), count(*)
FROM history_versions
GROUP BY hardware_slug, engine_slug, model_slug, quantization_slug;
