package run

// Status is the derived state of a grid cell or prefill row. It is decided by
// internal/status from the numbers, never typed by a person.
type Status string

// Statuses, as the API spells them.
const (
	Valid        Status = "valid"
	Queued       Status = "queued"
	OverCapacity Status = "over_capacity"
	Failed       Status = "failed"
	NotMeasured  Status = "not_measured"
)

// Statuses lists every status in the order the rules try them.
var Statuses = []Status{Failed, OverCapacity, Queued, Valid, NotMeasured}

// ReasonCode names the rule behind a cell's status.
type ReasonCode string

// Reason codes.
const (
	// ReasonSource: the source marked the cell failed; Reason is its text.
	ReasonSource ReasonCode = "source_failure"
	// ReasonLoop: the tool detected a repetition loop.
	ReasonLoop ReasonCode = "repetition_loop"
	// ReasonLegacyZero: an all-zero record, the failure marker up to 0.4.18.
	ReasonLegacyZero ReasonCode = "legacy_zero_record"
	// ReasonKVBudget: concurrency × (context + max output) exceeds the KV budget.
	ReasonKVBudget ReasonCode = "kv_budget"
	// ReasonNoOutput: the cell ran but produced no output tokens.
	ReasonNoOutput ReasonCode = "no_output"
	// ReasonQueued: not every stream ran at once.
	ReasonQueued ReasonCode = "queued"
	// ReasonPlan: the planning tool skipped the cell; Reason is its text.
	ReasonPlan ReasonCode = "plan_skip"
	// ReasonAbsent: in the declared grid but not in the results.
	ReasonAbsent ReasonCode = "absent"
	// ReasonNoRate: a prefill row without a positive rate.
	ReasonNoRate ReasonCode = "no_rate"
)

// Metrics are the numbers of one decode cell. A nil pointer means the source
// did not say.
type Metrics struct {
	TotalTPS      *float64 `json:"total_tps"`
	PerRequestTPS *float64 `json:"per_request_tps"`
	// TTFTms is the median time to first token in milliseconds.
	TTFTms *float64 `json:"ttft_ms"`
	// TBTms is the median time between tokens in milliseconds.
	TBTms        *float64 `json:"tbt_ms"`
	AvgActive    *float64 `json:"avg_active"`
	Completed    *int64   `json:"completed"`
	OutputTokens *int64   `json:"output_tokens"`
	MeasuredS    *float64 `json:"measured_s"`
}

// Signals are the facts behind a decode cell's status that are not shown as
// numbers: what the source says about failures and queueing.
type Signals struct {
	// Failed is set when the source marks the cell failed (a sentinel
	// throughput, loop detection, an all-zero legacy record).
	Failed        bool   `json:"failed,omitempty"`
	FailureReason string `json:"failure_reason,omitempty"`
	LoopDetected  bool   `json:"loop_detected,omitempty"`
	// CapacityLimited is the source's own verdict that not every stream ran
	// at once.
	CapacityLimited bool     `json:"capacity_limited,omitempty"`
	AvgQueue        *float64 `json:"avg_queue,omitempty"`
	QueueFraction   *float64 `json:"queue_fraction,omitempty"`
}

// DecodeCell is one derived cell of the sustained-decode grid.
type DecodeCell struct {
	// Context is the grid row: the requested context length in tokens.
	Context int `json:"context"`
	// MeasuredContext is the context actually sent when it differs from
	// Context (lil-bench trims contexts to fit max_model_len); 0 otherwise.
	MeasuredContext int    `json:"measured_context,omitempty"`
	Concurrency     int    `json:"concurrency"`
	Status          Status `json:"status"`
	// Reason explains a non-valid status in English: the failure message,
	// the KV arithmetic, the plan's skip reason.
	Reason string `json:"reason"`
	// ReasonCode says which rule produced Reason, so pages can word it in
	// the reader's language.
	ReasonCode ReasonCode `json:"reason_code,omitempty"`
	Metrics
	// Measured is true when the source holds a measurement for this cell.
	Measured bool    `json:"measured"`
	Signals  Signals `json:"signals"`
	// Telemetry is what the tool measured of the GPU boards meanwhile.
	Telemetry
}

// PrefillRow is one derived prefill measurement.
type PrefillRow struct {
	Context         int        `json:"context"`
	MeasuredContext int        `json:"measured_context,omitempty"`
	Status          Status     `json:"status"`
	Reason          string     `json:"reason"`
	ReasonCode      ReasonCode `json:"reason_code,omitempty"`
	PromptTPS       *float64   `json:"prompt_tps"`
	TTFTms          *float64   `json:"ttft_ms"`
	// Completed is the number of requests the prefill figure rests on.
	Completed *int64 `json:"completed"`
	Measured  bool   `json:"measured"`
	// Telemetry is what the tool measured of the GPU boards meanwhile.
	Telemetry
}

// F returns a pointer to v, for building metrics in parsers and tests.
func F(v float64) *float64 { return &v }

// I returns a pointer to v.
func I(v int64) *int64 { return &v }
