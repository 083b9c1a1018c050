// Package reporttest builds runs by hand for tests of the report and its
// pages: a small grid with a cell of every status, its numbers taken from
// the seed page so expected strings can be read off it.
package reporttest

import (
	"time"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Run returns a fresh run of 3 contexts × 3 concurrencies and 2 prefill
// rows. Its cells, by (context, concurrency):
//
//	0×1 valid (63.5 tok/s)     0×2 valid (125.0)     0×16 queued (536.8)
//	131072×1 queued (8.3)      131072×2 failed       131072×16 over capacity (KV)
//	253952×1 over capacity     253952×2 not measured 253952×16 over capacity (KV)
//	(ran, no output)           (absent)
func Run() *run.Run {
	r := &run.Run{
		ID:           "k3x9q2",
		Submitter:    "Sandberg",
		Provenance:   run.Measured,
		Tool:         run.Tool{Name: "llm-inference-bench", Version: "0.8.0"},
		SourceFormat: "llm-inference-bench",
		Hardware: run.Hardware{Type: run.DiscreteGPU, GPUName: "RTX 3060", GPUCount: 1, VRAMGB: 12,
			CPUName: "Intel Xeon E5-2680 v4", CPUCores: 14, RAMGB: 32, OS: "Ubuntu 24.04.5"},
		Engine: run.Engine{Name: "vllm", Version: "0.32.0", Quantization: "FP8 dynamic", Backend: "cuda",
			Build: "vllm/vllm-openai:v0.32.0-x86_64", LaunchCommand: "vllm serve RedHatAI/Qwen3.5-4B-FP8-dynamic --max-num-seqs 128"},
		Model: run.Model{ID: "RedHatAI/Qwen3.5-4B-FP8-dynamic", ServedName: "bench", Revision: "main"},
		Settings: run.Settings{DecodeMode: run.DecodeDuration, PrefillMode: run.PrefillIntegrated,
			SecondsPerMeasurement: 30, MaxOutputTokens: 8192, KVBudgetTokens: 286720,
			Contexts: []int{0, 131072, 253952}, Concurrencies: []int{1, 2, 16}, PrefillContexts: []int{8192, 65536}},
		Prefill: []run.PrefillRow{
			{Context: 8192, Status: run.Valid, PromptTPS: run.F(2186), TTFTms: run.F(3727), Completed: run.I(1), Measured: true},
			{Context: 65536, Status: run.Valid, PromptTPS: run.F(875), TTFTms: run.F(73169), Completed: run.I(1), Measured: true},
		},
		UploadedAt:   time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC),
		RulesVersion: "v1",
	}
	r.Decode = []run.DecodeCell{
		measured(0, 1, run.Valid, run.Metrics{TotalTPS: run.F(63.5), PerRequestTPS: run.F(65), TTFTms: run.F(96),
			TBTms: run.F(15.4), AvgActive: run.F(1), Completed: run.I(1), OutputTokens: run.I(1903), MeasuredS: run.F(30)}),
		measured(0, 2, run.Valid, run.Metrics{TotalTPS: run.F(125), PerRequestTPS: run.F(63.2), TTFTms: run.F(181),
			TBTms: run.F(15.8), AvgActive: run.F(2), Completed: run.I(2), OutputTokens: run.I(3750), MeasuredS: run.F(30)}),
		withReason(measured(0, 16, run.Queued, run.Metrics{TotalTPS: run.F(536.8), PerRequestTPS: run.F(40.7), TTFTms: run.F(602),
			TBTms: run.F(24.6), AvgActive: run.F(13), Completed: run.I(13), OutputTokens: run.I(16106), MeasuredS: run.F(30)}),
			run.ReasonQueued, "13.00 of 16 requests ran at once on average"),
		withReason(measured(131072, 1, run.Queued, run.Metrics{TotalTPS: run.F(8.3), PerRequestTPS: run.F(14.9), TTFTms: run.F(13783),
			TBTms: run.F(67.1), AvgActive: run.F(0.8), Completed: run.I(0), OutputTokens: run.I(248), MeasuredS: run.F(29.94)}),
			run.ReasonQueued, "0.80 of 1 requests ran at once on average"),
		withReason(measured(131072, 2, run.Failed, run.Metrics{TotalTPS: run.F(-4), MeasuredS: run.F(12)}),
			run.ReasonSource, "HTTP 500 from server"),
		absent(131072, 16, run.OverCapacity, run.ReasonKVBudget, "needs 2228224 KV tokens (16 × (131072 + 8192)), the server has 286720"),
		withReason(measured(253952, 1, run.OverCapacity, run.Metrics{TotalTPS: run.F(0), AvgActive: run.F(1),
			OutputTokens: run.I(0), MeasuredS: run.F(30)}),
			run.ReasonNoOutput, "ran but produced no output tokens in the measured window"),
		absent(253952, 2, run.NotMeasured, run.ReasonAbsent, "in the declared grid but not in the results"),
		absent(253952, 16, run.OverCapacity, run.ReasonKVBudget, "needs 4194304 KV tokens (16 × (253952 + 8192)), the server has 286720"),
	}
	return r
}

func measured(ctx, conc int, s run.Status, m run.Metrics) run.DecodeCell {
	return run.DecodeCell{Context: ctx, Concurrency: conc, Status: s, Metrics: m, Measured: true}
}

func withReason(c run.DecodeCell, code run.ReasonCode, reason string) run.DecodeCell {
	c.ReasonCode, c.Reason = code, reason
	return c
}

func absent(ctx, conc int, s run.Status, code run.ReasonCode, reason string) run.DecodeCell {
	return run.DecodeCell{Context: ctx, Concurrency: conc, Status: s, ReasonCode: code, Reason: reason}
}
