package demo

import (
	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// gpu is one kind of accelerator the generator puts runs on. Its memory,
// bandwidth and tensor rate are the decode calculator's figures
// (internal/calculator's table), kept in one place.
type gpu struct {
	// ID is the calculator's row id.
	ID   string
	Name string
	Type run.HardwareType
	// VRAMGB is per device; BW is memory bandwidth in GB/s; TFLOPS is the
	// dense 16-bit tensor rate, for the compute bound and prefill.
	VRAMGB, BW, TFLOPS float64
	// Counts are the device counts runs use (tensor parallel).
	Counts []int
	// Engines are the engines that run on it.
	Engines []string
	CPU     string
	OS      string
	// Eff is the share of peak bandwidth a tuned stack reaches on it.
	Eff float64
}

// machine is a gpu as the demo lists it: the calculator's row id in place
// of the figures that row holds.
type machine struct {
	ID, Name string
	Type     run.HardwareType
	Counts   []int
	Engines  []string
	CPU, OS  string
	Eff      float64
}

var cuda = []string{"vllm", "sglang", "llama.cpp"}

// gpus spans consumer, workstation and datacenter NVIDIA parts, AMD, Apple
// silicon and other unified-memory machines.
var gpus = withFigures([]machine{
	{"rtx-3060-12gb", "RTX 3060", run.DiscreteGPU, []int{1, 2}, cuda, "AMD Ryzen 5 5600X", "Ubuntu 24.04", 0.70},
	{"rtx-3090-24gb", "RTX 3090", run.DiscreteGPU, []int{1, 2, 4}, cuda, "AMD Ryzen 9 5950X", "Ubuntu 22.04", 0.72},
	{"rtx-4060-ti-16gb", "RTX 4060 Ti", run.DiscreteGPU, []int{1, 2}, cuda, "Intel Core i5-13600K", "Windows 11 (WSL2)", 0.68},
	{"rtx-4090-24gb", "RTX 4090", run.DiscreteGPU, []int{1, 2, 4}, cuda, "AMD Ryzen 9 7950X", "Ubuntu 24.04", 0.74},
	{"rtx-5090-32gb", "RTX 5090", run.DiscreteGPU, []int{1, 2}, cuda, "AMD Ryzen 9 9950X", "Ubuntu 24.04", 0.72},
	{"rtx-a6000-48gb", "RTX A6000", run.DiscreteGPU, []int{1, 2, 4}, cuda, "AMD Threadripper PRO 5975WX", "Ubuntu 22.04", 0.72},
	{"rtx-pro-6000-blackwell-96gb", "RTX PRO 6000 Blackwell", run.DiscreteGPU, []int{1, 2, 4}, cuda, "AMD Threadripper PRO 7985WX", "Ubuntu 24.04", 0.74},
	{"a100-80gb", "A100 80GB", run.DiscreteGPU, []int{1, 2, 4, 8}, cuda, "AMD EPYC 7763", "Ubuntu 22.04", 0.78},
	{"h100-sxm-80gb", "H100 SXM", run.DiscreteGPU, []int{1, 2, 4, 8}, cuda, "Intel Xeon Platinum 8480+", "Ubuntu 22.04", 0.80},
	{"h200-141gb", "H200", run.DiscreteGPU, []int{1, 2, 4, 8}, cuda, "Intel Xeon Platinum 8480+", "Ubuntu 24.04", 0.80},
	{"instinct-mi300x-192gb", "Instinct MI300X", run.DiscreteGPU, []int{1, 2, 8}, []string{"vllm", "sglang"}, "AMD EPYC 9654", "Ubuntu 22.04", 0.62},
	{"rx-7900-xtx-24gb", "Radeon RX 7900 XTX", run.DiscreteGPU, []int{1, 2}, []string{"vllm", "llama.cpp"}, "AMD Ryzen 7 7800X3D", "Ubuntu 24.04", 0.60},
	{"apple-m2-ultra-192gb", "Apple M2 Ultra", run.UnifiedMemory, []int{1}, []string{"llama.cpp"}, "Apple M2 Ultra", "macOS 15.5", 0.60},
	{"apple-m4-max-128gb", "Apple M4 Max", run.UnifiedMemory, []int{1}, []string{"llama.cpp"}, "Apple M4 Max", "macOS 15.5", 0.62},
	{"gb10-128gb", "DGX Spark GB10", run.UnifiedMemory, []int{1}, []string{"vllm", "sglang", "llama.cpp"}, "NVIDIA Grace (20 cores)", "DGX OS 7", 0.65},
	{"ryzen-ai-max-395-128gb", "Ryzen AI Max+ 395", run.UnifiedMemory, []int{1}, []string{"llama.cpp"}, "AMD Ryzen AI Max+ 395", "Fedora 42", 0.58},
})

// withFigures fills each machine's figures from the calculator's table; a
// machine without a row is a programming error the tests catch at once.
func withFigures(ms []machine) []gpu {
	t, err := calculator.Data()
	if err != nil {
		panic(err)
	}
	out := make([]gpu, len(ms))
	for i, m := range ms {
		row, ok := t.GPUByID(m.ID)
		if !ok {
			panic("demo: no calculator row " + m.ID)
		}
		out[i] = gpu{ID: m.ID, Name: m.Name, Type: m.Type, VRAMGB: row.MemoryGB, BW: row.BandwidthGBs, TFLOPS: row.TFLOPS16(),
			Counts: m.Counts, Engines: m.Engines, CPU: m.CPU, OS: m.OS, Eff: m.Eff}
	}
	return out
}

// model is one base model. Sizes are in billions of parameters; KVKiB is
// the 16-bit KV cache per token (2 × layers × KV heads × head dimension
// × 2 bytes).
type model struct {
	ID, Short     string
	Total, Active float64
	KVKiB         float64
	MoE           bool
	// MaxContext is the longest context the model serves.
	MaxContext int
}

var models = []model{
	{"meta-llama/Llama-3.1-8B-Instruct", "Llama-3.1-8B-Instruct", 8.0, 8.0, 128, false, 131072},
	{"meta-llama/Llama-3.3-70B-Instruct", "Llama-3.3-70B-Instruct", 70.6, 70.6, 320, false, 131072},
	{"Qwen/Qwen3-8B", "Qwen3-8B", 8.2, 8.2, 144, false, 131072},
	{"Qwen/Qwen3-32B", "Qwen3-32B", 32.8, 32.8, 256, false, 131072},
	{"Qwen/Qwen3-30B-A3B", "Qwen3-30B-A3B", 30.5, 3.3, 96, true, 131072},
	{"Qwen/Qwen3-235B-A22B", "Qwen3-235B-A22B", 235, 22, 188, true, 131072},
	{"openai/gpt-oss-20b", "gpt-oss-20b", 21, 3.6, 24, true, 131072},
	{"openai/gpt-oss-120b", "gpt-oss-120b", 117, 5.1, 36, true, 131072},
	{"mistralai/Mistral-Small-3.2-24B-Instruct-2506", "Mistral-Small-3.2-24B-Instruct-2506", 24, 24, 160, false, 131072},
	{"google/gemma-3-27b-it", "gemma-3-27b-it", 27.4, 27.4, 80, false, 131072},
	{"zai-org/GLM-4.5-Air", "GLM-4.5-Air", 106, 12, 184, true, 131072},
}

// quant is a weight format: what the engine line says, how the model id
// is suffixed, and the bytes one parameter takes.
type quant struct {
	Name, Suffix string
	Bytes        float64
}

// quants lists the formats each engine serves.
var quants = map[string][]quant{
	"vllm":      {{"BF16", "", 2}, {"FP8 dynamic", "-FP8-dynamic", 1.02}, {"AWQ INT4", "-AWQ", 0.56}, {"GPTQ INT4", "-GPTQ-Int4", 0.56}},
	"sglang":    {{"BF16", "", 2}, {"FP8", "-FP8", 1.02}, {"AWQ INT4", "-AWQ", 0.56}},
	"llama.cpp": {{"Q4_K_M", "-GGUF", 0.58}, {"Q8_0", "-GGUF", 1.06}, {"Q6_K", "-GGUF", 0.82}, {"F16", "-GGUF", 2}},
}

// engineVersions are recent releases, newest last.
var engineVersions = map[string][]string{
	"vllm":      {"0.10.1", "0.11.0", "0.12.0", "0.32.0"},
	"sglang":    {"0.4.10", "0.5.2", "0.5.4"},
	"llama.cpp": {"b6123", "b6502", "b6890"},
}

// engineEff scales bandwidth efficiency per engine.
var engineEff = map[string]float64{"vllm": 1.0, "sglang": 1.04, "llama.cpp": 0.88}

// submitters are the handles demo runs are filed under.
var submitters = []string{"demo-ada", "demo-grace", "demo-linus", "demo-ken", "demo-barbara", "demo-edsger", "demo-margaret", "demo-dennis"}

// Hardware is the machines demo runs are put on, one device each, so other
// packages can check they know every one.
func Hardware() []run.Hardware {
	out := make([]run.Hardware, len(gpus))
	for i, g := range gpus {
		out[i] = run.Hardware{Type: g.Type, GPUName: g.Name, GPUCount: 1, VRAMGB: g.VRAMGB}
	}
	return out
}
