COMMENT ON COLUMN runs.above_bound IS NULL;

-- Migration 0022's triggers, without run_telemetry.
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
    DELETE FROM submitter_best_cells v USING gone g
    WHERE (v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, v.demo, v.submitter_slug) =
        (g.model_slug, g.hardware_slug, g.engine_slug, g.quantization_slug, g.demo, g.submitter_slug)
        AND v.run_id = g.id;
    DELETE FROM history_cells WHERE run_id IN (SELECT id FROM gone);
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION runs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE run_sources, decode_cells, prefill_rows, best_cells, version_best_cells, submitter_best_cells,
        history_cells;
    RETURN NULL;
END $$;

DROP TABLE run_telemetry;
ALTER TABLE prefill_rows DROP COLUMN telemetry;
ALTER TABLE decode_cells DROP COLUMN telemetry;
