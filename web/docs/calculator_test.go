package docs_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// facts reads a result's <dl> into label → value.
func facts(doc *goquery.Document, sel string) map[string]string {
	out := map[string]string{}
	doc.Find(sel + " dt").Each(func(_ int, dt *goquery.Selection) {
		out[strings.TrimSpace(dt.Text())] = strings.TrimSpace(dt.Next().Text())
	})
	return out
}

// TestCalculatorResult: the worked example's address gives its bound, the
// form comes back filled in, the grid has the report's axes with the asked
// cell marked, and the page links its own short address.
func TestCalculatorResult(t *testing.T) {
	s := webtest.NewSite(t)
	doc := webtest.Page(t, s, "/calculator?gpu=rtx-3060-12gb&model=Qwen/Qwen3.5-4B&weights=fp8&kv=int4&config=&context=0&concurrency=1&spec_tokens=0&acceptance=0.7")
	if h := strings.TrimSpace(doc.Find("#h-result").Text()); h != "Qwen3.5-4B on RTX 3060 12GB" {
		t.Errorf("result heading %q", h)
	}
	b := facts(doc, "#calc-bound")
	if b["Decode bound, all requests"] != "72.8 tok/s" || b["Limited by"] != "memory bandwidth" {
		t.Errorf("bound facts %v", b)
	}
	if m := facts(doc, "#calc-memory"); m["Needed for 1 request"] != "4.89 GB of 10.8 GB usable: fits" {
		t.Errorf("memory facts %v", m)
	}
	if v, _ := doc.Find(`#calc-weights option[selected]`).Attr("value"); v != "fp8" {
		t.Errorf("weights select shows %q, want fp8", v)
	}
	if got := doc.Find("#calc-grid tbody tr").Length(); got != 5 {
		t.Errorf("%d grid rows, want 5 contexts", got)
	}
	if cur := strings.TrimSpace(doc.Find(`#calc-grid td[aria-current]`).Text()); cur != "72.8" {
		t.Errorf("marked cell %q, want 72.8", cur)
	}
	link, _ := doc.Find("#calc-link").Attr("href")
	if link != "/calculator?gpu=rtx-3060-12gb&kv=int4&model=Qwen%2FQwen3.5-4B&weights=fp8#result" {
		t.Errorf("link %q", link)
	}
	if doc.Find(`#calc-sources a[href^="https://"]`).Length() != 2 {
		t.Error("the result does not name the GPU's and the model's sources")
	}
}

// TestCalculatorGridHasTheAskedCell: a context and concurrency off the
// report's axes join them, marked.
func TestCalculatorGridHasTheAskedCell(t *testing.T) {
	s := webtest.NewSite(t)
	doc := webtest.Page(t, s, "/calculator?gpu=rtx-4090-24gb&model=Qwen/Qwen3-8B&context=8192&concurrency=3")
	rows, cols := doc.Find("#calc-grid tbody tr").Length(), doc.Find("#calc-grid thead th").Length()
	if rows != 6 || cols != 10 {
		t.Errorf("grid %d rows × %d header cells, want 6 × 10", rows, cols)
	}
	cur := doc.Find("#calc-grid td[aria-current]")
	if cur.Length() != 1 || strings.TrimSpace(cur.Parent().Find("th").Text()) != "8K" {
		t.Errorf("%d marked cells, in row %q", cur.Length(), cur.Parent().Find("th").Text())
	}
}

// TestCalculatorPastedConfig: a config.json in the form describes the
// model; one the reader cannot use is a 422 naming its field.
func TestCalculatorPastedConfig(t *testing.T) {
	s := webtest.NewSite(t)
	cfg := `{"text_config":{"hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,"vocab_size":128256}}`
	doc := webtest.Page(t, s, "/calculator?gpu=rtx-4090-24gb&config="+url.QueryEscape(cfg))
	m := facts(doc, "#calc-memory")
	if m["Weights"] != "16.1 GB" {
		t.Errorf("memory facts %v, want 16.1 GB of weights (Llama-3.1-8B in BF16)", m)
	}
	if !strings.Contains(doc.Find("#h-result").Text(), "the pasted model") {
		t.Errorf("heading %q", doc.Find("#h-result").Text())
	}
	resp, body := s.Get(t, "/calculator?gpu=rtx-4090-24gb&config="+url.QueryEscape(`{"hidden_size":4096}`))
	if resp.StatusCode != 422 || !strings.Contains(body, "num_hidden_layers") {
		t.Errorf("unusable config: %d, body names the field: %v", resp.StatusCode, strings.Contains(body, "num_hidden_layers"))
	}
}

