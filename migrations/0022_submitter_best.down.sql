-- The triggers as migration 0019 made them, then the table goes.
CREATE OR REPLACE FUNCTION runs_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM run_sources WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM decode_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM prefill_rows WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM best_cells WHERE run_id IN (SELECT id FROM gone);
    DELETE FROM version_best_cells v USING gone g
    WHERE (v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, v.demo, v.engine_version) =
        (g.model_slug, g.hardware_slug, g.engine_slug, g.quantization_slug, g.demo, g.engine_version)
        AND v.run_id = g.id;
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, best_cells, version_best_cells, history_cells;
    RETURN NULL;
END $$;

DROP TABLE submitter_best_cells;
