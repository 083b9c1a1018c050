-- The triggers as migration 0017 made them, then the table goes.
CREATE OR REPLACE FUNCTION runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM run_sources WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM decode_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM prefill_rows WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM best_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, best_cells, history_cells;
    RETURN NULL;
END $$;

DROP TABLE version_best_cells;