// TestCalculatorRefusals: unknown ids and out-of-range numbers are 422s
// that keep the form and say which field.
func TestCalculatorRefusals(t *testing.T) {
	s := webtest.NewSite(t)
	for q, field := range map[string]string{
		"gpu=nope&model=Qwen/Qwen3-8B":                     "#calc-gpu",
		"gpu=rtx-4090-24gb&model=nope":                     "#calc-model",
		"gpu=rtx-4090-24gb&model=Qwen/Qwen3-8B&context=-1": "#calc-context",
		"gpu=rtx-4090-24gb&model=Qwen/Qwen3-8B&kv=fp2":     "#calc-kv",
	} {
		resp, body := s.Get(t, "/calculator?"+q)
		if resp.StatusCode != 422 {
			t.Errorf("%s = %d, want 422", q, resp.StatusCode)
		}
		if !strings.Contains(body, `href="`+field+`"`) || strings.Contains(body, `id="h-result"`) {
			t.Errorf("%s: the errors do not link %s, or a result shows", q, field)
		}
	}
}

// TestCalculatorDocs: the page explains the formulas in each language and
// lists every GPU and model with a source.
func TestCalculatorDocs(t *testing.T) {
	s := webtest.NewSite(t)
	doc := webtest.Page(t, s, "/docs/calculator")
	if doc.Find("#calc-docs-gpus tbody tr").Length() < 40 || doc.Find("#calc-docs-models tbody tr").Length() < 14 {
		t.Error("the docs do not list the tables")
	}
	if doc.Find(`#calc-docs-gpus tbody tr td a[href^="https://"]`).Length() != doc.Find("#calc-docs-gpus tbody tr").Length() {
		t.Error("a GPU row lacks its source link")
	}
	ja := webtest.Page(t, s, "/docs/calculator?lang=ja")
	if h := ja.Find("article h1").First().Text(); h != "デコード計算機のしくみ" {
		t.Errorf("Japanese docs heading %q", h)
	}
	// Board power: a known GPU's figure in the GPUs' table and in its own
	// with its own source, an unknown one worded as such, never 0.
	for lang, want := range map[string][2]string{"en": {"700", "unknown"}, "ja": {"700", "不明"}, "de": {"700", "unbekannt"}} {
		page := webtest.Page(t, s, "/docs/calculator?lang="+lang)
		head := page.Find("#calc-docs-gpus thead th").Eq(5).Text()
		if head == "" || head != page.Find("#calc-docs-board-power thead th").Eq(1).Text() {
			t.Errorf("%s: the board power column is headed %q", lang, head)
		}
		cell := func(table, gpu string, col int) string {
			row := page.Find(table + " tbody tr").FilterFunction(func(_ int, r *goquery.Selection) bool {
				return r.Find("th").Text() == gpu
			})
			return row.Find("td").Eq(col).Text()
		}
		if got := cell("#calc-docs-gpus", "H100 SXM 80GB", 4); got != want[0] {
			t.Errorf("%s: H100 SXM's board power in the GPUs' table = %q, want %q", lang, got, want[0])
		}
		if got := cell("#calc-docs-gpus", "RTX 4090 24GB", 4); got != want[1] {
			t.Errorf("%s: the RTX 4090's board power = %q, want %q", lang, got, want[1])
		}
		if got := cell("#calc-docs-board-power", "H100 SXM 80GB", 0); got != want[0] {
			t.Errorf("%s: H100 SXM's row of the board power table = %q, want %q", lang, got, want[0])
		}
		if href, _ := page.Find(`#calc-docs-board-power tbody tr:first-child td a`).Attr("href"); !strings.HasPrefix(href, "https://") {
			t.Errorf("%s: the board power table's first row lacks its source (%q)", lang, href)
		}
	}
	if href, _ := webtest.Page(t, s, "/").Find(`header nav a[href="/calculator"]`).Attr("href"); href != "/calculator" {
		t.Error("the header does not link the calculator")
	}
}

// TestCalculatorAPI: the JSON answer carries the page's numbers, and a
// field it cannot use is a 422 whose problem path is the field.
func TestCalculatorAPI(t *testing.T) {
	s := webtest.NewSite(t)
	resp, body := s.Get(t, "/api/v1/calculator?gpu=rtx-3060-12gb&model=RedHatAI/Qwen3.5-4B-FP8-dynamic&weights=fp8&kv=int4")
	var a struct {
		Bound struct {
			TotalTPS float64 `json:"total_tps"`
			BoundBy  string  `json:"bound_by"`
		}
		Memory struct {
			WeightsGB float64 `json:"weights_gb"`
			Fits      bool
		}
		Sources []struct{ Confidence string }
	}
	if err := json.Unmarshal([]byte(body), &a); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v: %s", resp.StatusCode, err, body)
	}
	if a.Bound.TotalTPS < 72.5 || a.Bound.TotalTPS > 73.1 || a.Bound.BoundBy != "memory" || !a.Memory.Fits || len(a.Sources) != 2 {
		t.Errorf("answer %+v", a)
	}
	for q, field := range map[string]string{"gpu=nope&model=Qwen/Qwen3-8B": "gpu", "gpu=l4-24gb&model=nope": "model", "gpu=l4-24gb&model=Qwen/Qwen3-8B&concurrency=0": "concurrency"} {
		resp, body := s.Get(t, "/api/v1/calculator?"+q)
		if resp.StatusCode != 422 || !strings.Contains(body, `"path": "`+field+`"`) {
			t.Errorf("%s = %d %s, want 422 naming %s", q, resp.StatusCode, body, field)
		}
	}
}
