// Package report turns a run into the words and numbers a reader sees: the
// report page, and later the CSV and Markdown exports, which reuse its
// formatting functions so every door shows the same figure the same way.
package report

import "github.com/speedmatrix/speedmatrix/internal/run"

// View is a run as the report page shows it, every string already in the
// reader's language. Section headings and column titles are page chrome and
// come from the templates; everything that depends on the run is here.
type View struct {
	ID string
	// Title is "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB".
	Title string
	// ModelID is the full model id, for a tooltip on the title.
	ModelID string
	// EngineLine is "vllm · 0.32.0 · FP8 dynamic".
	EngineLine string
	// Summary is "6 contexts (0–248K) × 8 concurrency levels (1–128) ·
	// prefill at 8K, 16K, 32K, 64K, 128K".
	Summary string
	// Description is the page's meta description and link preview text.
	Description string
	// Submitter is "by @Sandberg"; empty when unknown.
	Submitter string
	// Org is "for ACME", the organisation a verified submitter uploaded
	// the run for (linked by LinkOrg); empty for none.
	Org string
	// Edited is "metadata edited by the uploader on …"; empty when never.
	Edited string
	// SubmitterHandle is the bare handle, for a link to the submitter.
	SubmitterHandle string
	// Verified is "verified submitter" when the upload carried the
	// submitter's token, empty for a self-declared name (accounts.go).
	Verified string
	// Badges are lil-bench's marks: a quick profile, the image's integrity.
	Badges []Badge
	// Tool is "llm-inference-bench v0.8.0".
	Tool string
	// Provenance is "Measured" or "Imported"; Kind is its code.
	Provenance     string
	ProvenanceKind run.Provenance
	// Sections are Hardware, Engine and Run, each omitted when empty.
	Sections      []Section
	LaunchCommand string
	Prefill       []PrefillRow
	Grid          Grid
	// Bound is the run measured against the decode calculator's bound.
	Bound BoundView
	// HistoryURL links the setup's history across engine versions when
	// runs of earlier versions exist (set by the page, which knows the
	// other runs); HistoryText is the link's text.
	HistoryURL, HistoryText string
	// Rows are the All-measurements table: prefill rows, then decode cells.
	Rows []Row
	// StatusNotes explain each non-valid status the grid shows.
	StatusNotes []Note
	// TTFTNote is shown under the grid when the tool warms the prompt cache.
	TTFTNote string
	// TableNote is "Latencies are medians. …".
	TableNote string
	SourceURL string
	// SourceNote says an archive source is served rebuilt (archive.Safe),
	// naming the uploaded bytes' SHA-256 the run keeps; "" for a file.
	SourceNote string
	JSONURL    string
	// Demo marks a synthetic run (speedmatrix demo): the page says so.
	Demo bool
	// ToolDocs links to how another tool's fields became these numbers.
	ToolDocs string
	// Caveats explain numbers the tool means differently (run.Notes).
	Caveats []string
	// Energy is the "Energy and health" section and the grid's metric
	// switch (SetEnergy); nil when the file measured no GPU telemetry.
	Energy *EnergyView
	// Entities maps LinkHardware, LinkEngine, LinkModel and LinkSubmitter
	// to the run's entity pages; a key is missing when the run does not
	// name that identity.
	Entities map[string]string
}

// Section is a titled list of facts.
type Section struct {
	// Key is "hardware", "engine" or "run", for ids and tests.
	Key   string
	Title string
	Facts []Fact
}

// Fact is one label–value pair. Link, when set, names the entity page the
// value links to (a key of View.Entities: "hardware", "engine"; the model
// and the submitter link from the header).
type Fact struct {
	Label, Value string
	Link         string
}

// Entity page links: the keys of View.Entities.
const (
	LinkHardware  = "hardware"
	LinkEngine    = "engine"
	LinkModel     = "model"
	LinkSubmitter = "submitter"
	LinkOrg       = "org"
)

// Href is the address of the entity page a fact or the header links to,
// "" when there is none.
func (v *View) Href(link string) string {
	if link == "" {
		return ""
	}
	return v.Entities[link]
}

// Note is a status label with what it means.
type Note struct {
	Status      run.Status
	Label, Text string
}

// PrefillRow is one prefill context: "8K context  2,186  3,727 ms TTFT".
type PrefillRow struct {
	ContextTokens int
	// Label is "8K context"; Sent names the trimmed context actually sent
	// when it differs ("sent 61.9K").
	Label, Sent string
	Status      run.Status
	// StatusLabel is empty for valid rows, which show numbers instead.
	StatusLabel string
	Reason      string
	TPS         string
	TTFT        string
}

// Grid is the sustained-decode grid: rows are contexts, columns concurrencies.
type Grid struct {
	Columns []Column
	Rows    []GridRow
	// Max is the highest valid total tok/s: the top of the colour scale.
	Max float64
}

// Column is one concurrency level.
type Column struct {
	Concurrency int
	Label       string
	// Spoken names the column with its dimension ("2 requests at once"),
	// for screen readers, which would otherwise announce a bare "2".
	Spoken string
}

// GridRow is one context length.
type GridRow struct {
	ContextTokens int
	Label, Sent   string
	// Spoken names the row with its dimension ("Context 16K"), for screen
	// readers; Sent follows it when the row sent a trimmed context.
	Spoken string
	Cells  []Cell
}

// Cell is one grid cell. Status is always told in text: StatusLabel is set
// for every status but valid, and only valid cells are coloured.
type Cell struct {
	Context, Concurrency int
	Status               run.Status
	StatusLabel          string
	Reason               string
	// TPS is total tok/s, compact; TTFT is "96 ms TTFT". Both empty when the
	// status makes the numbers meaningless.
	TPS, TTFT string
	// BG and FG come from Colour; empty for non-valid cells, which get a
	// neutral pattern from the stylesheet.
	BG, FG string
	// Heat is BG and FG as a stylesheet class (HeatClass), for pages.
	Heat string
	// Efficiency is "87 % of bound", empty when the cell has none.
	Efficiency string
	// TPJ is the cell's tokens per joule ("0.392 tok/J") where a page
	// shows it beside the rate (the compare page); empty otherwise.
	TPJ string
	// Throttle words the tool's verdict when the GPUs throttled during
	// the cell ("Power-capped"), shown as text on the grid; empty when
	// they did not or the file does not say.
	Throttle string
}

// Row is one line of the All-measurements table.
type Row struct {
	// PhaseKey is "prefill" or "decode"; Phase is its label.
	PhaseKey, Phase      string
	ContextTokens        int
	Context              string
	Concurrency          int
	ConcurrencyLabel     string
	Status               run.Status
	StatusLabel, Reason  string
	TotalTPS, PerRequest string
	TTFT, TBT, AvgActive string
	// Completed is empty, with CompletedNote saying why, for decode cells of
	// a fixed-duration run (see completed in table.go).
	Completed, CompletedNote  string
	OutputTokens, MeasuredFor string
	// Efficiency is measured ÷ the calculator's bound, "87 %", or Dash.
	Efficiency string
}
