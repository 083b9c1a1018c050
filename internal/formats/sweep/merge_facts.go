package sweep

import (
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// facts are what the files of one run must agree on where both know them,
// named as the upload's metadata fields name them (the same words in every
// language, and never mistaken for a message id).
var facts = []struct {
	name string
	of   func(p *run.Parsed) string
}{
	{"tool", func(p *run.Parsed) string { return p.Format }},
	{"model_id", func(p *run.Parsed) string { return p.Model.ID }},
	{"served_model", func(p *run.Parsed) string { return p.Model.ServedName }},
	{"engine_name", func(p *run.Parsed) string { return p.Engine.Name }},
	{"engine_version", func(p *run.Parsed) string { return p.Engine.Version }},
	{"quantization", func(p *run.Parsed) string { return p.Engine.Quantization }},
	{"backend", func(p *run.Parsed) string { return p.Engine.Backend }},
	{"build", func(p *run.Parsed) string { return p.Engine.Build }},
	{"gpu_name", func(p *run.Parsed) string { return p.Hardware.GPUName }},
	{"gpu_count", func(p *run.Parsed) string { return count(p.Hardware.GPUCount) }},
	{"cpu_name", func(p *run.Parsed) string { return p.Hardware.CPUName }},
	{"os", func(p *run.Parsed) string { return p.Hardware.OS }},
}

func count(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// checkFacts names every file that disagrees with the others: per fact, the
// value most files share is the run's (on a tie, the first file's), and a
// file with another one is the odd one. Each file is named once, with the
// first fact it disagrees on. It returns the odd files, which the merge
// leaves out (their cells are not the run's, so they clash with nothing).
func checkFacts(probs *problem.List, parts []Part) map[int]bool {
	named := map[int]bool{}
	for _, f := range facts {
		votes := map[string]int{}
		first := map[string]string{} // value → first file with it
		best := ""
		for _, pt := range parts {
			v := f.of(pt.Parsed)
			if v == "" {
				continue
			}
			votes[v]++
			if _, ok := first[v]; !ok {
				first[v] = pt.Name
			}
			if best == "" || votes[v] > votes[best] {
				best = v
			}
		}
		for i, pt := range parts {
			v := f.of(pt.Parsed)
			if v == "" || v == best || named[i] {
				continue
			}
			named[i] = true
			probs.Add(archive.At(pt.Name), "problem.formats.sweep_mismatch", map[string]any{
				"File": pt.Name, "Field": f.name, "Value": v, "Common": best, "CommonFile": first[best]})
		}
	}
	return named
}
