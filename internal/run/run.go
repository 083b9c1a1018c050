// Package run holds the domain model of speedmatrix: a run is one model served
// by one engine on one machine, measured over a grid of context lengths ×
// concurrency levels, plus prefill at several context lengths.
//
// The types here carry no behaviour beyond small helpers. Statuses are decided
// in internal/status, documents are read in internal/formats, runs are stored
// in internal/store and shown through internal/report.
package run

import "time"

// MetaEdit is an uploader's change of a run's editable metadata
// (ingest.EditableFields, read by ingest.ParseEdit); an empty value clears
// the fact.
type MetaEdit struct {
	OS, Driver, Backend, Build, LaunchCommand, ServedModel, Revision string
}

// Run is a stored, derived run: what the report page, the API and every export
// show.
type Run struct {
	ID        string `json:"id"`
	Submitter string `json:"submitter"`
	// SubmitterVerified is set when the upload carried a token of the
	// submitter's account: the name is proven, not self-declared.
	SubmitterVerified bool `json:"submitter_verified,omitempty"`
	// Org is the organisation a verified submitter uploaded the run for.
	Org Org `json:"org,omitzero"`
	// Profile is lil-bench's measurement profile ("standard", "quick");
	// quick runs are shown but kept out of leaderboards and bests.
	Profile string `json:"profile,omitempty"`
	// Integrity is lil-bench's check of the image: "stock", "modified" or
	// "unverified"; empty when the tool has no such check.
	Integrity string `json:"integrity,omitempty"`
	// EditedAt is when the uploader last changed the run's metadata (the
	// stored file never changes); nil when never.
	EditedAt     *time.Time `json:"edited_at,omitempty"`
	Provenance   Provenance `json:"provenance"`
	Tool         Tool       `json:"tool"`
	SourceFormat string     `json:"source_format"`
	Hardware     Hardware   `json:"hardware"`
	Engine       Engine     `json:"engine"`
	Model        Model      `json:"model"`
	Settings     Settings   `json:"settings"`
	// Prefill has one row per prefill context, in ascending context order.
	Prefill []PrefillRow `json:"prefill"`
	// Decode has one cell per cell of the declared grid, ordered by context
	// then concurrency.
	Decode []DecodeCell `json:"decode"`
	Source Source       `json:"source"`
	// MeasuredAt is the timestamp the tool wrote, as written (often a local
	// time without zone), empty when unknown.
	MeasuredAt string    `json:"measured_at,omitempty"`
	UploadedAt time.Time `json:"uploaded_at"`
	// RulesVersion names the status rules the cells were derived with.
	RulesVersion string `json:"status_rules"`
	// Revision changes whenever the stored run changes (re-derivation, edits);
	// it feeds the report page's ETag.
	Revision int64 `json:"-"`
	// Demo marks synthetic runs (speedmatrix demo): every page that shows
	// one says so, and they never rank beside measured results.
	Demo bool `json:"demo,omitempty"`
	// Notes are codes of caveats the page explains ("ttft_includes_prefill",
	// "itl_includes_first_token"): where a tool means something else by a
	// number and it could not be converted.
	Notes []string `json:"notes,omitempty"`
	// Flags are the run's plausibility flags (FlagAboveBound), derived
	// with the calculator tables and rule BoundVersion names; the report
	// and the API derive them afresh, lists read the stored ones.
	Flags        []string `json:"-"`
	BoundVersion string   `json:"-"`
	// Telemetry is what the file measured of the GPUs over the whole run
	// (limits, the worst throttle verdict, the power series); nil when
	// the file has none.
	Telemetry *RunTelemetry `json:"-"`
}

// FlagAboveBound marks a run with a cell faster than the physical bound
// allows: shown with a badge, never refused, left out of default rankings.
const FlagAboveBound = "above_bound"

// FlagPowerImplausible marks a run with a cell whose average board power is
// above its power limit by more than a tenth, or above the most its GPUs
// can draw: shown and ranked like FlagAboveBound, never refused.
const FlagPowerImplausible = "power_implausible"

