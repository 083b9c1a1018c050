-- One row per uploaded document. The columns mirror run.Run field by field;
-- strings and numbers are NOT NULL with zero defaults because the domain
-- model has no "unknown" for them beyond the zero value. The grid axes are
-- nullable so a nil slice and an empty one both survive a round trip.
CREATE TABLE runs (
    id            text PRIMARY KEY,
    dedupe_key    text NOT NULL UNIQUE,
    uploaded_at   timestamptz NOT NULL DEFAULT now(),
    -- revision changes whenever the stored run changes; it feeds ETags.
    revision      bigint NOT NULL DEFAULT 1,
    rules_version text NOT NULL DEFAULT '',
    submitter     text NOT NULL DEFAULT '',
    provenance    text NOT NULL CHECK (provenance IN ('measured', 'imported')),
    tool_name     text NOT NULL DEFAULT '',
    tool_version  text NOT NULL DEFAULT '',
    source_format text NOT NULL DEFAULT '',
    -- measured_at is kept as the tool wrote it, often without a zone.
    measured_at   text NOT NULL DEFAULT '',

    hardware_type      text NOT NULL DEFAULT ''
        CHECK (hardware_type IN ('', 'discrete_gpu', 'unified_memory', 'cpu_only', 'other')),
    hardware_gpu_name  text NOT NULL DEFAULT '',
    hardware_gpu_count integer NOT NULL DEFAULT 0,
    hardware_vram_gb   double precision NOT NULL DEFAULT 0,
    hardware_cpu_name  text NOT NULL DEFAULT '',
    hardware_cpu_cores integer NOT NULL DEFAULT 0,
    hardware_ram_gb    double precision NOT NULL DEFAULT 0,
    hardware_os        text NOT NULL DEFAULT '',
    hardware_driver    text NOT NULL DEFAULT '',

    engine_name           text NOT NULL DEFAULT '',
    engine_version        text NOT NULL DEFAULT '',
    engine_quantization   text NOT NULL DEFAULT '',
    engine_backend        text NOT NULL DEFAULT '',
    engine_build          text NOT NULL DEFAULT '',
    engine_launch_command text NOT NULL DEFAULT '',

    model_id          text NOT NULL DEFAULT '',
    model_served_name text NOT NULL DEFAULT '',
    model_revision    text NOT NULL DEFAULT '',

    settings_decode_mode             text NOT NULL DEFAULT '',
    settings_prefill_mode            text NOT NULL DEFAULT '',
    settings_seconds_per_measurement double precision NOT NULL DEFAULT 0,
    settings_request_count           integer NOT NULL DEFAULT 0,
    settings_max_output_tokens       integer NOT NULL DEFAULT 0,
    settings_kv_budget_tokens        bigint NOT NULL DEFAULT 0,
    settings_max_running_requests    integer NOT NULL DEFAULT 0,
    settings_contexts                integer[],
    settings_concurrencies           integer[],
    settings_prefill_contexts        integer[],

    source_sha256       text NOT NULL DEFAULT '',
    source_filename     text NOT NULL DEFAULT '',
    source_content_type text NOT NULL DEFAULT '',
    source_size         bigint NOT NULL DEFAULT 0
);

-- The home page lists the newest runs.
CREATE INDEX runs_uploaded_at_idx ON runs (uploaded_at DESC, id);

-- The uploaded document, byte for byte, kept apart from runs so that listing
-- runs never reads it. Runs are derived again from it when the rules change.
CREATE TABLE run_sources (
    run_id text PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    body   bytea NOT NULL
);

-- One row per cell of the decode grid. A NULL metric means the source did
-- not say; 0 is a measured zero.
CREATE TABLE decode_cells (
    run_id           text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    context          integer NOT NULL,
    concurrency      integer NOT NULL,
    measured_context integer NOT NULL DEFAULT 0,
    status           text NOT NULL
        CHECK (status IN ('valid', 'queued', 'over_capacity', 'failed', 'not_measured')),
    reason           text NOT NULL DEFAULT '',
    reason_code      text NOT NULL DEFAULT '',

    total_tps       double precision,
    per_request_tps double precision,
    ttft_ms         double precision,
    tbt_ms          double precision,
    avg_active      double precision,
    completed       bigint,
    output_tokens   bigint,
    measured_s      double precision,

    measured boolean NOT NULL DEFAULT false,

    signal_failed           boolean NOT NULL DEFAULT false,
    signal_failure_reason   text NOT NULL DEFAULT '',
    signal_loop_detected    boolean NOT NULL DEFAULT false,
    signal_capacity_limited boolean NOT NULL DEFAULT false,
    signal_avg_queue        double precision,
    signal_queue_fraction   double precision,

    PRIMARY KEY (run_id, context, concurrency)
);

-- For the leaderboard: the best valid throughput at one grid point.
CREATE INDEX decode_cells_leaderboard_idx
    ON decode_cells (context, concurrency, status, total_tps);

CREATE TABLE prefill_rows (
    run_id           text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    context          integer NOT NULL,
    measured_context integer NOT NULL DEFAULT 0,
    status           text NOT NULL
        CHECK (status IN ('valid', 'queued', 'over_capacity', 'failed', 'not_measured')),
    reason           text NOT NULL DEFAULT '',
    reason_code      text NOT NULL DEFAULT '',
    prompt_tps       double precision,
    ttft_ms          double precision,
    completed        bigint,
    measured         boolean NOT NULL DEFAULT false,

    PRIMARY KEY (run_id, context)
);
