package llmbench

import (
	"math"
	"regexp"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// engineLine is the event-log line where the tool records the engine it
// found: "14:31:02 startup engine vLLM 0.11.0 models=[...]".
var engineLine = regexp.MustCompile(`startup engine \S+ v?([0-9][^\s]*)`)

// engineVersion comes from the event log (0.4.0+; may be trimmed away) or
// from completion-stats metadata.
func (p *parser) engineVersion() string {
	for _, line := range p.doc.EventLog {
		if m := engineLine.FindStringSubmatch(line); m != nil {
			return m[1]
		}
	}
	return p.doc.Metadata.ServerVersion
}

// hardware reads what the file knows of the machine: nvidia-smi's CSV
// ("index, name, driver_version, ...") when it ran on the same host, the
// VRAM total of the hardware summary, and the kernel from uname. Names stay
// as nvidia-smi wrote them; normalisation is the catalogue's business.
func (p *parser) hardware() run.Hardware {
	var hw run.Hardware
	d := p.doc.StartupDiagnostics
	if d == nil {
		return hw
	}
	if q := d.NvidiaSMIQuery; q != nil && q.ReturnCode == 0 {
		for _, line := range strings.Split(strings.TrimSpace(q.Stdout), "\n") {
			cols := strings.Split(line, ",")
			if len(cols) < 3 {
				continue
			}
			hw.GPUCount++
			if hw.GPUName == "" {
				hw.GPUName = strings.TrimSpace(cols[1])
				hw.Driver = strings.TrimSpace(cols[2])
			}
		}
	}
	if hw.GPUCount > 0 {
		hw.Type = run.DiscreteGPU
		if s := p.doc.HardwareRunSummary; s != nil && s.VRAMTotalMB > 0 {
			hw.VRAMGB = math.Round(s.VRAMTotalMB / float64(hw.GPUCount) / 1024)
		}
	}
	if f := strings.Fields(d.Uname); len(f) >= 3 {
		hw.OS = f[0] + " " + f[2]
	}
	return hw
}
