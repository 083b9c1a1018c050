package lilbench

import "github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"

// The lil-bench-result/1 wrapper as far as speedmatrix reads it (the
// lil-bench client writes it; testdata/formats/lil-bench has two). The
// bench file itself is kept as the codec checked it and read by the
// llmbench parser.

type document struct {
	Schema    string    `json:"schema"`
	Profile   string    `json:"profile"`
	RunID     string    `json:"run_id"`
	Status    string    `json:"status"`
	Finished  string    `json:"finished"`
	Client    client    `json:"client"`
	Image     image     `json:"image"`
	Integrity integrity `json:"integrity"`
	Server    server    `json:"server"`
	Hardware  hardware  `json:"hardware"`
	Plan      []plan    `json:"plan"`
	Results   results   `json:"results"`
	// Phases, Telemetry and Summary are read apart (telemetry.go): a
	// run is never refused for the shape of what it measured on the side.
	Phases    jsondoc.Checked `json:"phases"`
	Telemetry jsondoc.Checked `json:"telemetry"`
	Summary   jsondoc.Checked `json:"summary"`
}

type client struct {
	LilBench       string  `json:"lil_bench"`
	LLMDecodeBench *string `json:"llm_decode_bench"`
	Uploader       *string `json:"uploader"`
}

type image struct {
	Alias string `json:"alias"`
}

type integrity struct {
	Status string `json:"status"`
}

type server struct {
	Argv    []string       `json:"argv"`
	Model   string         `json:"model"`
	Options map[string]any `json:"options"`
	Limits  struct {
		ServedModelName *string  `json:"served_model_name"`
		KVTokens        *float64 `json:"kv_tokens"`
	} `json:"limits"`
	API struct {
		ModelID string  `json:"model_id"`
		Root    string  `json:"root"`
		Version *string `json:"version"`
	} `json:"api"`
}

type hardware struct {
	GPUs []struct {
		Name           string   `json:"name"`
		MemoryTotalMiB *float64 `json:"memory_total_mib"`
		UnifiedMemory  bool     `json:"unified_memory"`
		Power          *power   `json:"power"`
	} `json:"gpus"`
	NVMLSystem *struct {
		DriverVersion string `json:"driver_version"`
	} `json:"nvml_system"`
	CPU struct {
		LSCPU map[string]string `json:"lscpu"`
	} `json:"cpu"`
	Memory struct {
		MemTotalMiB *float64 `json:"mem_total_mib"`
	} `json:"memory"`
	Host struct {
		Kernel string `json:"kernel"`
	} `json:"host"`
}

type plan struct {
	Kind             string   `json:"kind"`
	Concurrency      *float64 `json:"concurrency"`
	RequestedContext *float64 `json:"requested_context"`
	Context          *float64 `json:"context"`
	Status           string   `json:"status"`
	Reason           *string  `json:"reason"`
}

type results struct {
	Bench jsondoc.Checked `json:"bench"`
}

// power is a GPU's power limits (NVML), each null when the call failed.
type power struct {
	EnforcedLimitW *float64 `json:"enforced_limit_w"`
	LimitW         *float64 `json:"limit_w"`
	DefaultLimitW  *float64 `json:"default_limit_w"`
	MaxLimitW      *float64 `json:"max_limit_w"`
}
