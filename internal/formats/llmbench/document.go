package llmbench

// The shape of benchmark_results.json as far as speedmatrix reads it. Every
// key added after 0.2.0 is optional; unknown keys are ignored. Numbers are
// read as float64 (Python may write 30 or 30.0 for the same field) and
// checked where an integer is meant.

type document struct {
	Metadata           *metadata             `json:"metadata"`
	StartupDiagnostics *diagnostics          `json:"startup_diagnostics"`
	HardwareRunSummary *hardwareSummary      `json:"hardware_run_summary"`
	EventLog           []string              `json:"event_log"`
	Prefill            map[string]prefillRec `json:"prefill"`
	Results            []cellRec             `json:"results"`
}

type metadata struct {
	Version           *string   `json:"version"`
	Mode              string    `json:"mode"`
	Engine            string    `json:"engine"`
	Model             string    `json:"model"`
	ServerVersion     string    `json:"server_version"`
	Timestamp         string    `json:"timestamp"`
	DecodeMode        string    `json:"decode_mode"`
	PrefillMode       string    `json:"prefill_mode"`
	PrefillOnly       bool      `json:"prefill_only"`
	DurationPerTest   *float64  `json:"duration_per_test"`
	RequestCount      *float64  `json:"request_count"`
	MaxTokens         *float64  `json:"max_tokens"`
	MaxTotalTokens    *float64  `json:"max_total_tokens"`
	MetricsAvailable  *bool     `json:"metrics_available"`
	ConcurrencyLevels []float64 `json:"concurrency_levels"`
	ContextLengths    []float64 `json:"context_lengths"`
}

type diagnostics struct {
	Uname          string     `json:"uname"`
	NvidiaSMIQuery *smiResult `json:"nvidia_smi_query"`
}

type smiResult struct {
	ReturnCode int    `json:"returncode"`
	Stdout     string `json:"stdout"`
}

// hardwareSummary is a cell's (or the run's) nvidia-smi summary, 0.4.0+:
// sums over the GPUs; {} when nvidia-smi was not there.
type hardwareSummary struct {
	GPUCount    float64  `json:"gpu_count"`
	VRAMTotalMB float64  `json:"vram_total_mb"`
	Samples     *float64 `json:"samples"`
	PowerAvgW   *float64 `json:"power_total_avg_w"`
	PowerMaxW   *float64 `json:"power_total_max_w"`
	PowerLimitW *float64 `json:"power_limit_total_w"`
	GPUUtilAvg  *float64 `json:"gpu_util_avg_pct"`
	TempMaxC    *float64 `json:"temp_max_c"`
	VRAMUsedMax *float64 `json:"vram_used_max_mb"`
}

type prefillRec struct {
	TTFTSeconds *float64         `json:"ttft_seconds"`
	TokPerSec   *float64         `json:"tok_per_sec"`
	Samples     *float64         `json:"samples"`
	Hardware    *hardwareSummary `json:"hardware_summary"`
}

// cellRec is one CellResult. Pointers distinguish a key a version did not
// write from a zero.
type cellRec struct {
	Concurrency         *float64         `json:"concurrency"`
	ContextTokens       *float64         `json:"context_tokens"`
	AggregateTPS        *float64         `json:"aggregate_tps"`
	PerRequestAvgTPS    *float64         `json:"per_request_avg_tps"`
	OutputTPSPerUserP50 *float64         `json:"output_tps_per_user_p50"`
	TTFTP50             *float64         `json:"ttft_p50"`
	ITLP50              *float64         `json:"inter_token_latency_p50"`
	TotalTokens         *float64         `json:"total_tokens"`
	ClientOutputTokens  *float64         `json:"client_output_tokens"`
	NumCompleted        *float64         `json:"num_completed"`
	CompletedRequests   *float64         `json:"completed_request_count"`
	MeasurementSeconds  *float64         `json:"measurement_seconds"`
	AvgRunningReqs      *float64         `json:"avg_running_reqs"`
	AvgQueueReqs        *float64         `json:"avg_queue_reqs"`
	QueueFraction       *float64         `json:"queue_fraction"`
	CapacityLimited     bool             `json:"capacity_limited"`
	FailureReason       string           `json:"failure_reason"`
	LoopDetected        bool             `json:"loop_detected"`
	AggregateSource     string           `json:"aggregate_source"`
	HardwareSummary     *hardwareSummary `json:"hardware_summary"`
}
