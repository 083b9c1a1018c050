package calculator

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func tables(t *testing.T) *Tables {
	t.Helper()
	d, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func checkSource(t *testing.T, id string, s Source) {
	t.Helper()
	switch s.Confidence {
	case "verified", "derived", "guess":
	default:
		t.Errorf("%s: confidence %q, want verified, derived or guess", id, s.Confidence)
	}
	if u, err := url.Parse(s.URL); err != nil || u.Scheme != "https" || u.Host == "" {
		t.Errorf("%s: source %q is not an https URL", id, s.URL)
	}
}

// Every row has a source and figures in plausible units: GB/s not TB/s,
// GB not bytes, dense TFLOPS in the order a real part has.
func TestGPUTableUnitsAndSources(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range tables(t).GPUs {
		checkSource(t, g.ID, g.Source)
		if seen[g.ID] {
			t.Errorf("%s: listed twice", g.ID)
		}
		seen[g.ID] = true
		if want := g.GPU + "-" + strconv.Itoa(int(g.MemoryGB)) + "gb"; g.ID != want {
			t.Errorf("%s: id is not the catalog slug %s", g.ID, want)
		}
		if g.BandwidthGBs < 100 || g.BandwidthGBs > 20000 {
			t.Errorf("%s: bandwidth %v GB/s out of range", g.ID, g.BandwidthGBs)
		}
		if g.MemoryGB < 4 || g.MemoryGB > 512 {
			t.Errorf("%s: memory %v GB out of range", g.ID, g.MemoryGB)
		}
		for _, v := range []float64{g.FP16, g.FP16Acc16, g.FP8, g.FP8Acc16, g.FP4, g.FP32} {
			if v < 0 || v > 20000 {
				t.Errorf("%s: %v TFLOPS out of range", g.ID, v)
			}
		}
		if g.FP16 > g.FP16Acc16 && g.FP16Acc16 > 0 || g.FP8 > 0 && g.FP8 < g.FP16 {
			t.Errorf("%s: FP32-accumulate rate above the 16-bit one, or FP8 below 16-bit", g.ID)
		}
		if g.FP16+g.FP16Acc16+g.FP8+g.FP4+g.FP32 == 0 {
			t.Errorf("%s: no compute rate at all", g.ID)
		}
		// A board power is a board's watts, with a source of its own.
		switch {
		case g.BoardPowerW == 0 && g.BoardPowerSource != nil:
			t.Errorf("%s: a board power source without a board power", g.ID)
		case g.BoardPowerW != 0 && g.BoardPowerSource == nil:
			t.Errorf("%s: board power %v W without a source", g.ID, g.BoardPowerW)
		case g.BoardPowerW != 0:
			checkSource(t, g.ID+" board power", *g.BoardPowerSource)
			if g.BoardPowerW < 50 || g.BoardPowerW > 1500 {
				t.Errorf("%s: board power %v W out of range", g.ID, g.BoardPowerW)
			}
		}
	}
}

// Every GPU the catalog knows a usual memory for has a row, found the way
// a run's hardware finds it (the demo's machines: TestDemoHardwareHasRows).
func TestGPUTableCoversCatalog(t *testing.T) {
	d := tables(t)
	for slug, gb := range catalog.UsualVRAM() {
		id := catalog.Hardware(run.Hardware{GPUName: slug, VRAMGB: float64(gb)}).Slug
		if _, ok := d.GPUByID(id); !ok {
			t.Errorf("catalog GPU %s (%d GB): no row %s", slug, gb, id)
		}
	}
	if g, ok := d.GPUFor(run.Hardware{GPUName: "NVIDIA GeForce RTX 3060", GPUCount: 2}); !ok || g.ID != "rtx-3060-12gb" {
		t.Errorf("nvidia-smi's RTX 3060 found %q, want rtx-3060-12gb", g.ID)
	}
	if g, ok := d.GPUByID("2x-h100-sxm-80gb"); !ok || g.BandwidthGBs != 3350 {
		t.Errorf("a two-GPU slug found %+v", g)
	}
}

// Every model in the table reads, has a source, and is a size real models
// have; its aliases do not collide.
func TestModelTable(t *testing.T) {
	d := tables(t)
	names := map[string]string{}
	for _, m := range d.Models {
		checkSource(t, m.ID, m.Source)
		for _, n := range append([]string{m.ID}, m.Aliases...) {
			if other, ok := names[n]; ok {
				t.Errorf("%s is both %s and %s", n, other, m.ID)
			}
			names[n] = m.ID
		}
		if b := m.Arch.Count().Total() / 1e9; b < 0.5 || b > 2000 {
			t.Errorf("%s: %v B parameters", m.ID, b)
		}
		if got, ok := d.ModelByID(m.ID); !ok || got.ID != m.ID {
			t.Errorf("%s: not found by its id", m.ID)
		}
	}
}

// A run's model id finds its architecture through the catalog's base
// model: a quantized copy, a model page's slug, an instruct alias.
func TestModelByRunID(t *testing.T) {
	d := tables(t)
	for id, want := range map[string]string{
		"RedHatAI/Qwen3.5-4B-FP8-dynamic": "Qwen/Qwen3.5-4B", "qwen3-5-4b": "Qwen/Qwen3.5-4B",
		"meta-llama/Llama-3.1-8B-Instruct": "meta-llama/Llama-3.1-8B", "unsloth/gpt-oss-20b-GGUF": "openai/gpt-oss-20b",
	} {
		if m, ok := d.ModelByID(id); !ok || m.ID != want {
			t.Errorf("%s found %q, want %s", id, m.ID, want)
		}
	}
	if m, ok := d.ModelByID("Qwen/Qwen3-4B"); ok {
		t.Errorf("Qwen3-4B found %s; it is not in the table", m.ID)
	}
}
