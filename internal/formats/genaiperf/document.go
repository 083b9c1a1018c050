package genaiperf

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// block is one metric: {unit, avg, p1…p99, min, max, std}. System and
// derived metrics carry avg only; AIPerf's records variant adds tag, header
// and count and writes null for what it lacks.
type block struct {
	Unit string   `json:"unit"`
	Avg  *float64 `json:"avg"`
	P50  *float64 `json:"p50"`
}

// metricNames maps what speedmatrix reads to the tags the tools use, newest
// first: AIPerf's early artifact says ttft. GenAI-Perf before 2025 wrote
// output_token_throughput_per_request, which divides by the whole request
// (first token included): it is read only when no ITL gives a better
// per-request speed, with a note.
var metricNames = map[string][]string{
	"per_request": {"output_token_throughput_per_request"},
	"ttft":        {"time_to_first_token", "ttft"},
	"itl":         {"inter_token_latency"},
	"per_user":    {"output_token_throughput_per_user"},
	"throughput":  {"output_token_throughput"},
	"isl":         {"input_sequence_length"},
	"osl":         {"output_sequence_length"},
	"count":       {"request_count"},
	"errors":      {"error_request_count"},
	"duration":    {"benchmark_duration"},
	"total_osl":   {"total_osl", "total_output_tokens"},
	"request_tps": {"request_throughput"},
}

// inputConfig is GenAI-Perf's flat argparse dump (to early 2025), its
// nested config (after) and AIPerf's user-set options, in one struct: the
// key sets do not collide. None is written as null or "".
type inputConfig struct {
	// GenAI-Perf, flat
	Model          []string    `json:"model"`
	Concurrency    jsondoc.Num `json:"concurrency"`
	RequestRate    jsondoc.Num `json:"request_rate"`
	SyntheticInput jsondoc.Num `json:"synthetic_input_tokens_mean"`
	Backend        string      `json:"backend"`
	ServiceKind    string      `json:"service_kind"`
	Streaming      *bool       `json:"streaming"`
	// GenAI-Perf, nested
	ModelNames   []string `json:"model_names"`
	PerfAnalyzer *struct {
		Stimulus map[string]jsondoc.Num `json:"stimulus"`
	} `json:"perf_analyzer"`
	Input *struct {
		SyntheticTokens *struct {
			Mean jsondoc.Num `json:"mean"`
		} `json:"synthetic_tokens"`
		// AIPerf
		Prompt *struct {
			InputTokens *struct {
				Mean jsondoc.Num `json:"mean"`
			} `json:"input_tokens"`
		} `json:"prompt"`
	} `json:"input"`
	// Endpoint is GenAI-Perf's nested endpoint and AIPerf's.
	// Endpoint is a URL path in the flat dump, an object in GenAI-Perf's
	// nested config and in AIPerf's.
	Endpoint jsontext.Value `json:"endpoint"`
	// AIPerf
	Loadgen *struct {
		Concurrency jsondoc.Num `json:"concurrency"`
		RequestRate jsondoc.Num `json:"request_rate"`
	} `json:"loadgen"`
}

type endpoint struct {
	ModelNames  []string `json:"model_names"`
	Backend     string   `json:"backend"`
	ServiceKind string   `json:"service_kind"`
	Streaming   *bool    `json:"streaming"`
}

// head is what is read besides the metric blocks.
type head struct {
	// InputConfig and Telemetry are read leniently (a field of an
	// unexpected type is skipped): they describe the run, they are not
	// measurements.
	InputConfig   jsontext.Value            `json:"input_config"`
	Records       map[string]jsontext.Value `json:"records"`
	AIPerfVersion string                    `json:"aiperf_version"`
	SchemaVersion jsontext.Value            `json:"schema_version"`
	ErrorSummary  jsontext.Value            `json:"error_summary"`
	WasCancelled  *bool                     `json:"was_cancelled"`
	StartTime     string                    `json:"start_time"`
	Telemetry     jsontext.Value            `json:"telemetry_data"`
}

type telemetry struct {
	Endpoints map[string]struct {
		GPUs map[string]struct {
			Name string `json:"gpu_name"`
		} `json:"gpus"`
	} `json:"endpoints"`
}
