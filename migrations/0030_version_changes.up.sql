-- Regressions and speedups between consecutive engine versions of a setup
-- (hardware, engine, model, quantization), and the runner-up a report's
-- "what differs" needs.
--
-- version_changes holds every pair of consecutive versions of a setup that
-- moved 10 % or more (package regress decides, package store/regressions
-- writes): the /regressions page, its feed and the API read a few rows of
-- it by index at any number of runs. Its rows are derived from
-- history_cells, each version's best valid total tok/s per cell among the
-- runs a history reads (shown, not above the bound, not quick), demo runs
-- left out.
CREATE TABLE version_changes (
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    model_slug        text NOT NULL,
    quantization_slug text NOT NULL,
    model_base_slug   text NOT NULL,
    old_version       text NOT NULL,
    new_version       text NOT NULL,
    -- The runs that stand for each version (regress.Change).
    old_run_id        text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    new_run_id        text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    kind              text NOT NULL CHECK (kind IN ('regression', 'speedup')),
    -- The change shown, in per cent, and the headline cell it was read at
    -- (NULL when the versions share no concurrency-1 cell).
    percent           double precision NOT NULL,
    headline_context  integer,
    headline_concurrency integer,
    -- Every shared cell: [{"context", "concurrency", "old", "new"}, …].
    cells             jsonb NOT NULL,
    -- When the newer version's run was uploaded: lists show the newest first.
    seen_at           timestamptz NOT NULL,
    PRIMARY KEY (hardware_slug, engine_slug, model_slug, quantization_slug, new_version)
);
-- The lists' orders: newest first, ties in key order; one per filter.
CREATE INDEX version_changes_seen_idx ON version_changes
    (seen_at DESC, hardware_slug, engine_slug, model_slug, quantization_slug, new_version);
CREATE INDEX version_changes_engine_idx ON version_changes
    (engine_slug, seen_at DESC, hardware_slug, model_slug, quantization_slug, new_version);
CREATE INDEX version_changes_hardware_idx ON version_changes
    (hardware_slug, seen_at DESC, engine_slug, model_slug, quantization_slug, new_version);
CREATE INDEX version_changes_old_run_idx ON version_changes (old_run_id);
CREATE INDEX version_changes_new_run_idx ON version_changes (new_run_id);

-- The setups whose history_cells rows changed since their version changes
-- were last derived. Whatever writes history_cells (an upload's offers,
-- a rebuild, the bulk load, a run's deletion cascading) notes its setups
-- here through the triggers below, in its own transaction, so no write
-- path has to know; the fold (store/regressions) derives the noted setups
-- again and deletes their notes. No key: uploads append without waiting
-- for each other, and a setup noted twice is derived once.
CREATE TABLE version_changes_pending (
    hardware_slug     text NOT NULL,
    engine_slug       text NOT NULL,
    model_slug        text NOT NULL,
    quantization_slug text NOT NULL
);

CREATE FUNCTION note_version_changes_pending() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO version_changes_pending
    SELECT DISTINCT hardware_slug, engine_slug, model_slug, quantization_slug FROM changed_cells;
    RETURN NULL;
END
$$;

-- One trigger per event: a trigger with a transition table has one event.
CREATE TRIGGER history_cells_inserted AFTER INSERT ON history_cells
    REFERENCING NEW TABLE AS changed_cells FOR EACH STATEMENT EXECUTE FUNCTION note_version_changes_pending();
CREATE TRIGGER history_cells_updated AFTER UPDATE ON history_cells
    REFERENCING NEW TABLE AS changed_cells FOR EACH STATEMENT EXECUTE FUNCTION note_version_changes_pending();
CREATE TRIGGER history_cells_deleted AFTER DELETE ON history_cells
    REFERENCING OLD TABLE AS changed_cells FOR EACH STATEMENT EXECUTE FUNCTION note_version_changes_pending();

-- Every setup with more than one version is derived at the first fold.
INSERT INTO version_changes_pending
SELECT hardware_slug, engine_slug, model_slug, quantization_slug FROM history_setups WHERE versions > 1;

-- A report's "what differs" compares its run with the fastest other run
-- of its hardware, model and quantization; best_cells holds each engine's
-- best, and when the run is that best itself, the runner-up is read from
-- the runs of its browse group (store/rivals). These are the runs
-- best_cells ranks, keyed by the group, so the group's runs are one range.
CREATE INDEX runs_rival_idx ON runs (hardware_slug, model_slug, quantization_slug, engine_slug, demo)
    WHERE NOT hidden AND NOT above_bound AND profile <> 'quick';
