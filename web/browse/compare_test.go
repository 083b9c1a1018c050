package browse_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestComparePage: two runs side by side, the ratio grid by status rules
// on the union of the axes, the overlaid charts.
func TestComparePage(t *testing.T) {
	s := webtest.NewSite(t)
	a := s.InsertScaled(t, "cmp:a", 1, nil)
	b := s.InsertScaled(t, "cmp:b", 2, func(r *run.Run) {
		r.Demo = true
		r.Decode = append(r.Decode, run.DecodeCell{Context: 0, Concurrency: 64, Status: run.Valid, Measured: true,
			Metrics: run.Metrics{TotalTPS: run.F(1500), PerRequestTPS: run.F(23.4)}})
	})
	doc := webtest.Page(t, s, "/compare?runs="+a+","+b)
	if n := doc.Find("table.compare-grid").Length(); n != 2 {
		t.Fatalf("%d decode grids, want 2", n)
	}
	// The union: both grids have the 64 column that only B measured.
	for i, want := range []string{"absent", "valid"} {
		grid := doc.Find("table.compare-grid").Eq(i)
		if got, _ := grid.Find(`td[data-context="0"][data-concurrency="64"]`).Attr("data-status"); got != want {
			t.Errorf("grid %d at 0×64: status %q, want %q", i, got, want)
		}
	}
	ratio := func(ctx, conc string) (string, bool, string) {
		td := doc.Find(`table.ratio-grid td[data-context="` + ctx + `"][data-concurrency="` + conc + `"]`)
		_, queued := td.Attr("data-queued")
		return strings.TrimSpace(td.Find(".value").Text()), queued, strings.TrimSpace(td.Find(".why").Text())
	}
	if v, q, _ := ratio("0", "1"); v != "2.00×" || q {
		t.Errorf("0×1 ratio %q queued %v, want 2.00× unmarked", v, q)
	}
	if v, q, _ := ratio("0", "16"); v != "2.00×" || !q {
		t.Errorf("0×16 ratio %q queued %v, want 2.00× marked queued", v, q)
	}
	if v, _, why := ratio("131072", "2"); v != "" || why != "A: Failed, B: Failed" {
		t.Errorf("128K×2: ratio %q why %q, want none because both failed", v, why)
	}
	if v, _, why := ratio("131072", "16"); v != "" || !strings.Contains(why, "Over capacity") {
		t.Errorf("128K×16: ratio %q why %q, want none: over capacity", v, why)
	}
	if _, _, why := ratio("0", "64"); why != "not in A's grid" {
		t.Errorf("0×64 why %q", why)
	}
	if n := doc.Find("#compare-charts svg.chart").Length(); n != 3 {
		t.Errorf("%d charts, want 3", n)
	}
	if doc.Find(`.compare-runs li[data-run="`+b+`"] .badge.demo`).Length() != 1 {
		t.Error("the demo run is not marked demo data")
	}
}

func TestCompareRefusals(t *testing.T) {
	s := webtest.NewSite(t)
	a := s.InsertScaled(t, "cmp:a", 1, nil)
	b := s.InsertScaled(t, "cmp:b", 1.1, nil)
	for _, c := range []struct {
		query  string
		status int
		says   string
	}{
		{"", http.StatusBadRequest, "at least two runs"},
		{"?runs=" + a, http.StatusBadRequest, "at least two runs"},
		{"?runs=" + a + ",,", http.StatusBadRequest, "at least two runs"},
		{"?runs=" + a + "," + b + "," + a + "," + b + "," + a, http.StatusBadRequest, "At most 4 runs"},
		{"?runs=" + a + "," + a, http.StatusBadRequest, "“" + a + "” is listed twice"},
		{"?runs=" + a + ",nosuchrun", http.StatusNotFound, "no run “nosuchrun”"},
		{"?runs=" + a + ",Bad%3Cid%3E", http.StatusNotFound, "no run “Bad&lt;id&gt;”"},
	} {
		resp, body := s.Get(t, "/compare"+c.query)
		if resp.StatusCode != c.status || !strings.Contains(body, c.says) {
			t.Errorf("/compare%s = %d, want %d saying %q", c.query, resp.StatusCode, c.status, c.says)
		}
	}
}

// TestCompareWith: the picker offers runs of the same model and on the same
// hardware, each linked to its comparison; the report page links to it and
// shows charts.
func TestCompareWith(t *testing.T) {
	s := webtest.NewSite(t)
	a := s.InsertScaled(t, "cmp:a", 1, nil)
	sameModel := s.InsertScaled(t, "cmp:model", 1.2, func(r *run.Run) { r.Hardware.GPUName = "RTX 4090"; r.Hardware.VRAMGB = 24 })
	sameHW := s.InsertScaled(t, "cmp:hw", 0.9, func(r *run.Run) { r.Model.ID = "Qwen/Qwen3-8B" })
	unrelated := s.InsertScaled(t, "cmp:none", 3, func(r *run.Run) {
		r.Model.ID, r.Hardware.GPUName = "openai/gpt-oss-20b", "H100 SXM"
	})
	doc := webtest.Page(t, s, "/runs/"+a)
	href, _ := doc.Find("a[data-compare-with]").Attr("href")
	if href != "/compare/with/"+a {
		t.Fatalf("compare-with link %q", href)
	}
	if n := doc.Find("#charts svg.chart").Length(); n != 3 {
		t.Errorf("report page has %d charts, want 3", n)
	}
	picker := webtest.Page(t, s, href)
	for sec, want := range map[string]string{"#same-model": sameModel, "#same-hardware": sameHW} {
		links := picker.Find(sec + " a[data-compare]")
		got, _ := links.First().Attr("href")
		if links.Length() != 1 || got != "/compare?runs="+a+","+want {
			t.Errorf("%s: %d links, first %q, want one to /compare?runs=%s,%s", sec, links.Length(), got, a, want)
		}
	}
	if picker.Find(`[data-run="`+unrelated+`"]`).Length() != 0 {
		t.Error("the picker offers a run of another model on other hardware")
	}
	if resp, _ := s.Get(t, "/compare/with/nosuchrun"); resp.StatusCode != 404 {
		t.Errorf("/compare/with/nosuchrun = %d", resp.StatusCode)
	}
}

// TestDemoBadge: a demo run's report says it is demo data; a measured one
// does not.
func TestDemoBadge(t *testing.T) {
	s := webtest.NewSite(t)
	syn := demo.One(1, 0)
	id, _, err := s.Store.InsertRun(context.Background(), syn.Run, syn.Key, syn.Source)
	if err != nil {
		t.Fatal(err)
	}
	if n := webtest.Page(t, s, "/runs/"+id).Find("header .badge.demo").Length(); n != 1 {
		t.Errorf("demo run shows %d demo badges, want 1", n)
	}
	if n := webtest.Page(t, s, "/runs/"+s.Seed(t)).Find(".badge.demo").Length(); n != 0 {
		t.Errorf("the seed run shows a demo badge")
	}
}
