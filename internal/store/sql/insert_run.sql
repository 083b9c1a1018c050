-- A fresh run's row, whole (runRowArgs: $1 its id, $2 its dedupe key, $60 the
-- slug of the organisation it was uploaded for). Nothing when its key or id is
-- stored; else the epoch of the stored bests, read before the upload takes
-- bestLock (bestBounds).
INSERT INTO runs (
    id, dedupe_key,
    uploaded_at, revision, rules_version, submitter, provenance,
    tool_name, tool_version, source_format, measured_at,
    hardware_type, hardware_gpu_name, hardware_gpu_count, hardware_vram_gb,
    hardware_cpu_name, hardware_cpu_cores, hardware_ram_gb, hardware_os, hardware_driver,
    engine_name, engine_version, engine_quantization, engine_backend, engine_build,
    engine_launch_command,
    model_id, model_served_name, model_revision,
    settings_decode_mode, settings_prefill_mode, settings_seconds_per_measurement,
    settings_request_count, settings_max_output_tokens, settings_kv_budget_tokens,
    settings_max_running_requests, settings_contexts, settings_concurrencies,
    settings_prefill_contexts,
    source_sha256, source_filename, source_content_type, source_size,
    demo, notes,
    submitter_verified, profile, integrity,
    hardware_slug, engine_slug, model_slug, model_base_slug, submitter_slug, quantization_slug,
    catalog_version, best_single_tps, best_peak_tps, above_bound, bound_version, flags,
    submitter_id, org_id
) VALUES (
    $1, $2, $3, 1, $4, $5, $6,
    $7, $8, $9, $10,
    $11, $12, $13, $14,
    $15, $16, $17, $18, $19,
    $20, $21, $22, $23, $24,
    $25,
    $26, $27, $28,
    $29, $30, $31,
    $32, $33, $34,
    $35, $36, $37,
    $38,
    $39, $40, $41, $42,
    $43, $44,
    $45, $46, $47,
    $48, $49, $50, $51, $52, $53,
    $54, $55, $56, $57, $58, $59,
    -- A verified run belongs to its submitter's account (who may delete it).
    (SELECT id FROM submitters WHERE $45 AND lower(handle) = lower($5)),
    -- The organisation it was uploaded for; InsertRun checked the
    -- membership (a restore keeps the organisation as it was).
    (SELECT id FROM orgs WHERE $45 AND $60 <> '' AND lower(slug) = lower($60))
)
ON CONFLICT DO NOTHING
RETURNING (SELECT epoch FROM best_epoch)