// Unrankable reports whether flags hold a plausibility flag, which keeps
// a run out of default rankings and bests.
func Unrankable(flags []string) bool {
	for _, f := range flags {
		if f == FlagAboveBound || f == FlagPowerImplausible {
			return true
		}
	}
	return false
}

// Provenance says whether a run was measured by the tool that wrote the file
// or imported from elsewhere.
type Provenance string

// Provenance values.
const (
	Measured Provenance = "measured"
	Imported Provenance = "imported"
)

// Tool names the program that wrote the results and its version.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HardwareType classifies the machine.
type HardwareType string

// Hardware types.
const (
	DiscreteGPU   HardwareType = "discrete_gpu"
	UnifiedMemory HardwareType = "unified_memory"
	CPUOnly       HardwareType = "cpu_only"
	OtherHardware HardwareType = "other"
)

// HardwareTypes lists the accepted hardware types, in the order forms show them.
var HardwareTypes = []HardwareType{DiscreteGPU, UnifiedMemory, CPUOnly, OtherHardware}

// Hardware describes the machine a run was measured on.
type Hardware struct {
	Type     HardwareType `json:"type,omitempty"`
	GPUName  string       `json:"gpu_name,omitempty"`
	GPUCount int          `json:"gpu_count,omitempty"`
	// VRAMGB is per GPU, in GB.
	VRAMGB   float64 `json:"vram_gb,omitempty"`
	CPUName  string  `json:"cpu_name,omitempty"`
	CPUCores int     `json:"cpu_cores,omitempty"`
	RAMGB    float64 `json:"ram_gb,omitempty"`
	OS       string  `json:"os,omitempty"`
	Driver   string  `json:"driver,omitempty"`
}

// Engine describes the inference server.
type Engine struct {
	Name          string `json:"name,omitempty"`
	Version       string `json:"version,omitempty"`
	Quantization  string `json:"quantization,omitempty"`
	Backend       string `json:"backend,omitempty"`
	Build         string `json:"build,omitempty"`
	LaunchCommand string `json:"launch_command,omitempty"`
}

// Model describes the model served.
type Model struct {
	ID         string `json:"id,omitempty"`
	ServedName string `json:"served_name,omitempty"`
	Revision   string `json:"revision,omitempty"`
}

// Decode test modes.
const (
	DecodeDuration     = "duration"
	DecodeRequestCount = "request-count"
)

// Prefill modes, as llm-inference-bench names them.
const (
	PrefillIntegrated = "integrated_decode_scout"
	PrefillStandalone = "standalone_cold"
	PrefillSkipped    = "skipped"
)

// Settings are the parameters of the measurement and its declared grid.
type Settings struct {
	DecodeMode            string  `json:"decode_mode,omitempty"`
	PrefillMode           string  `json:"prefill_mode,omitempty"`
	SecondsPerMeasurement float64 `json:"seconds_per_measurement,omitempty"`
	RequestCount          int     `json:"request_count,omitempty"`
	MaxOutputTokens       int     `json:"max_output_tokens,omitempty"`
	// KVBudgetTokens is the server's KV-cache size in tokens; 0 when unknown.
	KVBudgetTokens int64 `json:"kv_budget_tokens,omitempty"`
	// MaxRunningRequests is the server's cap on requests run at once when the
	// tool knew it (SGLang max_running_requests); 0 when unknown.
	MaxRunningRequests int   `json:"max_running_requests,omitempty"`
	Contexts           []int `json:"contexts"`
	Concurrencies      []int `json:"concurrencies"`
	PrefillContexts    []int `json:"prefill_contexts"`
}

// Source describes the document a run came from; the bytes themselves are
// kept by the store.
type Source struct {
	SHA256      string `json:"sha256"`
	Filename    string `json:"filename,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	Size        int64  `json:"size"`
}
