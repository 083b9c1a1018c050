package ingest

import (
	"math"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// MetaField is one fact an uploader may give beside the file: a form field, a
// multipart field of the API, a key of the CLI's --meta file.
type MetaField struct {
	Name string
	// Kind says how the value is read: "text", "int", "number", "enum"
	// (one of the values in enums, enum.go), "long" (multi-line text).
	Kind string
	// Max is the longest text, or the largest number, accepted.
	Max float64
}

// MetaFields lists every metadata field, in the order forms show them.
var MetaFields = []MetaField{
	{"submitter", "text", 64},
	{"hardware_type", "enum", 0},
	{"gpu_name", "text", 200}, {"gpu_count", "int", 1024}, {"vram_gb", "number", 100000},
	{"cpu_name", "text", 200}, {"cpu_cores", "int", 100000}, {"ram_gb", "number", 1e7},
	{"os", "text", 200}, {"driver", "text", 200},
	{"engine_name", "text", 100}, {"engine_version", "text", 100}, {"quantization", "text", 100},
	{"backend", "text", 100}, {"build", "text", 300}, {"launch_command", "long", 32 << 10},
	{"model_id", "text", 300}, {"served_model", "text", 300}, {"revision", "text", 200},
}

// Meta is the metadata an uploader gave, read and checked. Zero values mean
// "not given": the file's own facts are kept for those.
type Meta struct {
	Submitter string
	Hardware  run.Hardware
	Engine    run.Engine
	Model     run.Model
}

// ParseMeta reads the metadata fields through get (a form's FormValue, a
// JSON object's lookup). Every bad field is a problem named by the field.
func ParseMeta(get func(name string) string) (Meta, error) {
	var m Meta
	probs := problem.List{Kind: problem.Invalid}
	for _, f := range MetaFields {
		v := strings.TrimSpace(get(f.Name))
		if f.Kind == "long" {
			v = strings.TrimRight(strings.ReplaceAll(get(f.Name), "\r\n", "\n"), " \n\t")
		}
		if v == "" {
			continue
		}
		if msg, data := checkText(v, f); msg != "" {
			probs.Add(f.Name, msg, data)
			continue
		}
		if err := m.set(f, v); err != nil {
			probs.Add(f.Name, err.key, err.data)
		}
	}
	return m, probs.Err()
}

type fieldError struct {
	key  string
	data map[string]any
}

func (m *Meta) set(f MetaField, v string) *fieldError {
	switch f.Kind {
	case "int":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || float64(n) > f.Max {
			return &fieldError{"problem.field_int", map[string]any{"Value": v, "Max": int(f.Max)}}
		}
		setInt(m, f.Name, n)
	case "number":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x <= 0 || x > f.Max {
			return &fieldError{"problem.field_number", map[string]any{"Value": v}}
		}
		setNumber(m, f.Name, x)
	case "enum":
		e := enums[f.Name]
		token, ok := e.lookup(f.Name, v)
		if !ok {
			return &fieldError{"problem.field_enum", map[string]any{"Value": v, "Options": e.accepted()}}
		}
		m.Hardware.Type = run.HardwareType(token) // hardware_type is the one enum

	default:
		*textField(m, f.Name) = v
	}
	return nil
}

// checkText refuses text PostgreSQL cannot store (NUL) or that is too long.
func checkText(v string, f MetaField) (string, map[string]any) {
	if strings.ContainsRune(v, 0) {
		return "problem.field_nul", nil
	}
	if f.Kind == "text" || f.Kind == "long" {
		if n := len([]rune(v)); float64(n) > f.Max {
			return "problem.field_long", map[string]any{"Max": int(f.Max)}
		}
		if f.Kind == "text" && strings.ContainsAny(v, "\n\r") {
			return "problem.field_newline", nil
		}
	}
	return "", nil
}

func setInt(m *Meta, name string, n int) {
	switch name {
	case "gpu_count":
		m.Hardware.GPUCount = n
	case "cpu_cores":
		m.Hardware.CPUCores = n
	}
}

func setNumber(m *Meta, name string, x float64) {
	switch name {
	case "vram_gb":
		m.Hardware.VRAMGB = x
	case "ram_gb":
		m.Hardware.RAMGB = x
	}
}

func textField(m *Meta, name string) *string {
	return map[string]*string{
		"submitter": &m.Submitter, "gpu_name": &m.Hardware.GPUName, "cpu_name": &m.Hardware.CPUName,
		"os": &m.Hardware.OS, "driver": &m.Hardware.Driver, "engine_name": &m.Engine.Name,
		"engine_version": &m.Engine.Version, "quantization": &m.Engine.Quantization,
		"backend": &m.Engine.Backend, "build": &m.Engine.Build, "launch_command": &m.Engine.LaunchCommand,
		"model_id": &m.Model.ID, "served_model": &m.Model.ServedName, "revision": &m.Model.Revision,
	}[name]
}
