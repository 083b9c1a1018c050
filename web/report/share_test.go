package report_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/share"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// runDoc is /runs/{id}.json, the numbers every export must agree with.
func runDoc(t *testing.T, s *webtest.Site, id string) export.Document {
	t.Helper()
	_, body := s.Get(t, "/runs/"+id+".json")
	var doc export.Document
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func enLocalizer(t *testing.T) *i18n.Localizer {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	return b.Localizer("en")
}

// TestShareCSV: the CSV parses (RFC 4180) and carries every measurement of
// the JSON, numbers at full precision.
func TestShareCSV(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	doc := runDoc(t, s, id)
	resp, body := s.Get(t, "/runs/"+id+".csv?lang=en")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("GET .csv = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.Contains(body, "\r\n") {
		t.Error("lines do not end in CRLF (RFC 4180)")
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(share.CSVHeader, ",") {
		t.Fatalf("header %v", recs[0])
	}
	recs = recs[1:]
	if len(recs) != len(doc.Prefill)+len(doc.Decode) || len(doc.Decode) != 48 {
		t.Fatalf("%d rows for %d prefill rows and %d cells", len(recs), len(doc.Prefill), len(doc.Decode))
	}
	col := map[string]int{}
	for i, h := range share.CSVHeader {
		col[h] = i
	}
	same := func(what, field string, v *float64) {
		t.Helper()
		if v == nil {
			if field != "" {
				t.Errorf("%s = %q, JSON has none", what, field)
			}
			return
		}
		got, err := strconv.ParseFloat(field, 64)
		if err != nil || got != *v {
			t.Errorf("%s = %q, JSON has %v", what, field, *v)
		}
	}
	for i, p := range doc.Prefill {
		rec := recs[i]
		if rec[col["phase"]] != "prefill" || rec[col["context"]] != strconv.Itoa(p.Context) || rec[col["status"]] != string(p.Status) {
			t.Errorf("prefill row %d = %v", i, rec)
		}
		same("prompt_tps", rec[col["prompt_tps"]], p.PromptTPS)
		same("ttft_ms", rec[col["ttft_ms"]], p.TTFTms)
	}
	for i, c := range doc.Decode {
		rec := recs[len(doc.Prefill)+i]
		what := "cell " + report.ContextLabel(c.Context) + "×" + strconv.Itoa(c.Concurrency)
		if rec[col["context"]] != strconv.Itoa(c.Context) || rec[col["concurrency"]] != strconv.Itoa(c.Concurrency) ||
			rec[col["status"]] != string(c.Status) {
			t.Errorf("%s = %v", what, rec)
		}
		if c.Status != run.Valid && rec[col["reason"]] == "" {
			t.Errorf("%s: %s without a reason", what, c.Status)
		}
		same(what+" total_tps", rec[col["total_tps"]], c.TotalTPS)
		same(what+" tbt_ms", rec[col["tbt_ms"]], c.TBTms)
		same(what+" measured_s", rec[col["measured_s"]], c.MeasuredS)
		same(what+" bound_tps", rec[col["bound_tps"]], c.BoundTPS)
		same(what+" efficiency", rec[col["efficiency"]], c.Efficiency)
		if (c.Status == run.Valid || c.Status == run.Queued) && c.Efficiency == nil {
			t.Errorf("%s: %s without an efficiency", what, c.Status)
		}
	}
	if cd := resp.Header.Get("Content-Disposition"); !strings.Contains(cd, "attachment") {
		t.Errorf("Content-Disposition %q", cd)
	}
}

// mdTables parses Markdown with GitHub's table extension (goldmark, as
// GitHub renders it) and returns every table as rows of cell texts, header
// first, as a reader sees them.
func mdTables(t *testing.T, src []byte) [][][]string {
	t.Helper()
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(src, &html); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&html)
	if err != nil {
		t.Fatal(err)
	}
	var tables [][][]string
	doc.Find("table").Each(func(_ int, tb *goquery.Selection) {
		var rows [][]string
		tb.Find("tr").Each(func(_ int, tr *goquery.Selection) {
			var cells []string
			tr.Find("th, td").Each(func(_ int, c *goquery.Selection) { cells = append(cells, c.Text()) })
			rows = append(rows, cells)
		})
		tables = append(tables, rows)
	})
	return tables
}

// TestShareMarkdown: the Markdown export parses into a decode table and a
// prefill table whose cells say, through report's formatters, what the
// JSON holds.
func TestShareMarkdown(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	doc := runDoc(t, s, id)
	l := enLocalizer(t)
	resp, body := s.Get(t, "/runs/"+id+".md?lang=en")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("GET .md = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	tables := mdTables(t, []byte(body))
	if len(tables) != 2 {
		t.Fatalf("%d tables in:\n%s", len(tables), body)
	}
	grid, prefill := tables[0], tables[1]
	cols := map[string]int{}
	for i, h := range grid[0][1:] {
		cols[h] = i + 1
	}
	rows := map[string][]string{}
	for _, r := range grid[1:] {
		rows[r[0]] = r
	}
	if len(cols) != 8 || len(rows) != 6 {
		t.Fatalf("grid %d×%d: %v", len(rows), len(cols), grid)
	}
	for _, c := range doc.Decode {
		row, ok := rows[report.ContextLabel(c.Context)]
		if !ok {
			t.Fatalf("no row %s", report.ContextLabel(c.Context))
		}
		got := row[cols[l.Int(int64(c.Concurrency))]]
		want := report.StatusLabel(l, c.Status)
		if c.Status == run.Valid || c.Status == run.Queued {
			want = report.FormatTPSCompact(l, c.TotalTPS) + " · " + report.FormatTTFT(l, c.TTFTms)
			if c.Status == run.Queued {
				want += " (" + report.StatusLabel(l, c.Status) + ")"
			}
		}
		if got != want {
			t.Errorf("cell %s×%d = %q, JSON says %q", report.ContextLabel(c.Context), c.Concurrency, got, want)
		}
	}
	if len(prefill) != len(doc.Prefill)+1 {
		t.Fatalf("prefill table %v", prefill)
	}
	for i, p := range doc.Prefill {
		want := []string{report.ContextLabel(p.Context), report.FormatTPSCompact(l, p.PromptTPS), report.FormatTTFT(l, p.TTFTms)}
		if strings.Join(prefill[i+1], "|") != strings.Join(want, "|") {
			t.Errorf("prefill row %v, want %v", prefill[i+1], want)
		}
	}
	if !strings.Contains(body, "]("+s.URL+"/runs/"+id+")") {
		t.Errorf("no link back to the report in:\n%s", body)
	}
	for _, ext := range []string{".txt", ".bbcode"} {
		resp, body := s.Get(t, "/runs/"+id+ext+"?lang=en")
		if resp.StatusCode != 200 || !strings.Contains(body, "63.5 tok/s single stream · 546 tok/s peak") ||
			!strings.Contains(body, "63.5 · 96 ms") {
			t.Errorf("GET %s = %d:\n%s", ext, resp.StatusCode, body)
		}
	}
	if resp, _ := s.Get(t, "/runs/nosuchrun.md"); resp.StatusCode != 404 {
		t.Errorf("unknown run's export = %d", resp.StatusCode)
	}
}

// ingestDemo stores a demo document and returns its id.
func ingestDemo(t *testing.T, s *webtest.Site, name, modelID string) string {
	t.Helper()
	u, err := demo.Upload(name)
	if err != nil {
		t.Fatal(err)
	}
	if modelID != "" {
		if u.Fields == nil {
			u.Fields = map[string]string{}
		}
		u.Fields["model_id"] = modelID
	}
	res, err := ingest.Ingest(context.Background(), s.Store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// TestShareOpenGraph: a run page carries OpenGraph and Twitter tags with
// the headline and the absolute card URL, escaped even when the model name
// is markup.
func TestShareOpenGraph(t *testing.T) {
	s := webtest.NewSite(t)
	evil := `x/"><img src=x onerror=alert(1)>'`
	id := ingestDemo(t, s, demo.SeedRun, evil)
	_, body := s.Get(t, "/runs/"+id+"?lang=en")
	if strings.Contains(body, "<img src=x") {
		t.Fatal("the model name reached the page unescaped")
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	meta := func(attr, key string) string {
		v, ok := doc.Find(`meta[` + attr + `="` + key + `"]`).Attr("content")
		if !ok {
			t.Errorf("no <meta %s=%q>", attr, key)
		}
		return v
	}
	headline := `"><img src=x onerror=alert(1)>' on RTX 3060 12GB · vLLM 0.32.0 · 63.5 tok/s single stream · 546 tok/s peak`
	if got := meta("property", "og:description"); got != headline {
		t.Errorf("og:description = %q", got)
	}
	if got := meta("name", "twitter:description"); got != headline {
		t.Errorf("twitter:description = %q", got)
	}
	if got := meta("property", "og:title"); !strings.HasSuffix(got, " on RTX 3060 12GB") {
		t.Errorf("og:title = %q", got)
	}
	card := s.URL + "/runs/" + id + "/card.png?lang=en"
	if got := meta("property", "og:image"); got != card {
		t.Errorf("og:image = %q, want %q", got, card)
	}
	if got := meta("name", "twitter:image"); got != card {
		t.Errorf("twitter:image = %q", got)
	}
	if got := meta("name", "twitter:card"); got != "summary_large_image" {
		t.Errorf("twitter:card = %q", got)
	}
	if got := meta("property", "og:url"); got != s.URL+"/runs/"+id+"?lang=en" {
		t.Errorf("og:url = %q", got)
	}
	if n := doc.Find(`meta[property="og:title"]`).Length(); n != 1 {
		t.Errorf("%d og:title tags", n)
	}
	// The Share panel's Markdown is the export's.
	_, md := s.Get(t, "/runs/"+id+".md?lang=en")
	if got := doc.Find("#share-md").Text(); got != md {
		t.Errorf("Share panel Markdown differs from /runs/{id}.md:\n%s\n---\n%s", got, md)
	}
}

// TestShareCard: the card is a 1200×630 PNG, different for another run,
// and revalidates with its ETag.
func TestShareCard(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	lil := ingestDemo(t, s, "lilbench-2x-rtx-pro-6000.json", "")
	var cards [][]byte
	for _, id := range []string{seed, lil} {
		resp, body := s.Get(t, "/runs/"+id+"/card.png?lang=ja")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("card = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		img, err := png.Decode(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
			t.Errorf("card is %v", b)
		}
		if !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=") {
			t.Errorf("Cache-Control %q", resp.Header.Get("Cache-Control"))
		}
		cards = append(cards, []byte(body))
		resp, body = s.Get(t, "/runs/"+id+"/card.png?lang=ja", "If-None-Match: "+resp.Header.Get("ETag"))
		if resp.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("revalidation = %d", resp.StatusCode)
		}
	}
	if bytes.Equal(cards[0], cards[1]) {
		t.Error("two runs have the same card")
	}
	if resp, _ := s.Get(t, "/runs/nosuchrun/card.png"); resp.StatusCode != 404 {
		t.Errorf("unknown run's card = %d", resp.StatusCode)
	}
}

// TestShareSVGs: grid.svg and badge.svg are well-formed SVG.
func TestShareSVGs(t *testing.T) {
	s := webtest.NewSite(t)
	id := ingestDemo(t, s, demo.SeedRun, `a&b/<c> "d"`)
	for _, p := range []string{"grid.svg", "badge.svg"} {
		for _, lang := range []string{"en", "zh-Hans"} {
			resp, body := s.Get(t, "/runs/"+id+"/"+p+"?lang="+lang)
			if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "image/svg+xml") {
				t.Fatalf("%s = %d %s", p, resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			d := xml.NewDecoder(strings.NewReader(body))
			root := ""
			for {
				tok, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s in %s is not XML: %v", p, lang, err)
				}
				if se, ok := tok.(xml.StartElement); ok && root == "" {
					root = se.Name.Space + " " + se.Name.Local
				}
			}
			if root != "http://www.w3.org/2000/svg svg" {
				t.Errorf("%s root %q", p, root)
			}
		}
	}
	_, grid := s.Get(t, "/runs/"+id+"/grid.svg?lang=en")
	if !strings.Contains(grid, ">63.5<") || !strings.Contains(grid, ">Over capacity<") {
		t.Error("grid.svg lacks the 0×1 figure or a status label")
	}
}

// TestShareEmbed: the embed page may be framed by any origin (and only it),
// and names the report as canonical.
func TestShareEmbed(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	resp, body := s.Get(t, "/runs/"+id+"/embed?lang=en")
	if resp.StatusCode != 200 {
		t.Fatalf("embed = %d", resp.StatusCode)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "frame-ancestors *") ||
		!strings.Contains(csp, "script-src 'self'") {
		t.Errorf("embed CSP %q", csp)
	}
	if resp.Header.Get("X-Frame-Options") != "" {
		t.Errorf("X-Frame-Options %q", resp.Header.Get("X-Frame-Options"))
	}
	if !strings.Contains(body, `<link rel="canonical" href="`+s.URL+"/runs/"+id+`?lang=en"`) {
		t.Error("the embed page does not name the report as canonical")
	}
	if !strings.Contains(body, `table class="grid"`) {
		t.Error("no grid on the embed page")
	}
	resp, _ = s.Get(t, "/runs/"+id)
	if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Error("the report page may be framed")
	}
}

// TestShareSitemap: sitemap.xml lists the pages and runs with hreflang
// alternates; robots.txt names it.
func TestShareSitemap(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	resp, body := s.Get(t, "/sitemap.xml")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/xml") {
		t.Fatalf("sitemap = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var set struct {
		URLs []struct {
			Loc   string `xml:"loc"`
			Links []struct {
				Rel      string `xml:"rel,attr"`
				Hreflang string `xml:"hreflang,attr"`
				Href     string `xml:"href,attr"`
			} `xml:"http://www.w3.org/1999/xhtml link"`
		} `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 url"`
	}
	if err := xml.Unmarshal([]byte(body), &set); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, u := range set.URLs {
		if u.Loc != s.URL+"/runs/"+id {
			continue
		}
		found = true
		langs := map[string]string{}
		for _, l := range u.Links {
			langs[l.Hreflang] = l.Href
		}
		for _, lang := range i18n.Languages {
			if langs[lang.Tag] != u.Loc+"?lang="+lang.Tag {
				t.Errorf("alternate %s = %q", lang.Tag, langs[lang.Tag])
			}
		}
		if langs["x-default"] != u.Loc {
			t.Errorf("x-default = %q", langs["x-default"])
		}
	}
	if !found || len(set.URLs) < 2 {
		t.Errorf("run %s not in the sitemap:\n%s", id, body)
	}
	_, robots := s.Get(t, "/robots.txt")
	if !strings.Contains(robots, "Sitemap: "+s.URL+"/sitemap.xml") || !strings.Contains(robots, "User-agent: *") {
		t.Errorf("robots.txt:\n%s", robots)
	}
	// One sitemap per language lists each page at its address in that
	// language; robots.txt names them all.
	for _, lang := range i18n.Languages {
		if !strings.Contains(robots, "Sitemap: "+s.URL+"/sitemap-"+lang.Tag+".xml\n") {
			t.Errorf("robots.txt lacks the %s sitemap", lang.Tag)
		}
		resp, body := s.Get(t, "/sitemap-"+lang.Tag+".xml")
		if resp.StatusCode != 200 {
			t.Fatalf("sitemap-%s = %d", lang.Tag, resp.StatusCode)
		}
		if !strings.Contains(body, "<loc>"+s.URL+"/runs/"+id+"?lang="+lang.Tag+"</loc>") ||
			!strings.Contains(body, `hreflang="x-default" href="`+s.URL+"/runs/"+id+`"`) {
			t.Errorf("sitemap-%s lacks the run at its %s address:\n%.600s", lang.Tag, lang.Tag, body)
		}
	}
	for _, bad := range []string{"/sitemap-xx.xml", "/sitemap-zh-TW.xml", "/sitemap-JA.xml"} {
		if resp, _ := s.Get(t, bad); resp.StatusCode != 404 {
			t.Errorf("%s = %d, want 404", bad, resp.StatusCode)
		}
	}
}
