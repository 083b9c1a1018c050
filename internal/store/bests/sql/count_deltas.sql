-- count_run_deltas.sql for runs counted in memory (freshIndex): $1–$6 as
-- count_groups.sql's, $7 each group's runs, $8 how many of them a history
-- reads.
INSERT INTO browse_count_deltas (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug,
    runs, history_runs)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])
