-- The planner answers each setup measured on one hardware from the best
-- cells per request and in total at its grid points. Read through
-- best_cells_hardware_rank_idx, every such row cost a visit to the table,
-- whose rows of one hardware lie scattered over as many pages as there are
-- rows: 11,500 rows on 9,400 pages for the busiest hardware at 100,000
-- runs. Keyed by hardware and setup, and holding the few columns the
-- answer reads, this index answers it alone (an index-only scan) in the
-- order it groups them.
CREATE INDEX best_cells_plan_idx ON best_cells
    (hardware_slug, model_slug, engine_slug, quantization_slug, demo, context, concurrency)
    INCLUDE (metric, status, value, run_id, model_base_slug)
    WHERE metric IN ('per_request_tps', 'total_tps');
