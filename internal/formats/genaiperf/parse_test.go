package genaiperf_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/genaiperf"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

const samples = "../../../testdata/formats/other-tools/"

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(samples + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// only parses data and returns its single derived cell.
func only(t *testing.T, data []byte) (*run.Parsed, run.DecodeCell) {
	t.Helper()
	p, err := genaiperf.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	_, cells := status.Derive(p)
	if len(cells) != 1 {
		t.Fatalf("%d cells, want 1: %+v", len(cells), cells)
	}
	return p, cells[0]
}

func near(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if got == nil || fmt.Sprintf("%.4f", *got) != fmt.Sprintf("%.4f", want) {
		t.Errorf("%s = %s, want %.4f", name, show(got), want)
	}
}

func show(v *float64) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprint(*v)
}

func count(t *testing.T, name string, got *int64, want int64) {
	t.Helper()
	if got == nil || *got != want {
		t.Errorf("%s = %v, want %d", name, got, want)
	}
}

func refused(t *testing.T, data []byte) []problem.Problem {
	t.Helper()
	p, err := genaiperf.Parse(data)
	e, ok := problem.As(err)
	if !ok {
		t.Fatalf("Parse = %+v, %v; want a refusal", p, err)
	}
	return e.Problems
}

// edit rewrites a sample through f.
func edit(t *testing.T, name string, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(read(t, name), &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	b, _ := json.Marshal(doc)
	return b
}

func obj(v any, path ...string) map[string]any {
	m := v.(map[string]any)
	for _, k := range path {
		m = m[k].(map[string]any)
	}
	return m
}

// The real GenAI-Perf export (flat input_config, concurrency 100, Triton
// TRT-LLM): one cell at context 0 (201 tokens measured) × 100.
func TestGenAIPerfSample(t *testing.T) {
	p, c := only(t, read(t, "genai_perf_profile_export.json"))
	if c.Context != 0 || c.MeasuredContext != 201 || c.Concurrency != 100 || c.Status != run.Valid {
		t.Errorf("cell %d(%d)×%d %s", c.Context, c.MeasuredContext, c.Concurrency, c.Status)
	}
	near(t, "total tok/s", c.TotalTPS, 44190.5600)
	near(t, "ttft ms", c.TTFTms, 172.8094)
	near(t, "tbt ms", c.TBTms, 2.1787)
	// output_token_throughput_per_request (444 tok/s) divides by the whole
	// latency, first token included: the speed comes from the ITL instead.
	near(t, "per-request tok/s", c.PerRequestTPS, 1000/2.1787205)
	if c.Completed != nil || c.MeasuredS != nil || c.OutputTokens != nil {
		t.Errorf("completed %v measured %v output %v: the flat export has no counts", c.Completed, c.MeasuredS, c.OutputTokens)
	}
	if p.Format != genaiperf.Format || p.Tool.Name != "GenAI-Perf" || p.Model.ServedName != "ensemble" {
		t.Errorf("format %q tool %+v model %+v", p.Format, p.Tool, p.Model)
	}
	if p.Engine != (run.Engine{Name: "Triton Inference Server", Backend: "tensorrtllm"}) {
		t.Errorf("engine %+v", p.Engine)
	}
}

// Both AIPerf shapes hold the same run: 550-token prompts (bucket 1K),
// concurrency 100, 89 of 100 requests completed, 11 cancelled.
func TestAIPerfSamples(t *testing.T) {
	for name, version := range map[string]string{
		"aiperf_profile_export_aiperf.json":                 "0.8.0",
		"aiperf_profile_export_aiperf_records_variant.json": "",
	} {
		t.Run(name, func(t *testing.T) {
			p, c := only(t, read(t, name))
			if c.Context != 1024 || c.MeasuredContext != 550 || c.Concurrency != 100 || c.Status != run.Valid {
				t.Errorf("cell %d(%d)×%d %s", c.Context, c.MeasuredContext, c.Concurrency, c.Status)
			}
			near(t, "total tok/s", c.TotalTPS, 2320.7222)
			near(t, "ttft ms", c.TTFTms, 2369.3177)
			near(t, "tbt ms", c.TBTms, 27.6151)
			near(t, "per-request tok/s", c.PerRequestTPS, 36.2120)
			near(t, "measured s", c.MeasuredS, 9.3178)
			count(t, "completed", c.Completed, 89)
			// total_osl (reasoning included), which output_token_throughput counts.
			count(t, "output tokens", c.OutputTokens, 21624)
			if p.Format != genaiperf.FormatAIPerf || p.Tool != (run.Tool{Name: "AIPerf", Version: version}) {
				t.Errorf("format %q tool %+v", p.Format, p.Tool)
			}
			if p.Model.ID != "openai/gpt-oss-20b" || p.MeasuredAt != "2025-10-03T13:13:39.146443" {
				t.Errorf("model %+v measured at %q", p.Model, p.MeasuredAt)
			}
		})
	}
}

// Seconds against milliseconds: a block's unit is honoured.
func TestUnits(t *testing.T) {
	data := edit(t, "aiperf_profile_export_aiperf.json", func(doc map[string]any) {
		ttft := obj(doc, "time_to_first_token")
		ttft["unit"], ttft["p50"] = "sec", 2.369317693
	})
	_, c := only(t, data)
	near(t, "ttft ms", c.TTFTms, 2369.3177)

	data = edit(t, "aiperf_profile_export_aiperf.json", func(doc map[string]any) {
		obj(doc, "inter_token_latency")["unit"] = "fortnights"
	})
	if ps := refused(t, data); ps[0].Key != "problem.formats.unit" || ps[0].Path != "$.inter_token_latency.unit" {
		t.Errorf("problems %+v", ps)
	}
}

// GenAI-Perf's nested input_config (from March 2025): stimulus and model_names.
func TestGenAIPerfNestedConfig(t *testing.T) {
	data := edit(t, "genai_perf_profile_export.json", func(doc map[string]any) {
		doc["input_config"] = map[string]any{
			"model_names":   []any{"meta-llama/Llama-3.1-8B-Instruct"},
			"endpoint":      map[string]any{"type": "chat", "service_kind": "openai", "backend": ""},
			"perf_analyzer": map[string]any{"stimulus": map[string]any{"concurrency": 16}},
		}
		doc["request_count"] = map[string]any{"unit": "count", "avg": 400}
		doc["output_token_throughput_per_user"] = map[string]any{"unit": "tokens/sec/user", "avg": 450, "p50": 455.5}
	})
	p, c := only(t, data)
	if c.Concurrency != 16 || p.Model.ID != "meta-llama/Llama-3.1-8B-Instruct" || p.Engine != (run.Engine{}) {
		t.Errorf("concurrency %d model %+v engine %+v", c.Concurrency, p.Model, p.Engine)
	}
	near(t, "per-request tok/s", c.PerRequestTPS, 455.5)
	count(t, "completed", c.Completed, 400)
	count(t, "output tokens", c.OutputTokens, 1026342) // 2565.855 × 400
	near(t, "measured s", c.MeasuredS, 400/17.222547659562533)
}

func TestLoadRefusals(t *testing.T) {
	rate := edit(t, "genai_perf_profile_export.json", func(doc map[string]any) {
		ic := obj(doc, "input_config")
		ic["concurrency"], ic["request_rate"] = nil, 10
	})
	if ps := refused(t, rate); ps[0].Key != "problem.formats.rate_driven" || ps[0].Path != "$.input_config.request_rate" {
		t.Errorf("rate: %+v", ps)
	}
	// AIPerf writes only the options the user set.
	unset := edit(t, "aiperf_profile_export_aiperf.json", func(doc map[string]any) {
		delete(obj(doc, "input_config", "loadgen"), "concurrency")
	})
	if ps := refused(t, unset); ps[0].Key != "problem.formats.no_concurrency" || ps[0].Data["Tool"] != "AIPerf" {
		t.Errorf("unset: %+v", ps)
	}
}

func TestAllFailed(t *testing.T) {
	data := edit(t, "aiperf_profile_export_aiperf.json", func(doc map[string]any) {
		obj(doc, "request_count")["avg"] = 0
		obj(doc, "error_request_count")["avg"] = 100
		doc["was_cancelled"] = true
	})
	p, c := only(t, data)
	if c.Status != run.Failed || !strings.Contains(c.Reason, "all 100 requests failed") {
		t.Errorf("%s (%s)", c.Status, c.Reason)
	}
	if !slices.Equal(p.Notes, []string{genaiperf.NoteCancelled, sweep.NoteTBTIsTPOT}) {
		t.Errorf("notes %v", p.Notes)
	}
}

func TestTelemetryGPU(t *testing.T) {
	data := edit(t, "aiperf_profile_export_aiperf.json", func(doc map[string]any) {
		doc["telemetry_data"] = map[string]any{"endpoints": map[string]any{"localhost:9401": map[string]any{"gpus": map[string]any{
			"gpu_0": map[string]any{"gpu_name": "NVIDIA H100 80GB HBM3"}, "gpu_1": map[string]any{"gpu_name": "NVIDIA H100 80GB HBM3"}}}}}
	})
	p, _ := only(t, data)
	if p.Hardware != (run.Hardware{Type: run.DiscreteGPU, GPUName: "NVIDIA H100 80GB HBM3", GPUCount: 2}) {
		t.Errorf("hardware %+v", p.Hardware)
	}
}

func TestNaNAndNegative(t *testing.T) {
	data := strings.Replace(string(read(t, "genai_perf_profile_export.json")), `"p50": 172.8093975`, `"p50": NaN`, 1)
	if _, c := only(t, []byte(data)); c.TTFTms != nil {
		t.Errorf("NaN ttft read as %v", *c.TTFTms)
	}
	data = strings.Replace(string(read(t, "genai_perf_profile_export.json")), `"avg": 44190.56002502682`, `"avg": -1`, 1)
	if ps := refused(t, []byte(data)); ps[0].Key != "problem.negative" || ps[0].Path != "$.output_token_throughput.avg" {
		t.Errorf("problems %+v", ps)
	}
	if ps := refused(t, []byte(`{"input_config": {"concurrency": 4}, "input_sequence_length": {"avg": 100}, "time_to_first_token": [1]}`)); ps[0].Path != "$.time_to_first_token" {
		t.Errorf("problems %+v", ps)
	}
}

func TestDetect(t *testing.T) {
	for name, want := range map[string]bool{
		"genai_perf_profile_export.json": true, "aiperf_profile_export_aiperf.json": true,
		"aiperf_profile_export_aiperf_records_variant.json": true,
		"guidellm_report.json":                              false, "llmperf_summary.json": false,
	} {
		var top map[string]jsontext.Value
		if err := json.Unmarshal(read(t, name), &top); err != nil {
			t.Fatal(err)
		}
		if got := genaiperf.Detect(top); got != want {
			t.Errorf("Detect(%s) = %v", name, got)
		}
	}
}

// TestNonStreaming: a GenAI-Perf run without --streaming has no
// inter-token latency, and its "time to first token" is the whole request.
// The per-request speed then comes from output_token_throughput_per_request,
// and both caveats are on the page.
func TestNonStreaming(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/regress/genai_perf_non_streaming.json")
	if err != nil {
		t.Fatal(err)
	}
	p, c := only(t, b)
	near(t, "per-request tok/s", c.PerRequestTPS, 444.1575106746062)
	for _, note := range []string{sweep.NotePerRequestIncludesTTFT, genaiperf.NoteTTFTIsLatency} {
		if !slices.Contains(p.Notes, note) {
			t.Errorf("notes %v lack %s", p.Notes, note)
		}
	}
	if c.TBTms != nil {
		t.Errorf("TBT = %v, want none", *c.TBTms)
	}
}
