package vllmserve

import (
	"fmt"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// failure marks a run in which nothing completed and requests failed; the
// first error text the file kept (--save-detailed, legacy) goes with it.
// The legacy script writes no "failed": its errors list counts them.
func failure(o *jsondoc.Object, m *run.Measurement) {
	failed := int64(0)
	if f := o.Count("failed"); f != nil {
		failed = *f
	}
	first := ""
	var errs []any
	_ = jsondoc.Unmarshal(o.Fields()["errors"], &errs)
	for _, e := range errs {
		if s, ok := e.(string); ok && s != "" {
			if first == "" {
				first = s
			}
			if !o.Has("failed") {
				failed++
			}
		}
	}
	if m.Completed == nil || *m.Completed > 0 || failed == 0 {
		return
	}
	m.Failed = true
	m.FailureReason = fmt.Sprintf("no request completed; %d failed", failed)
	if first != "" {
		m.FailureReason += ": " + clip(first, 300)
	}
}

func clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// facts reads what the first run says of the setup. vLLM writes no hardware
// or engine version: only --metadata KEY=VALUE pairs can carry them, so the
// usual names are read from there.
func facts(o *jsondoc.Object, out *run.Parsed) {
	out.Model = model(o.String("model_id"))
	out.MeasuredAt = when(o.String("date"))
	if n := o.Count("num_prompts"); n != nil && *n <= 1<<30 {
		out.Settings.DecodeMode = run.DecodeRequestCount
		out.Settings.RequestCount = int(*n)
	}
	if o.String("backend") == "vllm" {
		out.Engine.Name = "vLLM"
	}
	first := func(keys ...string) string {
		for _, k := range keys {
			if v := o.String(k); v != "" {
				return v
			}
		}
		return ""
	}
	out.Engine.Version = first("vllm_version", "engine_version")
	out.Engine.Quantization = first("quantization")
	if gpu := first("gpu", "gpu_name"); gpu != "" {
		out.Hardware.GPUName = gpu
		out.Hardware.Type = run.DiscreteGPU
	}
}

// model turns model_id into a model: a Hugging Face id ("org/name") as is,
// a local path by its last segment (the directory name of the model).
func model(id string) run.Model {
	if id == "" {
		return run.Model{}
	}
	if strings.HasPrefix(id, "/") || strings.HasPrefix(id, ".") || strings.HasPrefix(id, "~") || strings.Count(id, "/") > 1 {
		id = strings.TrimRight(id, "/")
		return run.Model{ServedName: id[strings.LastIndex(id, "/")+1:]}
	}
	if strings.Contains(id, "/") {
		return run.Model{ID: id, ServedName: id}
	}
	return run.Model{ServedName: id}
}

// when rewrites vLLM's local "20260722-041843" as "2026-07-22 04:18:43";
// anything else is kept as written.
func when(date string) string {
	t, err := time.Parse("20060102-150405", date)
	if err != nil {
		return date
	}
	return t.Format("2006-01-02 15:04:05")
}
