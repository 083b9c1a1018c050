-- One run's prefill rows: $1 its id, then one array per column (prefillRowArgs).
INSERT INTO prefill_rows (run_id, context, measured_context, status, reason, reason_code, prompt_tps, ttft_ms,
    completed, measured, telemetry)
SELECT $1::text, unnest($2::integer[]), unnest($3::integer[]), unnest($4::text[]), unnest($5::text[]),
    unnest($6::text[]), unnest($7::double precision[]), unnest($8::double precision[]), unnest($9::bigint[]),
    unnest($10::boolean[]), unnest($11::text[])::jsonb
