package sglang

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// engines names the servers bench_serving's --backend can target.
var engines = map[string]string{
	"sglang": "SGLang", "sglang-native": "SGLang", "sglang-oai": "SGLang", "sglang-oai-chat": "SGLang",
	"vllm": "vLLM", "vllm-chat": "vLLM", "lmdeploy": "LMDeploy", "trt": "TensorRT-LLM",
}

// facts reads the setup from the first line: the engine from --backend,
// and, in late versions, the model, version and KV-cache size from
// server_info (the server's /get_server_info answer).
func facts(o *jsondoc.Object, out *run.Parsed) {
	backend := o.String("backend")
	out.Engine.Name = backend
	if name, ok := engines[backend]; ok {
		out.Engine.Name = name
	}
	if strings.HasPrefix(o.String("dataset_name"), "random") {
		if v := o.Count("random_output_len"); v != nil && *v <= 1<<30 {
			out.Settings.MaxOutputTokens = int(*v)
		}
	}
	info := o.Object("server_info")
	if info == nil {
		return
	}
	if path := info.String("model_path"); path != "" {
		out.Model = model(path, info.String("served_model_name"))
	}
	if out.Engine.Name == "SGLang" {
		out.Engine.Version = info.String("version")
	}
	if v := info.Count("max_total_num_tokens"); v != nil {
		out.Settings.KVBudgetTokens = *v
	}
	if v := info.Count("max_running_requests"); v != nil && *v <= 1<<30 {
		out.Settings.MaxRunningRequests = int(*v)
	}
}

// model turns model_path into a model: a Hugging Face id as is, a local
// path by its last segment.
func model(path, served string) run.Model {
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, ".") || strings.Count(path, "/") > 1 {
		path = strings.TrimRight(path, "/")
		return run.Model{ServedName: path[strings.LastIndex(path, "/")+1:]}
	}
	m := run.Model{ServedName: served}
	if strings.Contains(path, "/") {
		m.ID = path
	}
	if m.ServedName == "" {
		m.ServedName = path
	}
	return m
}
