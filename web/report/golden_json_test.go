package report_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

var seedStatus = map[string]string{"Valid": "valid", "Requests queued": "queued", "Over capacity": "over_capacity"}

// TestSeedJSON compares the JSON of the seed run with every number the seed
// page shows, at the precision it shows it: 48 decode cells, 5 prefill rows.
func TestSeedJSON(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	for _, path := range []string{"/runs/" + id + ".json", "/api/v1/runs/" + id} {
		resp, body := s.Get(t, path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("GET %s = %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var doc export.Document
		if err := json.Unmarshal([]byte(body), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.ID != id || doc.Schema != export.Schema || doc.Hardware.GPUName != "RTX 3060" || doc.Engine.Version != "0.32.0" {
			t.Errorf("%s: header fields %s %s %+v %+v", path, doc.ID, doc.Schema, doc.Hardware, doc.Engine)
		}
		// The seed's file names Sandberg and came with no token: a claimed
		// name, shaped as the run list gives it, with no slug (no page).
		if !strings.Contains(body, `"submitter": {
    "slug": "",
    "name": "Sandberg",
    "verified": false
  },`) || doc.Submitter.Name != "Sandberg" || doc.Submitter.Verified {
			t.Errorf("%s: submitter %+v, want Sandberg claimed", path, doc.Submitter)
		}
		cells := map[string]map[string]any{}
		var raw struct {
			Decode  []map[string]any `json:"decode"`
			Prefill []map[string]any `json:"prefill"`
		}
		_ = json.Unmarshal([]byte(body), &raw)
		for _, c := range raw.Decode {
			cells[report.ContextLabel(int(c["context"].(float64)))+"×"+fmt.Sprint(c["concurrency"])] = c
		}
		prefill := map[string]map[string]any{}
		for _, p := range raw.Prefill {
			prefill[report.ContextLabel(int(p["context"].(float64)))] = p
		}
		if len(cells) != 48 || len(prefill) != 5 {
			t.Fatalf("%d cells and %d prefill rows, want 48 and 5", len(cells), len(prefill))
		}
		for _, row := range tsv(t, "all-measurements.tsv") {
			if row[0] == "Prefill" {
				p := prefill[row[1]]
				want := map[string]string{"status": "Valid", "prompt_tps": row[4], "ttft_ms": row[6]}
				checkJSON(t, "prefill "+row[1], p, want)
				continue
			}
			c := cells[row[1]+"×"+row[2]]
			if c == nil {
				t.Errorf("no cell %s×%s", row[1], row[2])
				continue
			}
			if got := c["status"]; got != seedStatus[row[3]] {
				t.Errorf("cell %s×%s status %v, seed says %s", row[1], row[2], got, row[3])
			}
			if row[3] == "Over capacity" {
				// The page hides the rates of cells that did not run
				// properly; the JSON keeps what was measured.
				checkJSON(t, "cell "+row[1]+"×"+row[2], c, map[string]string{"avg_active": row[8], "output_tokens": row[10], "measured_s": row[11]})
				continue
			}
			checkJSON(t, "cell "+row[1]+"×"+row[2], c, map[string]string{"total_tps": row[4], "per_request_tps": row[5],
				"ttft_ms": row[6], "tbt_ms": row[7], "avg_active": row[8], "output_tokens": row[10], "measured_s": row[11]})
		}
	}
}

// checkJSON rounds each JSON number to the precision of the seed page's text
// ("3,727 ms" → 0 decimals, "15.4 ms" → 1) and compares; "—" wants null.
func checkJSON(t *testing.T, what string, obj map[string]any, want map[string]string) {
	t.Helper()
	for key, text := range want {
		if key == "status" {
			if obj[key] != seedStatus[text] {
				t.Errorf("%s: %s = %v, want %s", what, key, obj[key], text)
			}
			continue
		}
		text = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(text, " ms"), " s"), " tok/s")
		if text == "—" || text == "" {
			if obj[key] != nil {
				t.Errorf("%s: %s = %v, want null", what, key, obj[key])
			}
			continue
		}
		plain := strings.ReplaceAll(text, ",", "")
		decimals := 0
		if i := strings.IndexByte(plain, '.'); i >= 0 {
			decimals = len(plain) - i - 1
		}
		v, ok := obj[key].(float64)
		if !ok {
			t.Errorf("%s: %s = %v, want %s", what, key, obj[key], text)
			continue
		}
		if got := strconv.FormatFloat(v, 'f', decimals, 64); got != plain {
			t.Errorf("%s: %s = %s (%v), seed page shows %s", what, key, got, v, text)
		}
	}
}
