package report_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// The seed report gives its median efficiency and links to the calculator
// prefilled with its setup; following the link shows that setup's bound.
func TestSeedReportAgainstBound(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	doc := webtest.Page(t, s, "/runs/"+id)
	if got := strings.TrimSpace(doc.Find("#bound .median").Text()); !strings.HasPrefix(got, "Median: ") || !strings.Contains(got, " % of the decode bound, over 17 cells") {
		t.Errorf("median line %q", got)
	}
	href, _ := doc.Find("#bound a.calc-link").Attr("href")
	u, err := url.Parse(href)
	if err != nil || u.Path != "/calculator" {
		t.Fatalf("calculator link %q", href)
	}
	q := u.Query()
	if q.Get("gpu") != "rtx-3060-12gb" || q.Get("model") != "Qwen/Qwen3.5-4B" || q.Get("weights") != "fp8" || q.Get("kv") != "int4" {
		t.Errorf("calculator link %q", href)
	}
	calc := webtest.Page(t, s, href)
	if !strings.Contains(calc.Text(), "72.8") {
		t.Errorf("prefilled calculator lacks the 72.8 tok/s bound of the worked example")
	}
	if n := doc.Find(`.badge[data-badge="above-bound"]`).Length(); n != 0 {
		t.Errorf("seed run flagged above the bound")
	}
	// Where the bound's figures come from, and how sure they are: the
	// GPU's and the model's rows of the calculator's tables, as the
	// calculator names them.
	sources := doc.Find("#bound .bound-sources")
	if text := strings.Join(strings.Fields(sources.Text()), " "); !strings.Contains(text, "RTX 3060 12GB (") ||
		!strings.Contains(text, "Qwen/Qwen3.5-4B (") || !strings.Contains(text, "The figures come from:") {
		t.Errorf("bound sources %q", text)
	}
	if n := sources.Find("a[href^='https://']").Length(); n != 2 {
		t.Errorf("bound sources link %d rows' sources, want 2", n)
	}
	if !strings.Contains(sources.Text(), "verified in the source") && !strings.Contains(sources.Text(), "derived from verified figures") {
		t.Errorf("bound sources name no confidence: %q", sources.Text())
	}
}

// A run on a GPU and model the calculator does not know, without a weight
// format, says which facts are missing, still links the calculator with
// what is known, and its JSON has no bounds.
func TestReportMissingFacts(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	id := s.UploadVariant(t, seed, "ab", func(doc map[string]any) {
		doc["hardware"].(map[string]any)["gpu_name"] = "Mystery GPU 9000"
		doc["engine"].(map[string]any)["quantization"] = ""
		doc["model"].(map[string]any)["id"] = "acme/unknown-7b"
		doc["model"].(map[string]any)["served_name"] = ""
	})
	doc := webtest.Page(t, s, "/runs/"+id)
	missing := webtest.Texts(doc.Find("#bound .missing"))
	if len(missing) != 3 || !strings.Contains(missing[0], "Mystery GPU 9000") || !strings.Contains(missing[1], "acme/unknown-7b") ||
		!strings.Contains(missing[2], "weight format") {
		t.Errorf("missing facts %q", missing)
	}
	href, _ := doc.Find("#bound a.calc-link").Attr("href")
	if u, _ := url.Parse(href); u.Query().Get("model") != "acme/unknown-7b" || u.Query().Get("gpu") != "" {
		t.Errorf("calculator link %q", href)
	}
	if eff := webtest.Texts(doc.Find("td.eff")); len(eff) == 0 || strings.Trim(strings.Join(eff, ""), "—") != "" {
		t.Errorf("efficiency column %q, want dashes", eff)
	}
	_, js := s.Get(t, "/api/v1/runs/"+id)
	var out struct {
		Decode []struct {
			BoundTPS *float64 `json:"bound_tps"`
		}
		Bound struct{ Missing []string }
	}
	_ = json.Unmarshal([]byte(js), &out)
	if strings.Join(out.Bound.Missing, ",") != "gpu,model,precision" || len(out.Decode) == 0 || out.Decode[0].BoundTPS != nil {
		t.Errorf("JSON bound %+v, first cell %+v", out.Bound, out.Decode[0])
	}
}

