package share

import (
	"bytes"
	"encoding/csv"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// The lil-bench 2-GPU sample in the exports: the CSV carries each cell's
// power and verdict, the text names the power-capped prefill's verdict
// nowhere in the decode grid (no decode cell throttled) but shows the
// energy table, and Markdown the same table.
func TestExportsCarryTelemetry(t *testing.T) {
	body, err := os.ReadFile("../../testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	if err != nil {
		t.Fatal(err)
	}
	r := ingested(t, ingest.Upload{Files: []archive.File{{Data: body}}})
	l := localizer(t, "en")
	var b bytes.Buffer
	if err := CSV(&b, r, l); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(recs[0], name) }
	var prefill, cell []string
	for _, rec := range recs[1:] {
		if rec[0] == "prefill" && rec[1] == "32768" {
			prefill = rec
		}
		if rec[0] == "decode" && rec[1] == "0" && rec[3] == "1" {
			cell = rec
		}
	}
	if prefill == nil || prefill[col("throttle")] != "power_capped" {
		t.Errorf("32K prefill row %v, want throttle power_capped", prefill)
	}
	if cell == nil || !strings.HasPrefix(cell[col("power_w")], "329.1") || cell[col("throttle")] != "none" ||
		!strings.HasPrefix(cell[col("tokens_per_joule")], "0.29") {
		t.Errorf("0×1 row %v, want 329 W, none, 0.29 tok/J", cell)
	}
	b.Reset()
	if err := Text(&b, r, l, "https://x/runs/a"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "GPU board power") || !strings.Contains(b.String(), "0.291 tok/J · 329 W") {
		t.Errorf("text lacks the energy table:\n%s", b.String())
	}
	b.Reset()
	if err := Markdown(&b, r, l, "https://x/runs/a"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "**GPU board power**") {
		t.Errorf("markdown lacks the energy table:\n%s", b.String())
	}
	// A run without telemetry has no such table.
	plain := ingested(t, ingest.Upload{Files: []archive.File{{Data: mustRead(t, "../../testdata/formats/llm-inference-bench/benchmark_results_0.2.0.json")}}})
	b.Reset()
	if err := Text(&b, plain, l, "https://x/runs/b"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "GPU board power") {
		t.Errorf("a run without telemetry shows an energy table:\n%s", b.String())
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
