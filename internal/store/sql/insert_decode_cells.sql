-- One run's decode cells: $1 its id, then one array per column (decodeCellArgs),
-- stepped through side by side, one element of each per row.
INSERT INTO decode_cells (run_id, context, concurrency, measured_context, status, reason, reason_code,
    total_tps, per_request_tps, ttft_ms, tbt_ms, avg_active, completed, output_tokens, measured_s, measured,
    signal_failed, signal_failure_reason, signal_loop_detected, signal_capacity_limited, signal_avg_queue,
    signal_queue_fraction, telemetry)
SELECT $1::text, unnest($2::integer[]), unnest($3::integer[]), unnest($4::integer[]), unnest($5::text[]),
    unnest($6::text[]), unnest($7::text[]), unnest($8::double precision[]), unnest($9::double precision[]),
    unnest($10::double precision[]), unnest($11::double precision[]), unnest($12::double precision[]),
    unnest($13::bigint[]), unnest($14::bigint[]), unnest($15::double precision[]), unnest($16::boolean[]),
    unnest($17::boolean[]), unnest($18::text[]), unnest($19::boolean[]), unnest($20::boolean[]),
    unnest($21::double precision[]), unnest($22::double precision[]), unnest($23::text[])::jsonb
