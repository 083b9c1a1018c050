-- Stores the slugs of runs ($1, their ids; $2–$7 their hardware, engine,
-- model, base model, submitter and quantization slugs), the catalog version
-- they were computed with ($8), and their headline numbers from their stored
-- cells: best_peak_tps, the highest valid total tok/s; best_single_tps, the
-- valid cell at concurrency 1 and the smallest context.
UPDATE runs r SET
    hardware_slug = v.hw, engine_slug = v.engine, model_slug = v.model, model_base_slug = v.base,
    submitter_slug = v.submitter, quantization_slug = v.quant, catalog_version = $8,
    best_peak_tps = (SELECT max(c.total_tps) FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid'),
    best_single_tps = (SELECT c.total_tps FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid' AND c.concurrency = 1
        ORDER BY c.context LIMIT 1)
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
    AS v (id, hw, engine, model, base, submitter, quant)
WHERE r.id = v.id
