package catalog_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// gpu is a GPU machine: name as reported, count, VRAM per GPU as the run
// carries it (0 when the upload did not say).
func gpu(name string, count int, vram float64) run.Hardware {
	return run.Hardware{Type: run.DiscreteGPU, GPUName: name, GPUCount: count, VRAMGB: vram}
}

// TestHardware: real spellings from nvidia-smi, rocm-smi and Apple's
// system_profiler, and hand-typed ones, with the VRAM a run would carry.
func TestHardware(t *testing.T) {
	tests := []struct {
		hw         run.Hardware
		slug, name string
	}{
		// nvidia-smi --query-gpu=name,memory.total (MiB → GiB as uploaded)
		{gpu("NVIDIA GeForce RTX 3060", 1, 11.99), "rtx-3060-12gb", "RTX 3060 12GB"},
		{gpu("GeForce RTX 3060 12GB", 1, 0), "rtx-3060-12gb", "RTX 3060 12GB"},
		{gpu("RTX 3060", 1, 12), "rtx-3060-12gb", "RTX 3060 12GB"},
		{gpu("NVIDIA GeForce RTX 3060", 1, 8), "rtx-3060-8gb", "RTX 3060 8GB"},
		{gpu("NVIDIA GeForce RTX 4090", 2, 23.99), "2x-rtx-4090-24gb", "2× RTX 4090 24GB"},
		{gpu("NVIDIA GeForce RTX 4090", 1, 0), "rtx-4090-24gb", "RTX 4090 24GB"},
		{gpu("NVIDIA GeForce RTX 5090", 1, 31.84), "rtx-5090-32gb", "RTX 5090 32GB"},
		{gpu("NVIDIA GeForce RTX 3090", 1, 24), "rtx-3090-24gb", "RTX 3090 24GB"},
		{gpu("NVIDIA GeForce RTX 4060 Ti", 1, 16), "rtx-4060-ti-16gb", "RTX 4060 Ti 16GB"},
		{gpu("NVIDIA GeForce RTX 4070 SUPER", 1, 12), "rtx-4070-super-12gb", "RTX 4070 SUPER 12GB"},
		{gpu("NVIDIA GeForce RTX 4090 Laptop GPU", 1, 16), "rtx-4090-laptop-16gb", "RTX 4090 Laptop 16GB"},
		{gpu("NVIDIA GeForce GTX 1080 Ti", 1, 11), "gtx-1080-ti-11gb", "GTX 1080 Ti 11GB"},
		{gpu("NVIDIA H100 80GB HBM3", 8, 79.65), "8x-h100-sxm-80gb", "8× H100 SXM 80GB"},
		{gpu("NVIDIA H100 PCIe", 1, 79.65), "h100-pcie-80gb", "H100 PCIe 80GB"},
		{gpu("NVIDIA H100 NVL", 2, 93.58), "2x-h100-nvl-94gb", "2× H100 NVL 94GB"},
		{gpu("NVIDIA H200", 1, 140.4), "h200-141gb", "H200 141GB"},
		{gpu("NVIDIA A100-SXM4-80GB", 4, 0), "4x-a100-sxm-80gb", "4× A100 SXM 80GB"},
		{gpu("NVIDIA A100-PCIE-40GB", 1, 39.4), "a100-pcie-40gb", "A100 PCIe 40GB"},
		{gpu("NVIDIA A100 80GB PCIe", 1, 79.2), "a100-pcie-80gb", "A100 PCIe 80GB"},
		{gpu("Tesla V100-SXM2-32GB", 1, 0), "v100-sxm-32gb", "V100 SXM 32GB"},
		{gpu("Tesla T4", 1, 15), "t4-16gb", "T4 16GB"},
		{gpu("NVIDIA A10G", 1, 22.5), "a10g-24gb", "A10G 24GB"},
		{gpu("NVIDIA L4", 1, 22.5), "l4-24gb", "L4 24GB"},
		{gpu("NVIDIA L40S", 1, 44.99), "l40s-48gb", "L40S 48GB"},
		{gpu("NVIDIA RTX A6000", 1, 47.99), "rtx-a6000-48gb", "RTX A6000 48GB"},
		{gpu("NVIDIA RTX 6000 Ada Generation", 1, 47.99), "rtx-6000-ada-48gb", "RTX 6000 Ada 48GB"},
		{gpu("Quadro RTX 8000", 1, 48), "quadro-rtx-8000-48gb", "Quadro RTX 8000 48GB"},
		{gpu("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 2, 95.59), "2x-rtx-pro-6000-blackwell-max-q-96gb", "2× RTX PRO 6000 Blackwell Max-Q 96GB"},
		{gpu("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", 1, 0), "rtx-pro-6000-blackwell-96gb", "RTX PRO 6000 Blackwell 96GB"},
		{gpu("NVIDIA RTX PRO 6000 Blackwell Server Edition", 1, 95.59), "rtx-pro-6000-blackwell-server-96gb", "RTX PRO 6000 Blackwell Server 96GB"},
		{gpu("NVIDIA GB10", 1, 0), "gb10-128gb", "GB10 128GB"},
		{gpu("NVIDIA GH200 480GB", 1, 95.6), "gh200-96gb", "GH200 96GB"},
		{gpu("NVIDIA B200", 8, 179.06), "8x-b200-180gb", "8× B200 180GB"},
		// rocm-smi --showproductname
		{gpu("AMD Instinct MI300X", 8, 191.98), "8x-instinct-mi300x-192gb", "8× Instinct MI300X 192GB"},
		{gpu("AMD Instinct MI300X OAM", 1, 0), "instinct-mi300x-192gb", "Instinct MI300X 192GB"},
		{gpu("Radeon RX 7900 XTX", 1, 23.98), "rx-7900-xtx-24gb", "RX 7900 XTX 24GB"},
		{gpu("AMD Radeon RX 7900 XTX", 1, 0), "rx-7900-xtx-24gb", "RX 7900 XTX 24GB"},
		{gpu("AMD Radeon Pro W7900", 1, 45), "radeon-pro-w7900-48gb", "Radeon Pro W7900 48GB"},
		{gpu("Intel(R) Arc(TM) A770 Graphics", 1, 16), "arc-a770-16gb", "Arc A770 16GB"},
		// system_profiler SPHardwareDataType ("Chip: Apple M2 Ultra")
		{run.Hardware{Type: run.UnifiedMemory, GPUName: "Apple M2 Ultra", RAMGB: 192}, "apple-m2-ultra-192gb", "Apple M2 Ultra 192GB"},
		{run.Hardware{Type: run.UnifiedMemory, CPUName: "Apple M3 Max", RAMGB: 128}, "apple-m3-max-128gb", "Apple M3 Max 128GB"},
		{run.Hardware{Type: run.UnifiedMemory, GPUName: "Apple M4 Pro", VRAMGB: 48}, "apple-m4-pro-48gb", "Apple M4 Pro 48GB"},
		// hand-typed
		{gpu("rtx3060", 1, 12), "rtx-3060-12gb", "RTX 3060 12GB"},
		{gpu("3090", 2, 0), "2x-rtx-3090-24gb", "2× RTX 3090 24GB"},
		{gpu("4090 24gb", 1, 0), "rtx-4090-24gb", "RTX 4090 24GB"},
		{gpu("h100 sxm", 1, 0), "h100-sxm-80gb", "H100 SXM 80GB"},
		{gpu("rx7900xtx", 1, 24), "rx-7900-xtx-24gb", "RX 7900 XTX 24GB"},
		{gpu("3060ti", 1, 8), "rtx-3060-ti-8gb", "RTX 3060 Ti 8GB"},
		{gpu("mi300x", 1, 192), "instinct-mi300x-192gb", "Instinct MI300X 192GB"},
		// CPU only (lscpu "Model name")
		{run.Hardware{Type: run.CPUOnly, CPUName: "AMD EPYC 9654 96-Core Processor", CPUCores: 96}, "cpu-amd-epyc-9654", "AMD EPYC 9654"},
		{run.Hardware{Type: run.CPUOnly, CPUName: "Intel(R) Xeon(R) Platinum 8480+"}, "cpu-intel-xeon-platinum-8480", "Intel Xeon Platinum 8480+"},
		{run.Hardware{CPUName: "Intel(R) Core(TM) i9-14900K CPU @ 3.20GHz"}, "cpu-intel-core-i9-14900k", "Intel Core i9-14900K"},
		// unknown names are accepted, with a slug of their own
		{gpu("Moore Threads MTT S4000", 1, 48), "moore-threads-mtt-s4000-48gb", "Moore Threads MTT S4000 48GB"},
		{gpu("NVIDIA TITAN RTX", 1, 24), "titan-rtx-24gb", "NVIDIA TITAN RTX 24GB"},
		{run.Hardware{}, "", ""},
	}
	for _, tt := range tests {
		got := catalog.Hardware(tt.hw)
		if got.Slug != tt.slug || got.Name != tt.name {
			t.Errorf("Hardware(%q ×%d, %v GB) = %q, %q; want %q, %q",
				tt.hw.GPUName+tt.hw.CPUName, tt.hw.GPUCount, tt.hw.VRAMGB, got.Slug, got.Name, tt.slug, tt.name)
		}
	}
}

func TestEngine(t *testing.T) {
	tests := map[string]catalog.Identity{
		"vllm": {Slug: "vllm", Name: "vLLM"}, "vLLM": {Slug: "vllm", Name: "vLLM"},
		"SGLang": {Slug: "sglang", Name: "SGLang"}, "llama.cpp": {Slug: "llama-cpp", Name: "llama.cpp"},
		"llama-server": {Slug: "llama-cpp", Name: "llama.cpp"}, "LlamaCpp": {Slug: "llama-cpp", Name: "llama.cpp"},
		"TensorRT-LLM": {Slug: "tensorrt-llm", Name: "TensorRT-LLM"}, "trtllm": {Slug: "tensorrt-llm", Name: "TensorRT-LLM"},
		"mlx_lm": {Slug: "mlx-lm", Name: "MLX LM"}, " My Engine ": {Slug: "my-engine", Name: "My Engine"}, "": {},
	}
	for in, want := range tests {
		if got := catalog.Engine(in); got != want {
			t.Errorf("Engine(%q) = %+v, want %+v", in, got, want)
		}
	}
}

func TestModel(t *testing.T) {
	tests := []struct{ id, slug, base, baseName string }{
		{"RedHatAI/Qwen3.5-4B-FP8-dynamic", "redhatai-qwen3-5-4b-fp8-dynamic", "qwen3-5-4b", "Qwen3.5-4B"},
		{"Qwen/Qwen3.5-4B", "qwen-qwen3-5-4b", "qwen3-5-4b", "Qwen3.5-4B"},
		{"Qwen/Qwen3-30B-A3B-GPTQ-Int4", "qwen-qwen3-30b-a3b-gptq-int4", "qwen3-30b-a3b", "Qwen3-30B-A3B"},
		{"casperhansen/llama-3.3-70b-instruct-awq", "casperhansen-llama-3-3-70b-instruct-awq", "llama-3-3-70b-instruct", "llama-3.3-70b-instruct"},
		{"unsloth/Qwen3-4B-Instruct-2507-GGUF", "unsloth-qwen3-4b-instruct-2507-gguf", "qwen3-4b-instruct-2507", "Qwen3-4B-Instruct-2507"},
		{"Qwen3-4B-Q4_K_M.gguf", "qwen3-4b-q4-k-m-gguf", "qwen3-4b", "Qwen3-4B"},
		{"nvidia/Llama-3.1-8B-Instruct-FP4", "nvidia-llama-3-1-8b-instruct-fp4", "llama-3-1-8b-instruct", "Llama-3.1-8B-Instruct"},
		{"neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w4a16", "neuralmagic-meta-llama-3-1-8b-instruct-quantized-w4a16", "meta-llama-3-1-8b-instruct", "Meta-Llama-3.1-8B-Instruct"},
		{"mlx-community/Qwen3-8B-4bit", "mlx-community-qwen3-8b-4bit", "qwen3-8b", "Qwen3-8B"},
		{"openai/gpt-oss-120b", "openai-gpt-oss-120b", "gpt-oss-120b", "gpt-oss-120b"},
		{"FP8", "fp8", "fp8", "FP8"},
	}
	for _, tt := range tests {
		m, b := catalog.Model(tt.id)
		if m.Slug != tt.slug || m.Name != tt.id || b.Slug != tt.base || b.Name != tt.baseName {
			t.Errorf("Model(%q) = %+v, %+v; want %q, %q (%q)", tt.id, m, b, tt.slug, tt.base, tt.baseName)
		}
	}
}

func TestSubmitter(t *testing.T) {
	for in, want := range map[string]string{"Sandberg ✓": "sandberg", "田中 太郎": "田中-太郎", "  @Some_One ": "some-one", "": ""} {
		if got := catalog.Submitter(in).Slug; got != want {
			t.Errorf("Submitter(%q).Slug = %q, want %q", in, got, want)
		}
	}
}
