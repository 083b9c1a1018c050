-- What the tools measured of the GPU boards: per decode cell and prefill
-- row (power, limit, energy, utilisation, temperature, VRAM, throttle
-- verdict, as run.Telemetry writes it; NULL when the file measured
-- nothing), and per run (limits, the worst verdict, the power series).
-- All of it is derived from the run's file, like the cells: a restore and
-- a re-derivation fill it again.
ALTER TABLE decode_cells ADD COLUMN telemetry jsonb;
ALTER TABLE prefill_rows ADD COLUMN telemetry jsonb;

-- A run's telemetry goes with its run as its cells do: by the statement
-- triggers of migrations 0017 and 0022, not a foreign key.
CREATE TABLE run_telemetry (
    run_id text PRIMARY KEY,
    body   jsonb NOT NULL
);

CREATE OR REPLACE FUNCTION runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM run_sources WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM decode_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM prefill_rows WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM run_telemetry WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM best_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM version_best_cells v USING gone g
    WHERE (v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, v.demo, v.engine_version) =
        (g.model_slug, g.hardware_slug, g.engine_slug, g.quantization_slug, g.demo, g.engine_version)
        AND v.run_id = g.id;
    DELETE FROM submitter_best_cells v USING gone g
    WHERE (v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, v.demo, v.submitter_slug) =
        (g.model_slug, g.hardware_slug, g.engine_slug, g.quantization_slug, g.demo, g.submitter_slug)
        AND v.run_id = g.id;
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, run_telemetry, best_cells, version_best_cells,
        submitter_best_cells, history_cells;
    RETURN NULL;
END $$;

-- runs.above_bound keeps its name and now says whether any plausibility
-- flag is raised (above the physical bound, or a power the boards cannot
-- draw): both leave a run out of the rankings alike.
COMMENT ON COLUMN runs.above_bound IS 'a plausibility flag is raised (run.Unrankable): left out of rankings';
