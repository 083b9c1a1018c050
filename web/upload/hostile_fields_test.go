package upload_test

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// hostilePayloads go into every text field of an upload, one set per
// upload: markup for HTML, Markdown and BBCode, spreadsheet formulas at the
// start (CSV injection) and control characters (a terminal escape, BEL,
// DEL, a right-to-left override). Each fits the shortest field (64).
var hostilePayloads = []string{
	`=HYPERLINK("//e.vil","x")<script>alert(1)</script>`,
	`+1[url=javascript:x][/url][m](javascript:x)<img src=x onerror=1>`,
	`@SUM(1)|*x*|<style>p{}</style>` + "\t-1",
	"c\x07t\x1b[31ml\u202ez\x7fq\u0085w",
}

// textFields are the metadata fields that take free text.
func textFields() []string {
	var out []string
	for _, f := range ingest.MetaFields {
		if f.Kind == "text" || f.Kind == "long" {
			out = append(out, f.Name)
		}
	}
	return out
}

var (
	// mdUnescaped is a link, image or HTML tag a Markdown renderer would
	// act on: not preceded by the backslash that makes it text.
	mdUnescaped = regexp.MustCompile(`(^|[^\\])(\]\(javascript:|<(img|script|style))`)
	// xmlIllegal are the characters XML 1.0 forbids, which break an SVG.
	xmlIllegal = regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
)

// TestHostileTextEveryField uploads, for every payload, a run with the
// payload in every text field, then reads every page and export that shows
// a run's text: no page holds markup from it, no Markdown or BBCode export
// a link from it, no CSV cell a formula, every SVG and XML answer is
// well-formed, every JSON answer parses and gives the text back as sent.
func TestHostileTextEveryField(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	body := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	fields := textFields()
	if len(fields) < 14 {
		t.Fatalf("%d text fields; MetaFields has more", len(fields))
	}
	for i, payload := range hostilePayloads {
		meta := map[string]string{}
		for _, f := range fields {
			meta[f] = payload
		}
		mp, ct := webtest.MultipartBody(t, webtest.UniqueDoc(t, body, 700+i), "benchmark_results.json", meta)
		resp, out := s.Post(t, ct, mp)
		if resp.StatusCode != 201 {
			t.Fatalf("payload %d: upload = %d %v", i, resp.StatusCode, out)
		}
		id, _ := out["id"].(string)
		checkRunJSON(t, s, id, payload, fields)
		for _, path := range hostilePaths(t, s, id, seed, payload) {
			checkAnswer(t, s, path)
		}
	}
}

// hostilePaths lists every address that shows run id's text: its pages
// and exports, the lists, search, compare and the entity pages it links.
func hostilePaths(t *testing.T, s *webtest.Site, id, seed, payload string) []string {
	paths := []string{"/runs/" + id, "/runs/" + id + "/embed", "/runs/" + id + ".json", "/runs/" + id + ".csv",
		"/runs/" + id + ".md", "/runs/" + id + ".txt", "/runs/" + id + ".bbcode", "/runs/" + id + "/grid.svg",
		"/runs/" + id + "/badge.svg", "/runs/" + id + "/card.png", "/runs/" + id + "/source",
		"/runs", "/leaderboard", "/search?q=" + url.QueryEscape(payload[:8]), "/compare?runs=" + id + "," + seed,
		"/compare/with/" + id, "/api/v1/runs?limit=50", "/api/v1/hardware", "/api/v1/engines", "/api/v1/models",
		"/sitemap.xml", "/"}
	_, page := s.Get(t, "/runs/"+id)
	for _, m := range regexp.MustCompile(`href="(/(?:hardware|engines|models|submitters|orgs)/[^"?#]+)`).FindAllStringSubmatch(page, -1) {
		paths = append(paths, m[1])
	}
	return paths
}

// checkRunJSON: the run's JSON gives every field back exactly as sent.
func checkRunJSON(t *testing.T, s *webtest.Site, id, payload string, fields []string) {
	t.Helper()
	_, raw := s.Get(t, "/runs/"+id+".json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatalf("/runs/%s.json: %v", id, err)
	}
	want := strings.TrimSpace(payload)
	sub, _ := doc["submitter"].(map[string]any)
	got := map[string]any{"submitter": sub["name"]}
	for section, keys := range map[string]map[string]string{
		"hardware": {"gpu_name": "gpu_name", "cpu_name": "cpu_name", "os": "os", "driver": "driver"},
		"engine": {"engine_name": "name", "engine_version": "version", "quantization": "quantization",
			"backend": "backend", "build": "build", "launch_command": "launch_command"},
		"model": {"model_id": "id", "served_model": "served_name", "revision": "revision"},
	} {
		sec, _ := doc[section].(map[string]any)
		for field, key := range keys {
			got[field] = sec[key]
		}
	}
	for _, f := range fields {
		if got[f] != want {
			t.Errorf("%s: JSON gives %q, sent %q", f, got[f], want)
		}
	}
}

