package ingest

import "github.com/speedmatrix/speedmatrix/internal/run"

// merge lays the uploader's metadata over what the file says: a field given
// wins, the file fills what the fields leave empty.
func merge(p *run.Parsed, m Meta) {
	if m.Submitter != "" {
		p.Submitter = m.Submitter
	}
	h, mh := &p.Hardware, m.Hardware
	str(&h.GPUName, mh.GPUName)
	str(&h.CPUName, mh.CPUName)
	str(&h.OS, mh.OS)
	str(&h.Driver, mh.Driver)
	if mh.Type != "" {
		h.Type = mh.Type
	}
	if mh.GPUCount != 0 {
		h.GPUCount = mh.GPUCount
	}
	if mh.VRAMGB != 0 {
		h.VRAMGB = mh.VRAMGB
	}
	if mh.CPUCores != 0 {
		h.CPUCores = mh.CPUCores
	}
	if mh.RAMGB != 0 {
		h.RAMGB = mh.RAMGB
	}
	if h.GPUName != "" && h.GPUCount == 0 {
		h.GPUCount = 1
	}
	e, me := &p.Engine, m.Engine
	str(&e.Name, me.Name)
	str(&e.Version, me.Version)
	str(&e.Quantization, me.Quantization)
	str(&e.Backend, me.Backend)
	str(&e.Build, me.Build)
	str(&e.LaunchCommand, me.LaunchCommand)
	str(&p.Model.ID, m.Model.ID)
	str(&p.Model.ServedName, m.Model.ServedName)
	str(&p.Model.Revision, m.Model.Revision)
}

func str(dst *string, given string) {
	if given != "" {
		*dst = given
	}
}
