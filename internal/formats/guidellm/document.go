package guidellm

import "github.com/go-json-experiment/json/jsontext"

// The shape of a GuideLLM report as far as speedmatrix reads it, across the
// three generations (docs/formats.md, "GuideLLM"):
//
//	v2 (≥0.7)    metadata.version 2, benchmarks[].config.strategy
//	v1 (0.4–0.6) metadata.version 1, benchmarks[].scheduler.strategy
//	legacy (≤0.3) no metadata, benchmarks[].args.strategy and .worker
//
// The metric names are the same in all three.

type report struct {
	Metadata   *metadata      `json:"metadata"`
	Config     *topConfig     `json:"config"`
	Args       jsontext.Value `json:"args"`
	Benchmarks []benchmark    `json:"benchmarks"`
}

type metadata struct {
	Version         *float64 `json:"version"`
	GuideLLMVersion string   `json:"guidellm_version"`
}

type topConfig struct {
	Spec *struct {
		Backend *backend `json:"backend"`
	} `json:"spec"`
}

type backend struct {
	Model string `json:"model"`
}

// v1Args is the report's args in 0.4–0.6: the model is given either
// directly or in the backend's keyword arguments.
type v1Args struct {
	Model         string   `json:"model"`
	BackendKwargs *backend `json:"backend_kwargs"`
}

type benchmark struct {
	Type string `json:"type_"`
	// v2
	Config *struct {
		Strategy *strategy `json:"strategy"`
		Backend  *backend  `json:"backend"`
	} `json:"config"`
	// v1
	Scheduler *struct {
		Strategy *strategy `json:"strategy"`
	} `json:"scheduler"`
	Benchmarker *struct {
		Backend *backend `json:"backend"`
	} `json:"benchmarker"`
	// legacy
	Args *struct {
		Strategy *strategy `json:"strategy"`
	} `json:"args"`
	Worker *struct {
		BackendModel string `json:"backend_model"`
	} `json:"worker"`

	Metrics       metrics  `json:"metrics"`
	RequestTotals *totals  `json:"request_totals"`
	StartTime     *float64 `json:"start_time"`
	Duration      *float64 `json:"duration"`
}

// strategy is the configured load: synchronous, concurrent (streams),
// throughput (max_concurrency), constant or poisson (rate), trace.
type strategy struct {
	Type    string   `json:"type_"`
	Streams *float64 `json:"streams"`
	Rate    *float64 `json:"rate"`
}

type metrics struct {
	// RequestTotals is here in v2 and at the benchmark's top before.
	RequestTotals      *totals `json:"request_totals"`
	RequestConcurrency *dist   `json:"request_concurrency"`
	PromptTokenCount   *dist   `json:"prompt_token_count"`
	OutputTokenCount   *dist   `json:"output_token_count"`
	TTFT               *dist   `json:"time_to_first_token_ms"`
	// ITL excludes the first token and is token-weighted per request:
	// vLLM's TPOT. time_per_output_token_ms (which includes the first
	// token) is deliberately not read.
	ITL       *dist `json:"inter_token_latency_ms"`
	OutputTPS *dist `json:"output_tokens_per_second"`
}

// dist is a StatusDistributionSummary; errored and incomplete are not read.
type dist struct {
	Successful *summary `json:"successful"`
	Total      *summary `json:"total"`
}

type summary struct {
	Mean     *float64 `json:"mean"`
	Median   *float64 `json:"median"`
	Count    *float64 `json:"count"`
	TotalSum *float64 `json:"total_sum"`
}

type totals struct {
	Successful *float64 `json:"successful"`
	Errored    *float64 `json:"errored"`
}
