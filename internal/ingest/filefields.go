package ingest

import (
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// factsOf is the inverse of ParseMeta: each fact as the field would be
// typed, so a form can show it and read it back unchanged.
func factsOf(p *run.Parsed) map[string]string {
	m := Meta{Submitter: p.Submitter, Hardware: p.Hardware, Engine: p.Engine, Model: p.Model}
	out := map[string]string{}
	for _, f := range MetaFields {
		var v string
		switch f.Kind {
		case "int":
			n := map[string]int{"gpu_count": m.Hardware.GPUCount, "cpu_cores": m.Hardware.CPUCores}[f.Name]
			if n > 0 {
				v = strconv.Itoa(n)
			}
		case "number":
			x := map[string]float64{"vram_gb": m.Hardware.VRAMGB, "ram_gb": m.Hardware.RAMGB}[f.Name]
			if x > 0 {
				v = strconv.FormatFloat(x, 'f', -1, 64)
			}
		case "enum":
			v = string(m.Hardware.Type)
		default:
			v = *textField(&m, f.Name)
		}
		if v != "" {
			out[f.Name] = v
		}
	}
	return out
}

// Missing lists, in the order of MetaFields, the fields that neither the
// file (Document.Fields) nor the uploader's fields fill.
func Missing(file, fields map[string]string) []string {
	out := []string{}
	for _, f := range MetaFields {
		if file[f.Name] == "" && fields[f.Name] == "" {
			out = append(out, f.Name)
		}
	}
	return out
}

// Changed drops the fields whose value is what the file already says,
// so a form that shows the file's values and sends them back unedited
// gives only what the uploader changed: a value the file holds but a field
// would refuse (too long for the form, say) is kept as the file has it.
func Changed(file, fields map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range fields {
		if file[k] != "" && v == file[k] {
			continue
		}
		out[k] = v
	}
	return out
}
