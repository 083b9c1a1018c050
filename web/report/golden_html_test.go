package report_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestSeedReportHTML compares the rendered report of the seed run with the
// seed page: the header, every row of All measurements (12 columns), every
// cell of the decode grid and every prefill row, as text.
func TestSeedReportHTML(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.SeedVerified(t) // the seed site shows Sandberg verified
	doc := webtest.Page(t, s, "/runs/"+id)

	for sel, want := range map[string]string{
		"h1": "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB",
	} {
		if got := strings.TrimSpace(doc.Find(sel).First().Text()); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	header := strings.Join(strings.Fields(doc.Find("header, .run-head").First().Text()), " ")
	for _, want := range []string{"vllm · 0.32.0 · FP8 dynamic",
		"6 contexts (0–248K) × 8 concurrency levels (1–128) · prefill at 8K, 16K, 32K, 64K, 128K",
		"by @Sandberg", "llm-inference-bench v0.8.0", "Measured"} {
		if !strings.Contains(strings.Join(strings.Fields(doc.Text()), " "), want) {
			t.Errorf("page lacks %q (header: %q)", want, header)
		}
	}

	rows := doc.Find("table.measurements tbody tr")
	want := tsv(t, "all-measurements.tsv")
	if rows.Length() != len(want) {
		t.Fatalf("%d measurement rows, want %d", rows.Length(), len(want))
	}
	rows.Each(func(i int, tr *goquery.Selection) {
		// The seed's twelve columns, the status column by its label; the
		// reason beside it and the efficiency column are checked below.
		tds := tr.Find("td")
		got := webtest.Texts(tds.Slice(0, 12))
		got[3] = strings.TrimSpace(tds.Eq(3).Find(".st").Text())
		if strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d:\n got  %q\n want %q", i, got, want[i])
		}
		checkBoundColumns(t, tr, want[i])
	})

	gridRows := doc.Find("table.grid tbody tr")
	wantGrid := tsv(t, "grid.tsv")
	if gridRows.Length() != len(wantGrid) {
		t.Fatalf("%d grid rows, want %d", gridRows.Length(), len(wantGrid))
	}
	gridRows.Each(func(i int, tr *goquery.Selection) {
		if label := strings.TrimSpace(tr.Find("th").Text()); label != wantGrid[i][0] {
			t.Errorf("grid row %d label %q, want %q", i, label, wantGrid[i][0])
		}
		tr.Find("td").Each(func(j int, td *goquery.Selection) {
			got := strings.Join(webtest.Texts(td.Find("span:not(.eff)")), "|")
			key := wantGrid[i][0] + "×" + doc.Find("table.grid thead th").Eq(j+1).Text()
			if eff, ok := seedEfficiency[key]; ok && strings.TrimSpace(td.Find(".eff").Text()) != eff+" of bound" {
				t.Errorf("grid %s efficiency %q, want %s of bound", key, td.Find(".eff").Text(), eff)
			}
			if got != wantGrid[i][j+1] {
				t.Errorf("grid %s × column %d = %q, want %q", wantGrid[i][0], j, got, wantGrid[i][j+1])
			}
		})
	})

	for i, want := range tsv(t, "prefill.tsv") {
		li := doc.Find("ul.prefill li").Eq(i)
		got := []string{strings.TrimSpace(li.Find(".ctx").Text()), strings.TrimSpace(li.Find(".tps").Text()), strings.TrimSpace(li.Find(".ttft").Text())}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("prefill %d = %q, want %q", i, got, want)
		}
	}
}

// seedEfficiency is the seed's measured ÷ bound where the worked example
// computes it by hand (FP8 weights, BF16 lm_head, int4 KV cache, no
// speculation, 360 GB/s): 63.5 of 72.8, 428.8 of 508, 31.6 of 69.1.
var seedEfficiency = map[string]string{"0×1": "87 %", "0×8": "84 %", "32K×1": "46 %"}

// checkBoundColumns: a valid or queued decode row has its share of the
// bound as a percentage (the worked example's where it has one), any other
// row a dash; a row with a reason shows it as text, not only as a title.
func checkBoundColumns(t *testing.T, tr *goquery.Selection, seed []string) {
	t.Helper()
	eff := strings.TrimSpace(tr.Find("td.eff").Text())
	key := seed[1] + "×" + seed[2]
	switch {
	case seed[0] == "Sustained decode" && (seed[3] == "Valid" || seed[3] == "Requests queued"):
		if want, ok := seedEfficiency[key]; ok && eff != want {
			t.Errorf("row %s efficiency %q, want %q", key, eff, want)
		}
		if !strings.HasSuffix(eff, " %") {
			t.Errorf("row %s efficiency %q, want a percentage", key, eff)
		}
	case eff != "—":
		t.Errorf("row %s %s efficiency %q, want —", seed[0], key, eff)
	}
	reason := strings.TrimSpace(tr.Find("td .reason").Text())
	if (seed[3] != "Valid") != (reason != "") {
		t.Errorf("row %s %s (%s): reason %q", seed[0], key, seed[3], reason)
	}
	if _, ok := tr.Find("td[title]").Attr("title"); ok {
		t.Errorf("row %s %s: a cell still explains itself only in a title", seed[0], key)
	}
}
