// Package export writes and reads speedmatrix's own run document,
// speedmatrix-run/1. It is what GET /api/v1/runs/{id} and /runs/{id}.json
// answer, and uploading it again (here or on another portal) gives the same
// run: measured cells carry the signals their status was derived from, and
// skipped cells the plan's reason, so the statuses are derived anew rather
// than copied.
package export

import (
	"encoding/json"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Schema is the value of the document's "schema" key.
const Schema = "speedmatrix-run/1"

// Document is a run as the API and the export show it.
type Document struct {
	Schema string `json:"schema"`
	ID     string `json:"id"`
	URL    string `json:"url"`
	// Submitter is who uploaded the run, claimed or verified. Only the
	// name is read back on import: a file cannot vouch for itself.
	Submitter Submitter `json:"submitter"`
	// Profile and Integrity are lil-bench's ("quick" runs do not rank).
	Profile      string         `json:"profile,omitempty"`
	Integrity    string         `json:"integrity,omitempty"`
	Provenance   run.Provenance `json:"provenance"`
	Tool         run.Tool       `json:"tool"`
	SourceFormat string         `json:"source_format"`
	MeasuredAt   string         `json:"measured_at,omitempty"`
	UploadedAt   time.Time      `json:"uploaded_at"`
	StatusRules  string         `json:"status_rules"`
	Hardware     run.Hardware   `json:"hardware"`
	Engine       run.Engine     `json:"engine"`
	Model        run.Model      `json:"model"`
	Settings     run.Settings   `json:"settings"`
	Prefill      []PrefillItem  `json:"prefill"`
	Decode       []DecodeItem   `json:"decode"`
	// Telemetry is what the file measured of the GPUs over the whole run:
	// limits, the worst throttle verdict, the power series; null when
	// nothing.
	Telemetry *run.RunTelemetry `json:"telemetry"`
	Source    Source            `json:"source"`
	// Flags are the run's plausibility flags ("above_bound"), never read
	// back on import: they are derived again.
	Flags []string `json:"flags"`
	// Bound is the run measured against the decode calculator.
	Bound Bound `json:"bound"`
}

// DecodeItem is a decode cell with its bound: BoundTPS is the most the
// run's setup allows at that cell (null when the calculator lacks a fact),
// Efficiency measured ÷ bound (null unless the cell is valid or queued).
type DecodeItem struct {
	run.DecodeCell
	BoundTPS   *float64 `json:"bound_tps"`
	Efficiency *float64 `json:"efficiency"`
	Energy
}

// PrefillItem is a prefill row with what its energy comes to.
type PrefillItem struct {
	run.PrefillRow
	Energy
}

// Energy is what a cell's or row's measured board power comes to, null
// where the power or the rate is unknown. Derived, never read back.
type Energy struct {
	TokensPerJoule *float64 `json:"tokens_per_joule"`
	WhPerMTok      *float64 `json:"wh_per_mtok"`
}

func energyOf(tpj *float64) Energy {
	return Energy{TokensPerJoule: tpj, WhPerMTok: run.WhPerMTok(tpj)}
}

// Bound is what the cells' bounds assume and their median efficiency.
type Bound struct {
	// GPU and Model are the calculator's ids ("rtx-3060-12gb",
	// "Qwen/Qwen3.5-4B"), empty when not found; Weights, Head and KV the
	// formats assumed.
	GPU      string `json:"gpu,omitempty"`
	GPUCount int    `json:"gpu_count"`
	Model    string `json:"model,omitempty"`
	Weights  string `json:"weights,omitempty"`
	Head     string `json:"head,omitempty"`
	KV       string `json:"kv,omitempty"`
	// MedianEfficiency is the median over the cells that have one.
	MedianEfficiency *float64 `json:"median_efficiency"`
	// Missing names the facts the calculator lacks: "gpu", "model",
	// "precision".
	Missing []string `json:"missing"`
}

// Source points at the document the run came from.
type Source struct {
	SHA256   string `json:"sha256"`
	Filename string `json:"filename,omitempty"`
	Size     int64  `json:"size"`
	URL      string `json:"url,omitempty"`
}

// New builds the document of a stored run; baseURL is the site's origin
// ("https://speedmatrix.example"), used for absolute links. Its flags and
// bounds are the calculator's now, whatever the run was stored with.
func New(r *run.Run, baseURL string) *Document {
	s := calculator.ForRun(r)
	return newDocument(r, baseURL, s, s.Flags(r))
}

// OfDerived is New for a run fresh from ingest.Derive, whose Flags the
// calculator computed under its current rule (BoundVersion) from the same
// cells: the document takes them rather than bounding every cell again
// (the demo generator's, a run at a time, a million times). A run
// derived under another rule gets New's.
func OfDerived(r *run.Run, baseURL string) *Document {
	s := calculator.ForRun(r)
	flags := r.Flags
	if r.BoundVersion != calculator.BoundVersion() {
		flags = s.Flags(r)
	}
	return newDocument(r, baseURL, s, flags)
}

// newDocument is the document of r, whose setup is s and flags flags.
func newDocument(r *run.Run, baseURL string, s calculator.RunSetup, flags []string) *Document {
	d := &Document{
		Schema: Schema, ID: r.ID, URL: paths.RunURL(baseURL, r.ID),
		Submitter: NewSubmitter(r.Submitter, r.SubmitterVerified, r.Org), Profile: r.Profile, Integrity: r.Integrity,
		Provenance: r.Provenance, Tool: r.Tool,
		SourceFormat: r.SourceFormat, MeasuredAt: r.MeasuredAt, UploadedAt: r.UploadedAt,
		StatusRules: r.RulesVersion, Hardware: r.Hardware, Engine: r.Engine, Model: r.Model,
		Settings: r.Settings, Flags: flags, Telemetry: r.Telemetry,
		Source: Source{SHA256: r.Source.SHA256, Filename: r.Source.Filename, Size: r.Source.Size,
			URL: baseURL + paths.RunFile(r.ID, "/source")},
	}
	d.Prefill = make([]PrefillItem, len(r.Prefill))
	for i := range r.Prefill {
		d.Prefill[i] = PrefillItem{PrefillRow: r.Prefill[i], Energy: energyOf(r.Prefill[i].TokensPerJoule())}
	}
	d.Decode, d.Bound = bounds(r, s)
	if d.Flags == nil {
		d.Flags = []string{}
	}
	return d
}

// bounds are the decode cells with their bounds, and the run's summary,
// from its setup s: the same figures the report page shows, each cell
// bounded once for both.
func bounds(r *run.Run, s calculator.RunSetup) ([]DecodeItem, Bound) {
	cells := s.Cells(r)
	items := make([]DecodeItem, len(r.Decode))
	for i := range r.Decode {
		items[i].DecodeCell = r.Decode[i]
		items[i].Energy = energyOf(r.Decode[i].TokensPerJoule())
		b := cells[i]
		if b.BoundTPS > 0 {
			items[i].BoundTPS = &b.BoundTPS
		}
		if b.OK {
			items[i].Efficiency = &b.Efficiency
		}
	}
	sum := Bound{GPU: s.GPU.ID, GPUCount: s.Count, Model: s.Model.ID, Weights: s.Weights.Code,
		Head: s.Head.Code, KV: s.KV, Missing: s.Missing}
	if sum.Missing == nil {
		sum.Missing = []string{}
	}
	if m, n := calculator.MedianOf(cells); n > 0 {
		sum.MedianEfficiency = &m
	}
	return items, sum
}

// Encode writes the document of r, indented for people who read it.
func Encode(r *run.Run, baseURL string) ([]byte, error) {
	return json.MarshalIndent(New(r, baseURL), "", "  ")
}
