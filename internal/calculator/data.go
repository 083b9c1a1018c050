package calculator

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

//go:embed data/gpus.json data/models.json
var dataFiles embed.FS

// GPU is one row of the hardware table (data/gpus.json): one device with
// its memory. TFLOPS are dense (no sparsity) tensor-core peaks; zero means
// not published or not supported.
type GPU struct {
	// ID is the catalog's hardware slug for one such device
	// ("rtx-3060-12gb"); GPU is the catalog's GPU slug ("rtx-3060").
	ID, Name, GPU string
	Aliases       []string
	MemoryGB      float64 `json:"memory_gb"`
	BandwidthGBs  float64 `json:"bandwidth_gbs"`
	// FP16 is 16-bit (BF16/FP16) with FP32 accumulation, FP16Acc16 with
	// 16-bit accumulation (twice as fast on GeForce cards), likewise FP8.
	FP16      float64 `json:"fp16_tflops"`
	FP16Acc16 float64 `json:"fp16_acc16_tflops"`
	FP8       float64 `json:"fp8_tflops"`
	FP8Acc16  float64 `json:"fp8_acc16_tflops"`
	FP4       float64 `json:"fp4_tflops"`
	// FP32 is the non-tensor FP32 rate, the compute bound's last resort.
	FP32    float64 `json:"fp32_tflops"`
	CacheMB float64 `json:"cache_mb"`
	Unified bool    `json:"unified_memory"`
	// BoardPowerW is the most power one board may draw by its maker's
	// figures (a data-centre or workstation part's maximum TDP or board
	// power): a run's cell above it, GPUs counted, is implausible
	// (RunSetup.PowerImplausible). 0 when the table knows none, as for
	// GeForce and Radeon cards: their makers' boards ship with power
	// limits above the reference card's, so its figure is no maximum.
	BoardPowerW float64 `json:"board_power_w"`
	// BoardPowerSource is where BoardPowerW comes from and how sure it
	// is, apart from the row's other figures.
	BoardPowerSource *Source `json:"board_power_source,omitempty"`
	Source
}

// Source is where a row's figures come from and how sure they are:
// "verified" (read in the source), "derived" (computed from verified
// figures) or "guess" (recalled or scaled, not checked); a row is tagged
// with its least certain figure and Note says which.
type Source struct {
	Confidence string
	URL        string `json:"source"`
	Note       string
}

// Model is one row of the model table (data/models.json): a Hugging Face
// id, its architecture as config.json fields, and where those came from.
type Model struct {
	ID, Name string
	Aliases  []string
	Config   json.RawMessage
	Arch     Arch `json:"-"`
	Source
}

// Tables are the hardware and model tables.
type Tables struct {
	GPUs   []GPU
	Models []Model

	// bases maps the catalog's base-model slug of every model row's id and
	// aliases to the first row naming it (ModelByID's fallback), made on
	// first use: a report asks for its model several times per page, and
	// catalog.Model is a few regular expressions per name.
	basesOnce sync.Once
	bases     map[string]int
}

// Data is the embedded tables, read once.
var Data = sync.OnceValues(func() (*Tables, error) {
	t := &Tables{}
	for name, dst := range map[string]any{"data/gpus.json": &t.GPUs, "data/models.json": &t.Models} {
		b, err := dataFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, dst); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for i := range t.Models {
		a, err := ReadConfig(t.Models[i].Config)
		if err != nil {
			return nil, fmt.Errorf("data/models.json %s: %w", t.Models[i].ID, err)
		}
		t.Models[i].Arch = a
	}
	return t, nil
})

// GPUByID is the row whose ID or alias is id (a catalog hardware slug,
// with or without an "Nx-" count prefix).
func (t *Tables) GPUByID(id string) (GPU, bool) {
	id = strings.ToLower(id)
	if n := strings.Index(id, "x-"); n > 0 && strings.Trim(id[:n], "0123456789") == "" {
		id = id[n+2:]
	}
	for _, g := range t.GPUs {
		if g.ID == id || slices.Contains(g.Aliases, id) {
			return g, true
		}
	}
	return GPU{}, false
}

// GPUFor is the row for a run's hardware, found by the catalog's identity
// of it, so every name the catalog understands finds its row.
func (t *Tables) GPUFor(h run.Hardware) (GPU, bool) {
	h.GPUCount = 1
	return t.GPUByID(catalog.Hardware(h).Slug)
}

// ModelByID is the row whose id or alias is id, compared without case;
// failing that, the row of the same base model in the catalog's sense, so
// a quantized copy ("RedHatAI/Qwen3.5-4B-FP8-dynamic") and a model page's
// slug ("qwen3-5-4b") find the architecture they share.
func (t *Tables) ModelByID(id string) (Model, bool) {
	for _, m := range t.Models {
		if strings.EqualFold(m.ID, id) || containsFold(m.Aliases, id) {
			return m, true
		}
	}
	_, want := catalog.Model(id)
	if want.Slug == "" {
		return Model{}, false
	}
	if i, ok := t.baseIndex()[want.Slug]; ok {
		return t.Models[i], true
	}
	return Model{}, false
}

// baseIndex is bases, made once: the tables never change after Data.
func (t *Tables) baseIndex() map[string]int {
	t.basesOnce.Do(func() {
		t.bases = map[string]int{}
		for i, m := range t.Models {
			for _, name := range append([]string{m.ID}, m.Aliases...) {
				if _, base := catalog.Model(name); base.Slug != "" {
					if _, seen := t.bases[base.Slug]; !seen {
						t.bases[base.Slug] = i
					}
				}
			}
		}
	})
	return t.bases
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
