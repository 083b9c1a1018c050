package lilbench_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/lilbench"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

func parse(t *testing.T, name string) (*run.Parsed, map[string]run.DecodeCell, map[int]run.PrefillRow) {
	t.Helper()
	data, err := os.ReadFile("../../../testdata/formats/lil-bench/" + name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := lilbench.Parse(data)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	prefill, decode := status.Derive(p)
	cells := map[string]run.DecodeCell{}
	for _, c := range decode {
		cells[fmt.Sprintf("%d×%d", c.Context, c.Concurrency)] = c
	}
	rows := map[int]run.PrefillRow{}
	for _, r := range prefill {
		rows[r.Context] = r
	}
	return p, cells, rows
}

func TestTwoGPUExample(t *testing.T) {
	p, cells, prefill := parse(t, "lil_bench_result_2gpu.json")
	want := map[string]struct {
		status run.Status
		code   run.ReasonCode
	}{
		"0×1": {run.Valid, ""}, "0×8": {run.Valid, ""},
		"0×16":      {run.NotMeasured, run.ReasonPlan},  // max-num-seqs 8
		"65536×1":   {run.Valid, ""},                    // measured at the trimmed 63,424
		"65536×8":   {run.OverCapacity, run.ReasonPlan}, // the plan's KV skip
		"65536×16":  {run.NotMeasured, run.ReasonPlan},
		"131072×1":  {run.NotMeasured, run.ReasonPlan}, // max_model_len
		"131072×8":  {run.NotMeasured, run.ReasonPlan},
		"131072×16": {run.NotMeasured, run.ReasonPlan},
	}
	if len(cells) != len(want) {
		t.Errorf("%d cells, want %d: %v", len(cells), len(want), cells)
	}
	for k, w := range want {
		if c := cells[k]; c.Status != w.status || c.ReasonCode != w.code {
			t.Errorf("%s = %s %s %q, want %s %s", k, c.Status, c.ReasonCode, c.Reason, w.status, w.code)
		}
	}
	if c := cells["65536×1"]; c.MeasuredContext != 63424 {
		t.Errorf("64K×1 measured context = %d, want 63424", c.MeasuredContext)
	}
	if r := cells["65536×8"].Reason; r != "needs 523,776 KV tokens, the server has 423,936" {
		t.Errorf("plan reason not kept: %q", r)
	}
	if prefill[32768].Status != run.Valid || prefill[131072].Status != run.NotMeasured {
		t.Errorf("prefill = %+v", prefill)
	}
	hw := p.Hardware
	if hw.GPUCount != 2 || hw.GPUName != "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition" || hw.VRAMGB != 96 ||
		hw.CPUCores != 24 || hw.RAMGB != 251 || hw.Driver != "580.95.05" {
		t.Errorf("hardware = %+v", hw)
	}
	if p.Model.ID != "zai-org/GLM-4.5-Air-FP8" || p.Model.ServedName != "glm-4.5-air" || p.Engine.Version != "0.11.0" {
		t.Errorf("model %+v engine %+v", p.Model, p.Engine)
	}
	if p.DedupeKey != "lil-bench:c41d7a92-58e3-4b0f-a6d2-7f19e3b5c804" || p.Submitter != "kraken-lab" {
		t.Errorf("dedupe %q submitter %q", p.DedupeKey, p.Submitter)
	}
}

func TestOneGPUExample(t *testing.T) {
	// The embedded bench file is a generic run that contradicts the plan; its
	// measurements are kept and the plan's grid is widened to hold them.
	_, cells, prefill := parse(t, "lil_bench_result_1gpu.json")
	want := map[string]run.Status{
		"0×1": run.Valid, "0×8": run.Valid, "0×16": run.Queued,
		"16384×4": run.Valid, "16384×16": run.OverCapacity,
		"65536×1": run.NotMeasured, "131072×16": run.NotMeasured,
	}
	for k, w := range want {
		if c := cells[k]; c.Status != w {
			t.Errorf("%s = %s %q, want %s", k, c.Status, c.Reason, w)
		}
	}
	if r := prefill[32768]; r.Status != run.NotMeasured || r.MeasuredContext != 32703 {
		t.Errorf("32K prefill = %+v, want not measured at trimmed 32703", r)
	}
	if r := prefill[131072]; r.ReasonCode != run.ReasonPlan {
		t.Errorf("128K prefill = %+v, want the plan's skip", r)
	}
}
