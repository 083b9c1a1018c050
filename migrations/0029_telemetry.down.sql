COMMENT ON COLUMN runs.above_bound IS NULL;
DROP TABLE run_telemetry;
ALTER TABLE prefill_rows DROP COLUMN telemetry;
ALTER TABLE decode_cells DROP COLUMN telemetry;
