DROP TABLE prefill_rows;
DROP TABLE decode_cells;
DROP TABLE run_sources;
DROP TABLE runs;