// A run claiming ten times the seed's rates is stored (201) but flagged
// above the physical bound: the report and the lists say so, the API says
// "flags": ["above_bound"], and the leaderboard leaves it out unless
// "include flagged" is ticked. The seed run is not flagged.
func TestAboveBoundFlag(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	id := s.UploadVariant(t, seed, "cd", func(doc map[string]any) {
		for _, c := range doc["decode"].([]any) {
			cell := c.(map[string]any)
			for _, k := range []string{"total_tps", "per_request_tps"} {
				if v, ok := cell[k].(float64); ok {
					cell[k] = v * 10
				}
			}
		}
	})
	for _, c := range []struct {
		id   string
		want string
	}{{id, `["above_bound"]`}, {seed, `[]`}} {
		_, js := s.Get(t, "/api/v1/runs/"+c.id)
		var out struct{ Flags json.RawMessage }
		_ = json.Unmarshal([]byte(js), &out)
		if got := strings.Join(strings.Fields(string(out.Flags)), ""); got != c.want {
			t.Errorf("run %s flags %s, want %s", c.id, got, c.want)
		}
	}
	if n := webtest.Page(t, s, "/runs/"+id).Find(`header .badge[data-badge="above-bound"]`).Length(); n != 1 {
		t.Errorf("report shows %d above-bound badges", n)
	}
	if got := webtest.Page(t, s, "/runs").Find(`tr[data-run="` + id + `"] .flag-above-bound`).Length(); got != 1 {
		t.Error("/runs does not mark the flagged run")
	}
	if got := webtest.Page(t, s, "/runs").Find(`tr[data-run="` + seed + `"] .flag-above-bound`).Length(); got != 0 {
		t.Error("/runs marks the seed run")
	}
	_, list := s.Get(t, "/api/v1/runs")
	if !strings.Contains(list, `"above_bound"`) {
		t.Error("GET /api/v1/runs has no above_bound flag")
	}
	board := func(q string) (hasFlagged, hasSeed bool, marks int) {
		doc := webtest.Page(t, s, "/leaderboard"+q)
		doc.Find("a.to-run").Each(func(_ int, a *goquery.Selection) {
			href, _ := a.Attr("href")
			hasFlagged = hasFlagged || strings.Contains(href, "/runs/"+id)
			hasSeed = hasSeed || strings.Contains(href, "/runs/"+seed)
		})
		return hasFlagged, hasSeed, doc.Find("table .flag-above-bound").Length()
	}
	if flagged, seedShown, _ := board(""); flagged || !seedShown {
		t.Errorf("default leaderboard: flagged run shown %v, seed shown %v", flagged, seedShown)
	}
	// Both runs are one group (model, hardware, engine, quantization):
	// included, the flagged run is its best.
	if flagged, seedShown, marks := board("?flagged=1"); !flagged || seedShown || marks != 1 {
		t.Errorf("with flagged runs: flagged run shown %v, seed shown %v, %d badges", flagged, seedShown, marks)
	}
}

// A run whose cell drew more than its power limit by over a tenth is
// stored (201) and flagged in its own words: the report, the lists, the
// leaderboard with flagged runs and the API name a power above the
// boards' limit, never a cell above the physical bound, and the default
// leaderboard leaves it out as it leaves those out.
func TestPowerImplausibleFlag(t *testing.T) {
	s := webtest.NewSite(t)
	var doc map[string]any
	if err := json.Unmarshal(webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"), &doc); err != nil {
		t.Fatal(err)
	}
	// 900 W on a 700 W limit: more than 770 W.
	doc["results"].([]any)[0].(map[string]any)["hardware_summary"].(map[string]any)["power_total_avg_w"] = 900.0
	body, _ := json.Marshal(doc)
	resp, out := s.Post(t, "application/json", body)
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	id := out["id"].(string)
	plain := webtest.UploadSample(t, s, "lil-bench/lil_bench_result_2gpu.json")

	_, js := s.Get(t, "/api/v1/runs/"+id)
	var one struct{ Flags []string }
	if err := json.Unmarshal([]byte(js), &one); err != nil || len(one.Flags) != 1 || one.Flags[0] != "power_implausible" {
		t.Errorf("run flags %v (%v), want [power_implausible]", one.Flags, err)
	}
	_, list := s.Get(t, "/api/v1/runs")
	var runs struct {
		Runs []struct {
			ID    string
			Flags []string
		}
	}
	if err := json.Unmarshal([]byte(list), &runs); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs.Runs {
		want := []string{}
		if r.ID == id {
			want = []string{"power_implausible"}
		}
		if !slices.Equal(r.Flags, want) {
			t.Errorf("GET /api/v1/runs: run %s flags %v, want %v", r.ID, r.Flags, want)
		}
	}

	report := webtest.Page(t, s, "/runs/"+id+"?lang=en")
	if n := report.Find(`header .badge[data-badge="power-implausible"]`).Length(); n != 1 {
		t.Errorf("report shows %d power badges", n)
	}
	if n := report.Find(`header .badge[data-badge="above-bound"]`).Length(); n != 0 {
		t.Errorf("report calls the power flag above the bound (%d badges)", n)
	}
	mark := func(path, sel string) string {
		return strings.TrimSpace(webtest.Page(t, s, path).Find(sel).Text())
	}
	if got := mark("/runs?lang=en", `tr[data-run="`+id+`"] .flag-above-bound`); got != "Power above the boards' limit" {
		t.Errorf("/runs marks the run %q", got)
	}
	if got := mark("/runs?lang=de", `tr[data-run="`+id+`"] [data-flag="power-implausible"]`); got == "" || got == "Power above the boards' limit" {
		t.Errorf("/runs?lang=de marks the run %q", got)
	}
	if got := mark("/runs?lang=en", `tr[data-run="`+plain+`"] .flag-above-bound`); got != "" {
		t.Errorf("/runs marks the plain run %q", got)
	}
	if got := mark("/leaderboard?lang=en", `tr[data-run="`+id+`"]`); got != "" {
		t.Error("the default leaderboard ranks the flagged run")
	}
	if got := mark("/leaderboard?lang=en&flagged=1", `tr[data-run="`+id+`"] .flag-above-bound`); got != "Power above the boards' limit" {
		t.Errorf("the leaderboard with flagged runs marks it %q", got)
	}
}
