package catalog

import (
	"maps"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/memo"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Hardware is the identity of a machine: GPU model × count × VRAM per GPU
// ("rtx-3060-12gb", "2x-rtx-4090-24gb"), Apple silicon with its unified
// memory ("apple-m3-max-128gb"), or the CPU of a CPU-only machine
// ("cpu-amd-epyc-9654").
//
// The VRAM is the run's (rounded to the sizes cards are sold with), else
// the one the name states ("H100 80GB HBM3"), else the model's usual size
// when it has only one. So the 8GB and 12GB RTX 3060 are two hardware
// pages, told apart by what the run measured.
func Hardware(h run.Hardware) Identity {
	if id, ok := hardwareSeen.Get(h); ok {
		return id
	}
	id := hardware(h)
	hardwareSeen.Put(h, id)
	return id
}

// hardwareSeen are the identities Hardware has made.
var hardwareSeen memo.Map[run.Hardware, Identity]

// hardware is Hardware, made.
func hardware(h run.Hardware) Identity {
	gpu, cpu := strings.TrimSpace(h.GPUName), strings.TrimSpace(h.CPUName)
	if m := appleChip.FindStringSubmatch(strings.ToLower(gpu + " " + cpu)); m != nil {
		return apple(m, h)
	}
	if gpu == "" || h.Type == run.CPUOnly {
		if cpu == "" {
			return Identity{}
		}
		name := cpuName(cpu)
		return Identity{Slug: "cpu-" + Slugify(name), Name: name}
	}
	g, nameGB := GPU(gpu)
	gb := standardGB(h.VRAMGB)
	if gb == 0 {
		gb = nameGB
	}
	if gb == 0 {
		gb = usualVRAM[g.Slug]
	}
	id := g
	if gb > 0 {
		id = Identity{Slug: g.Slug + "-" + strconv.Itoa(gb) + "gb", Name: g.Name + " " + strconv.Itoa(gb) + "GB"}
	}
	if h.GPUCount > 1 {
		n := strconv.Itoa(h.GPUCount)
		id = Identity{Slug: n + "x-" + id.Slug, Name: n + "× " + id.Name}
	}
	return id
}

var appleChip = regexp.MustCompile(`\bapple (m\d+)(?: (pro|max|ultra))?\b`)

func apple(m []string, h run.Hardware) Identity {
	name := "Apple " + strings.ToUpper(m[1])
	if m[2] != "" {
		name += " " + strings.ToUpper(m[2][:1]) + m[2][1:]
	}
	mem := h.RAMGB
	if mem == 0 {
		mem = h.VRAMGB
	}
	if gb := standardGB(mem); gb > 0 {
		name += " " + strconv.Itoa(gb) + "GB"
	}
	return Identity{Slug: Slugify(name), Name: name}
}

// cpuNoise is what CPU names carry beside the model: marks, "Processor",
// "96-Core", the clock, the integrated graphics.
var cpuNoise = regexp.MustCompile(`(?i)\((r|tm)\)|\b\d+-core\b|\bprocessor\b|\bcpu\b|@.*$|\bwith radeon.*$|\bw/ radeon.*$`)

func cpuName(s string) string {
	return strings.Join(strings.Fields(cpuNoise.ReplaceAllString(s, " ")), " ")
}

// GPU is the identity of a GPU model without count or memory, and the
// memory the name states (0 when it states none): "NVIDIA GeForce RTX 3060"
// → "RTX 3060"; "NVIDIA A100-SXM4-80GB" → "A100 SXM", 80.
func GPU(name string) (Identity, int) {
	s := strings.ToLower(name)
	s = marks.ReplaceAllString(s, " ")
	s = separators.ReplaceAllString(s, " ")
	gb := 0
	if m := memInName.FindStringSubmatch(s); m != nil {
		gb, _ = strconv.Atoi(m[1])
		s = memInName.ReplaceAllString(s, " ")
	}
	hbm3 := strings.Contains(s, "hbm3")
	s = noise.ReplaceAllString(s, " ")
	s = glued.ReplaceAllString(s, "$1 $2")
	s = gluedSuffix.ReplaceAllString(s, "$1 $2")
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range gpuPatterns {
		if m := p.re.FindStringSubmatch(s); m != nil {
			display := p.name(m, hbm3)
			return Identity{Slug: Slugify(display), Name: display}, gb
		}
	}
	if s == "" {
		s = strings.ToLower(name)
	}
	return Identity{Slug: Slugify(s), Name: strings.TrimSpace(name)}, gb
}

var (
	marks      = regexp.MustCompile(`\((r|tm)\)`)
	separators = regexp.MustCompile(`[-_/,]+`)
	memInName  = regexp.MustCompile(`\b(\d{1,3}) ?gb\b`)
	// noise is vendor and packaging words that do not tell models apart.
	noise = regexp.MustCompile(`\b(nvidia|geforce|tesla|amd|ati|intel|graphics|gpu|hbm\w*|oam|workstation edition|dual slot|edition)\b`)
	// glued splits hand-typed "rtx3060" into "rtx 3060".
	glued = regexp.MustCompile(`\b(rtx|gtx|rx|arc)(\d)`)
	// gluedSuffix splits "7900xtx" and "3060ti".
	gluedSuffix = regexp.MustCompile(`(\d)(xtx|xt|ti|super)\b`)
)

// gpuPatterns are tried in order on the cleaned, lowercase name; the first
// match names the model.
var gpuPatterns = []struct {
	re   *regexp.Regexp
	name func(m []string, hbm3 bool) string
}{
	// RTX PRO 6000 Blackwell (Max-Q, Server).
	{regexp.MustCompile(`^rtx pro (\d{4})(?: blackwell)?(.*)$`), func(m []string, _ bool) string {
		s := "RTX PRO " + m[1] + " Blackwell"
		switch {
		case strings.Contains(m[2], "max q"):
			s += " Max-Q"
		case strings.Contains(m[2], "server"):
			s += " Server"
		}
		return s
	}},
	{regexp.MustCompile(`^rtx (\d{4}) ada\b`), func(m []string, _ bool) string { return "RTX " + m[1] + " Ada" }},
	{regexp.MustCompile(`^(?:quadro )?rtx a ?(\d{4})\b`), func(m []string, _ bool) string { return "RTX A" + m[1] }},
	{regexp.MustCompile(`^quadro (.+)$`), func(m []string, _ bool) string { return "Quadro " + strings.ToUpper(m[1]) }},
	// GeForce: "RTX 3060", "3090", "RTX 4060 Ti", "RTX 4070 SUPER", "GTX 1080 Ti", laptops.
	{regexp.MustCompile(`^(?:rtx |gtx )?((?:1[06]|[2-5]0)[5-9]0)((?: ti| super| d)*)( laptop)?$`), func(m []string, _ bool) string {
		prefix := "RTX "
		if m[1][:2] == "10" || m[1][:2] == "16" {
			prefix = "GTX "
		}
		s := prefix + m[1]
		for _, w := range strings.Fields(m[2]) {
			if w == "ti" {
				s += " Ti"
			} else {
				s += " " + strings.ToUpper(w)
			}
		}
		if m[3] != "" {
			s += " Laptop"
		}
		return s
	}},
	{regexp.MustCompile(`^arc ([ab]\d{3})\b`), func(m []string, _ bool) string { return "Arc " + strings.ToUpper(m[1]) }},
	// AMD Instinct and Radeon.
	{regexp.MustCompile(`^(?:instinct )?(mi\d{2,3}[a-z]*)\b`), func(m []string, _ bool) string { return "Instinct " + strings.ToUpper(m[1]) }},
	{regexp.MustCompile(`^(?:radeon )?rx (\d{4})((?: xtx| xt| gre)?)\b`), func(m []string, _ bool) string {
		return "RX " + m[1] + strings.ToUpper(m[2])
	}},
	{regexp.MustCompile(`^radeon pro (w\d{4}[a-z]*)\b`), func(m []string, _ bool) string { return "Radeon Pro " + strings.ToUpper(m[1]) }},
	// NVIDIA data centre: H100 (SXM/PCIe/NVL), A100, V100, L40S, L4, T4, A10G, B200, GH200, GB10.
	{regexp.MustCompile(`^(g?[abhlvt]\d{1,3}[a-z]?|gb\d{1,3})((?: [a-z0-9]+)*)$`), func(m []string, hbm3 bool) string {
		s := strings.ToUpper(m[1])
		rest := " " + m[2] + " "
		switch {
		case strings.Contains(rest, " sxm"):
			s += " SXM"
		case strings.Contains(rest, " pcie "):
			s += " PCIe"
		case strings.Contains(rest, " nvl "):
			s += " NVL"
		case hbm3 && m[1] == "h100":
			s += " SXM" // nvidia-smi names the SXM5 H100 "H100 80GB HBM3"
		}
		return s
	}},
}

// usualVRAM is the memory of models sold with one size, by GPU slug, for
// runs and names that do not say.
var usualVRAM = map[string]int{
	"rtx-3060": 12, "rtx-3080": 10, "rtx-3090": 24, "rtx-3090-ti": 24, "rtx-4070": 12,
	"rtx-4080": 16, "rtx-4090": 24, "rtx-5080": 16, "rtx-5090": 32, "gtx-1080-ti": 11, "rtx-2080-ti": 11,
	"rtx-a6000": 48, "rtx-6000-ada": 48, "quadro-rtx-8000": 48,
	"rtx-pro-6000-blackwell": 96, "rtx-pro-6000-blackwell-max-q": 96, "rtx-pro-6000-blackwell-server": 96,
	"h100": 80, "h100-sxm": 80, "h100-pcie": 80, "h100-nvl": 94, "h200": 141, "b200": 180,
	"l40s": 48, "l40": 48, "l4": 24, "t4": 16, "a10g": 24, "a10": 24, "a40": 48, "gb10": 128,
	"instinct-mi300x": 192, "instinct-mi325x": 256, "rx-7900-xtx": 24, "radeon-pro-w7900": 48,
}

// UsualVRAM is the memory of each GPU model sold with one size, by GPU
// slug: a copy, so callers cannot change the catalog.
func UsualVRAM() map[string]int { return maps.Clone(usualVRAM) }

// memorySizes are the memory sizes GPUs and Macs are sold with, in GB.
var memorySizes = []int{2, 3, 4, 6, 8, 10, 11, 12, 16, 18, 20, 24, 32, 36, 40, 48, 64, 80, 94, 96, 128, 141, 180, 192, 256, 288, 512}

// standardGB rounds a measured memory size (23.99 GiB, 79.6, 12.5) to the
// nearest size sold when it is within 9%, else to a whole GB; 0 stays 0.
func standardGB(v float64) int {
	if v <= 0 {
		return 0
	}
	best := 0
	for _, s := range memorySizes {
		if math.Abs(v-float64(s)) <= 0.09*float64(s) &&
			(best == 0 || math.Abs(v-float64(s)) < math.Abs(v-float64(best))) {
			best = s
		}
	}
	if best == 0 {
		best = int(math.Round(v))
	}
	return best
}
