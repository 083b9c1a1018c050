-- What the tools measured of the GPU boards: per decode cell and prefill
-- row (power, limit, energy, utilisation, temperature, VRAM, throttle
-- verdict, as run.Telemetry writes it; NULL when the file measured
-- nothing), and per run (limits, the worst verdict, the power series).
-- All of it is derived from the run's file, like the cells: a restore and
-- a re-derivation fill it again.
ALTER TABLE decode_cells ADD COLUMN telemetry jsonb;
ALTER TABLE prefill_rows ADD COLUMN telemetry jsonb;

CREATE TABLE run_telemetry (
    run_id text PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    body   jsonb NOT NULL
);

-- runs.above_bound keeps its name and now says whether any plausibility
-- flag is raised (above the physical bound, or a power the boards cannot
-- draw): both leave a run out of the rankings alike.
COMMENT ON COLUMN runs.above_bound IS 'a plausibility flag is raised (run.Unrankable): left out of rankings';
