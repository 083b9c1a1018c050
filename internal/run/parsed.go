package run

// Parsed is what a format parser reads from one document, before the form's
// metadata is merged in and before statuses are derived. Every format in
// internal/formats produces one.
type Parsed struct {
	// Format names the document's format, e.g. "llm-inference-bench".
	Format     string
	Tool       Tool
	Provenance Provenance
	Submitter  string
	// Profile and Integrity are lil-bench's (see Run.Profile, Run.Integrity).
	Profile, Integrity string
	Hardware           Hardware
	Engine             Engine
	Model              Model
	// Settings carries the declared grid: Contexts × Concurrencies and
	// PrefillContexts.
	Settings   Settings
	MeasuredAt string
	// DedupeKey identifies the document across uploads when it has an
	// identity of its own (a lil-bench run_id, the source hash in a
	// speedmatrix export); empty means "hash the bytes".
	DedupeKey string

	Prefill []PrefillMeasurement
	Decode  []Measurement
	// Plan lists cells the tool planned and skipped, with why.
	Plan []PlanEntry
	// Notes are caveat codes for the run (see Run.Notes).
	Notes []string
	// Telemetry is what the file measured of the GPUs over the whole run;
	// nil when nothing.
	Telemetry *RunTelemetry
}

// Measurement is one decode cell as the source recorded it.
type Measurement struct {
	// Path is the JSON path of the record, for error messages.
	Path            string
	Context         int
	MeasuredContext int
	Concurrency     int
	// PeakActive is the most requests the client had in flight at once,
	// when the tool recorded it (vLLM's and SGLang's
	// max_concurrent_requests); the status rules prefer it to the mean.
	PeakActive *int64
	Metrics
	Signals
	Telemetry
}

// PrefillMeasurement is one prefill row as the source recorded it.
type PrefillMeasurement struct {
	Path            string
	Context         int
	MeasuredContext int
	PromptTPS       *float64
	TTFTms          *float64
	Completed       *int64
	// FailureReason is set when the source marks the row invalid.
	FailureReason string
	Telemetry
}

// PlanEntry is a cell of a planning tool's (lil-bench's) plan that matters to
// the grid: one it skipped, with why, or one it planned at a trimmed context.
// Concurrency is 0 for prefill entries.
type PlanEntry struct {
	Prefill     bool
	Context     int
	Concurrency int
	// MeasuredContext is the trimmed context the plan sends (or would have
	// sent) instead of Context; 0 when it is Context itself.
	MeasuredContext int
	// Skipped is set when the plan decided not to run the cell.
	Skipped bool
	// OverCapacity is set when the plan skipped the cell because it cannot
	// fit the KV cache.
	OverCapacity bool
	Reason       string
}
