package differs

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

const seedCommand = "# KV cache: int4_per_token_head\n" +
	`vllm serve RedHatAI/Qwen3.5-4B-FP8-dynamic --max-model-len 262144 --gpu-memory-utilization 0.94 ` +
	`--max-num-seqs 128 --enable-prefix-caching --trust-remote-code --language-model-only ` +
	`--speculative-config {"method":"mtp","num_speculative_tokens":2} --kv-cache-dtype int4_per_token_head ` +
	`--attention-backend TRITON_ATTN`

// seedPair is the seed-shaped run and a copy whose KV cache is fp8 and
// whose every total tok/s is 1.1× higher.
func seedPair() (this, other *run.Run) {
	this = reporttest.Run()
	this.Engine.LaunchCommand = seedCommand
	other = reporttest.Run()
	other.ID = "other1"
	other.Engine.LaunchCommand = strings.Replace(seedCommand, "--kv-cache-dtype int4_per_token_head", "--kv-cache-dtype fp8", 1)
	for i := range other.Decode {
		if v := other.Decode[i].TotalTPS; v != nil {
			other.Decode[i].TotalTPS = run.F(*v * 1.1)
		}
	}
	return this, other
}

func TestBetweenPutsKVCacheFirstAmongFlags(t *testing.T) {
	this, other := seedPair()
	d := Between(this, other)
	var flagRows []Difference
	for _, x := range d {
		if x.Field == FieldFlag {
			flagRows = append(flagRows, x)
		}
	}
	if len(flagRows) != 1 || flagRows[0].Flag != "kv-cache-dtype" ||
		flagRows[0].This != "int4_per_token_head" || flagRows[0].Other != "fp8" || !flagRows[0].Speed {
		t.Fatalf("flag rows %+v, want the KV-cache flag alone", flagRows)
	}
	if d[0].Field != FieldKVCache || d[0].This != "int4" || d[0].Other != "fp8" {
		t.Errorf("first row %+v, want the KV-cache format (int4 vs fp8)", d[0])
	}
}

func TestBetweenOrdersSpeedFirstAndShowsOneSidedFlags(t *testing.T) {
	this, other := seedPair()
	other.Engine.Version = "0.31.0"
	other.Hardware.Driver = "570.1"
	this.Hardware.Driver = "580.2"
	other.Engine.LaunchCommand += " --host 0.0.0.0 --max-num-seqs=64 -tp 2"
	d := Between(this, other)
	fields := make([]string, len(d))
	for i, x := range d {
		fields[i] = x.Field + ":" + x.Flag
	}
	want := []string{"kv_cache:", "engine:", "tensor_parallel:", "flag:kv-cache-dtype", "flag:tensor-parallel-size",
		"flag:max-num-seqs", "flag:host", "driver:"}
	if !slices.Equal(fields, want) {
		t.Fatalf("rows %v\nwant %v", fields, want)
	}
	host := d[6]
	if host.This != "" || host.Other != "0.0.0.0" || host.Speed {
		t.Errorf("a flag only the other gives: %+v", host)
	}
	if ms := d[5]; ms.This != "64, 128" && ms.This != "128" {
		t.Errorf("max-num-seqs this side %q", ms.This)
	}
}

func TestBetweenSameRunIsEmpty(t *testing.T) {
	this, _ := seedPair()
	if d := Between(this, this); len(d) != 0 {
		t.Errorf("a run differs from itself: %+v", d)
	}
}

func TestCellsAndGap(t *testing.T) {
	this, other := seedPair()
	cells := Cells(this)
	// 0×1 is the single-stream cell, 0×16 (queued, 536.8) the peak.
	if !slices.Equal(cells, []Cell{{0, 1}, {0, 16}}) {
		t.Fatalf("cells %v", cells)
	}
	g, ok := GapAt(this, other, cells[0])
	if !ok || math.Abs(g.Percent()-(1/1.1-1)*100) > 1e-9 {
		t.Errorf("gap at 0×1 %+v (%.2f %%)", g, g.Percent())
	}
	if _, ok := GapAt(this, other, Cell{131072, 2}); ok {
		t.Error("a failed cell has a gap")
	}
}

func TestSetupChangesLeaveTheEngineOut(t *testing.T) {
	older, newer := seedPair()
	older.Engine.Version, newer.Engine.Version = "0.31.0", "0.32.0"
	if d := SetupChanges(older, older); len(d) != 0 {
		t.Errorf("no change: %+v", d)
	}
	older.Hardware.Driver = "570.1"
	d := SetupChanges(older, newer)
	if len(d) != 2 || d[0].Flag != "kv-cache-dtype" || d[0].This != "fp8" || d[0].Other != "int4_per_token_head" ||
		d[1].Field != FieldDriver || d[1].Other != "570.1" {
		t.Errorf("changes %+v", d)
	}
}

func TestGroupLoadsEachRunOnce(t *testing.T) {
	loads := 0
	load := func(id string) (*run.Run, error) {
		loads++
		r := reporttest.Run()
		r.ID = id
		return r, nil
	}
	got, err := Group([]Found{{Cell{0, 1}, "b"}, {Cell{0, 16}, "a"}, {Cell{0, 2}, "b"}}, load)
	if err != nil || loads != 2 || len(got) != 2 || got[0].Run.ID != "b" ||
		!slices.Equal(got[0].Cells, []Cell{{0, 1}, {0, 2}}) || got[1].Run.ID != "a" {
		t.Errorf("groups %+v (%d loads, %v)", got, loads, err)
	}
}