// checkAnswer reads path and checks what its kind of answer must not do.
func checkAnswer(t *testing.T, s *webtest.Site, path string) {
	t.Helper()
	resp, body := s.Get(t, path)
	if resp.StatusCode != 200 {
		t.Errorf("%s = %d", path, resp.StatusCode)
		return
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/html"):
		checkHTML(t, path, body)
	case strings.HasPrefix(ct, "application/json"):
		if !json.Valid([]byte(body)) {
			t.Errorf("%s: not valid JSON", path)
		}
	case strings.Contains(ct, "svg") || strings.Contains(ct, "xml"):
		checkXML(t, path, body)
	case strings.HasPrefix(ct, "image/png"):
		if _, err := png.Decode(strings.NewReader(body)); err != nil {
			t.Errorf("%s: not a PNG: %v", path, err)
		}
	case strings.HasPrefix(ct, "text/csv"):
		checkCSV(t, path, body)
	case strings.HasSuffix(path, ".md"):
		if m := mdUnescaped.FindString(body); m != "" {
			t.Errorf("%s: Markdown holds %q unescaped", path, m)
		}
	case strings.HasSuffix(path, ".bbcode"):
		if strings.Contains(body, "[url=javascript:") {
			t.Errorf("%s: BBCode holds a javascript: link", path)
		}
	}
}

// checkHTML parses the page as a browser would: no script without src,
// no style element or attribute, no event attribute, no javascript: link,
// and no element from a payload (an <img src=x>).
func checkHTML(t *testing.T, path, body string) {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	doc.Find("*").Each(func(_ int, el *goquery.Selection) {
		name := goquery.NodeName(el)
		if _, src := el.Attr("src"); (name == "script" && !src) || name == "style" || (name == "img" && el.AttrOr("src", "") == "x") {
			t.Errorf("%s: a <%s> element from a field", path, name)
		}
		for _, a := range el.Nodes[0].Attr {
			k, v := strings.ToLower(a.Key), strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(k, "on") || k == "style" ||
				((k == "href" || k == "src" || k == "action") && strings.HasPrefix(v, "javascript:")) {
				t.Errorf("%s: <%s %s=%q>", path, name, a.Key, a.Val)
			}
		}
	})
}

// checkXML: well-formed XML (no character XML forbids), no script element
// and no event attribute.
func checkXML(t *testing.T, path, body string) {
	t.Helper()
	if m := xmlIllegal.FindString(body); m != "" {
		t.Errorf("%s holds %q, which XML forbids: the image does not load", path, m)
	}
	d := xml.NewDecoder(strings.NewReader(body))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s: not well-formed XML: %v", path, err)
			return
		}
		if el, ok := tok.(xml.StartElement); ok {
			if strings.EqualFold(el.Name.Local, "script") || strings.EqualFold(el.Name.Local, "foreignObject") {
				t.Errorf("%s: a <%s> element", path, el.Name.Local)
			}
			for _, a := range el.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("%s: event attribute %s", path, a.Name.Local)
				}
			}
		}
	}
}

// checkCSV: no cell a spreadsheet would run as a formula.
func checkCSV(t *testing.T, path, body string) {
	t.Helper()
	records, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Errorf("%s: %v", path, err)
		return
	}
	for _, rec := range records {
		for _, cell := range rec {
			if c := strings.TrimLeft(cell, " "); c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
				if _, err := json.Number(c).Float64(); err != nil { // a negative number is data
					t.Errorf("%s: cell %q starts a formula", path, cell)
				}
			}
		}
	}
}

// TestNULInEveryTextField: a NUL in any text field is refused with 422
// naming that field, and nothing is stored (PostgreSQL cannot keep NUL in
// text, and a terminal would cut the line there).
func TestNULInEveryTextField(t *testing.T) {
	s := webtest.NewSite(t)
	body := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	before := s.RowCounts(t)
	for _, f := range textFields() {
		mp, ct := webtest.MultipartBody(t, body, "benchmark_results.json", map[string]string{f: "a\x00b"})
		resp, out := s.Post(t, ct, mp)
		probs, _ := out["problems"].([]any)
		var p map[string]any
		if len(probs) > 0 {
			p, _ = probs[0].(map[string]any)
		}
		if resp.StatusCode != 422 || p["path"] != f || !strings.Contains(p["message"].(string), "NUL") {
			t.Errorf("%s with a NUL: %d %v", f, resp.StatusCode, out)
		}
	}
	if after := s.RowCounts(t); after != before {
		t.Errorf("refused uploads changed rows: %s → %s", before, after)
	}
}
