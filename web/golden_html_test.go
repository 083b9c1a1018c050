package web_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func page(t *testing.T, s *site, path string, headers ...string) *goquery.Document {
	t.Helper()
	resp, body := s.get(t, path, headers...)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d", path, resp.StatusCode)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func texts(sel *goquery.Selection) []string {
	var out []string
	sel.Each(func(_ int, c *goquery.Selection) { out = append(out, strings.TrimSpace(c.Text())) })
	return out
}

// TestSeedReportHTML compares the rendered report of the seed run with the
// seed page: the header, every row of All measurements (12 columns), every
// cell of the decode grid and every prefill row, as text.
func TestSeedReportHTML(t *testing.T) {
	s := newSite(t)
	id := s.seedVerified(t) // the seed site shows Sandberg verified
	doc := page(t, s, "/runs/"+id)

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
		got := texts(tr.Find("td"))
		if strings.Join(got, "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d:\n got  %q\n want %q", i, got, want[i])
		}
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
			got := strings.Join(texts(td.Find("span")), "|")
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
