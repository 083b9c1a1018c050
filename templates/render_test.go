package templates

import (
	"bytes"
	"context"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/planview"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// render renders c in tag's language and parses it, failing the test on a
// render error or a message id the locale lacks.
func render(t *testing.T, tag string, c func(l *i18n.Localizer) templ.Component) *goquery.Document {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	l := b.Localizer(tag)
	var buf bytes.Buffer
	if err := c(l).Render(i18n.WithLocalizer(context.Background(), l), &buf); err != nil {
		t.Fatalf("%s: render: %v", tag, err)
	}
	if m := l.Missing(); len(m) > 0 {
		t.Errorf("%s: missing messages %v", tag, m)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func base(l *i18n.Localizer, path, title string) Base {
	u, _ := url.Parse(path)
	return NewBase(l, "https://speedmatrix.example", u, title, "")
}

func reportDoc(t *testing.T, tag string, r *run.Run) *goquery.Document {
	return render(t, tag, func(l *i18n.Localizer) templ.Component {
		v := report.Build(r, l)
		return ReportPage(base(l, "/runs/"+r.ID, v.Title), v, chart.ForRun(l, r), nil)
	})
}

// TestReportPageLocales renders the report in every language and checks it
// by selector: language, labels, grid shape and statuses.
func TestReportPageLocales(t *testing.T) {
	want := map[string]struct{ hardware, overCapacity, measurements string }{
		"en":      {"Hardware", "Over capacity", "All measurements"},
		"ja":      {"ハードウェア", "容量超過", "全測定値"},
		"zh-Hans": {"硬件", "超出容量", "全部测量值"},
		"ko":      {"하드웨어", "용량 초과", "전체 측정값"},
		"de":      {"Hardware", "Kapazität überschritten", "Alle Messwerte"},
		"es":      {"Equipo", "Sin capacidad", "Todas las mediciones"},
		"fr":      {"Matériel", "Capacité dépassée", "Toutes les mesures"},
		"pt-BR":   {"Hardware", "Acima da capacidade", "Todas as medições"},
	}
	for _, lang := range i18n.Languages {
		w, ok := want[lang.Tag]
		if !ok {
			t.Fatalf("no expectations for %s: add its words to this table", lang.Tag)
		}
		doc := reportDoc(t, lang.Tag, reporttest.Run())
		if got, _ := doc.Find("html").Attr("lang"); got != lang.Tag {
			t.Errorf("%s: <html lang=%q>", lang.Tag, got)
		}
		if got := doc.Find("#h-hardware").Text(); got != w.hardware {
			t.Errorf("%s: hardware heading %q", lang.Tag, got)
		}
		if got := doc.Find("#h-measurements").Text(); got != w.measurements {
			t.Errorf("%s: measurements heading %q", lang.Tag, got)
		}
		cells := doc.Find("table.grid td.cell")
		if cells.Length() != 9 {
			t.Errorf("%s: %d grid cells, want 9", lang.Tag, cells.Length())
		}
		counts := map[string]int{}
		cells.Each(func(_ int, s *goquery.Selection) { counts[s.AttrOr("data-status", "?")]++ })
		wantCounts := map[string]int{"valid": 2, "queued": 2, "failed": 1, "over_capacity": 3, "not_measured": 1}
		for st, n := range wantCounts {
			if counts[st] != n {
				t.Errorf("%s: %d %s cells, want %d (%v)", lang.Tag, counts[st], st, n, counts)
			}
		}
		oc := doc.Find(`td.cell[data-context="253952"][data-concurrency="16"]`)
		// The label is the disclosure's summary; the reason opens under it.
		if got := strings.TrimSpace(oc.Find("details.why > summary .st").Text()); got != w.overCapacity {
			t.Errorf("%s: over-capacity cell label %q, want %q", lang.Tag, got, w.overCapacity)
		}
		if why := strings.TrimSpace(oc.Find("details.why > p").Text()); why == "" {
			t.Errorf("%s: the over-capacity cell does not open to its reason", lang.Tag)
		}
		if _, ok := oc.Attr("style"); ok {
			t.Errorf("%s: a non-valid cell is coloured", lang.Tag)
		}
		if n := doc.Find(`table.measurements tbody tr`).Length(); n != 11 {
			t.Errorf("%s: %d measurement rows, want 11", lang.Tag, n)
		}
		if n := doc.Find(`link[rel="alternate"][hreflang]`).Length(); n != len(i18n.Languages)+1 {
			t.Errorf("%s: %d hreflang links", lang.Tag, n)
		}
	}
}

func TestReportPageDetails(t *testing.T) {
	doc := reportDoc(t, "en", reporttest.Run())
	valid := doc.Find(`td.cell[data-context="0"][data-concurrency="1"]`)
	if got := valid.Find(".tps").Text(); got != "63.5" {
		t.Errorf("valid cell tps %q", got)
	}
	// Coloured by a class from static/css/heat.css, never a style
	// attribute, which the site's policy refuses.
	if class := valid.AttrOr("class", ""); !regexp.MustCompile(`\bheat-\d+\b`).MatchString(class) || valid.AttrOr("style", "") != "" {
		t.Errorf("valid cell class %q style %q", class, valid.AttrOr("style", ""))
	}
	queued := doc.Find(`td.cell[data-context="0"][data-concurrency="16"]`)
	if got := strings.Join(queued.Find("span").Map(func(_ int, s *goquery.Selection) string { return s.Text() }), " "); got != "536.8 Requests queued 602 ms TTFT 60 % of bound" {
		t.Errorf("queued cell text %q", got)
	}
	if got := queued.Find("details.why > p").Text(); got != "13.00 of 16 requests ran at once on average." {
		t.Errorf("queued reason %q", got)
	}
	row := doc.Find(`table.measurements tr[data-phase="decode"][data-context="253952"][data-concurrency="1"] td`)
	var cols []string
	row.Each(func(_ int, s *goquery.Selection) { cols = append(cols, s.Text()) })
	if got := strings.Join(cols, "|"); got != "Sustained decode|248K|1|Over capacity "+
		"Ran, but produced no output tokens in the measured window.|—|—|—|—|1.00||0|30.0 s|—" {
		t.Errorf("248K×1 row %q", got)
	}
	// Reasons are text (a title reaches only mouse users): the status
	// cell's and, once below the table, why Completed is empty.
	if got := row.Eq(3).Find(".reason").Text(); got == "" {
		t.Error("over-capacity row shows no reason")
	}
	if got := doc.Find("#measurements .completed-note").Text(); got == "" {
		t.Error("no note says why Completed cells are empty")
	}
	if got := doc.Find("#launch-cmd").Text(); got != reporttest.Run().Engine.LaunchCommand {
		t.Errorf("launch command %q", got)
	}
	if doc.Find(`a[href="/runs/k3x9q2/source"]`).Length() != 1 || doc.Find(`a[href="/runs/k3x9q2.json"]`).Length() != 1 {
		t.Error("download links missing")
	}
	if got := doc.Find(`.langs a[hreflang="ja"]`).AttrOr("href", ""); got != "/runs/k3x9q2?lang=ja" {
		t.Errorf("switcher link %q", got)
	}
}

// TestReportPageEscapes: whatever a submitter types is text, never markup.
func TestReportPageEscapes(t *testing.T) {
	r := reporttest.Run()
	r.Model.ID = `org/<script>alert(1)`
	r.Engine.LaunchCommand = `</pre><img src=x onerror=alert(1)>`
	doc := reportDoc(t, "en", r)
	if n := doc.Find("main script, main img").Length(); n != 0 {
		t.Fatalf("%d injected elements", n)
	}
	if got := doc.Find("h1").Text(); !strings.HasPrefix(got, "<script>alert(1) on ") {
		t.Errorf("title %q does not show the name as text", got)
	}
}

func TestOtherPages(t *testing.T) {
	for _, lang := range i18n.Languages {
		home := render(t, lang.Tag, func(l *i18n.Localizer) templ.Component {
			r := reporttest.Run()
			return HomePage(base(l, "/", "home"), browse.HomeData{Recent: []browse.BrowseRun{{ID: r.ID, Title: "t", Href: "/runs/" + r.ID}}}, planview.Picker{})
		})
		if home.Find(`a[href="/runs/k3x9q2"]`).Length() != 1 || home.Find(`a[href="/upload"]`).Length() < 2 {
			t.Errorf("%s: home links missing", lang.Tag)
		}
		form := UploadForm{
			Values:  map[string]string{"gpu_count": "two", "hardware_type": "cpu_only", "launch_command": "vllm serve <x>"},
			Errors:  map[string][]string{"gpu_count": {"Enter a whole number."}},
			General: []string{"$.results[3].aggregate_tps: must not be negative."},
		}
		step1 := render(t, lang.Tag, func(l *i18n.Localizer) templ.Component {
			return UploadPage(base(l, "/upload", "upload"), UploadForm{Errors: map[string][]string{"file": {"$: not JSON"}}})
		})
		if step1.Find(`form[method="post"][action="/upload"][enctype="multipart/form-data"] input[type="file"][name="file"][multiple][aria-invalid="true"]`).Length() != 1 {
			t.Errorf("%s: no file input marked invalid", lang.Tag)
		}
		if step1.Find(`#upload-errors[role="alert"] a[href="#f-file"]`).Length() != 1 || step1.Find(`#drop-zone label[for="f-file"]`).Length() != 1 {
			t.Errorf("%s: the refused file is not in the summary, or the drop zone has no label", lang.Tag)
		}
		// The preview: every field of the form, the file's own behind the
		// change disclosure, which opens when one of them is refused.
		fromFile := map[string]string{"engine_name": "vllm", "gpu_count": "1"}
		up := render(t, lang.Tag, func(l *i18n.Localizer) templ.Component {
			r := reporttest.Run()
			d := NewDraftForm("abcdefghijklmnopqrstuvwxyz", []string{"r.json"}, fromFile, form, []string{"The GPU is unknown."})
			return DraftPage(base(l, "/upload/drafts/abcdefghijklmnopqrstuvwxyz", "draft"), d, report.Build(r, l), nil)
		})
		if up.Find(`details.change[open] [name="engine_name"]`).AttrOr("value", "") != "vllm" || up.Find(`details.change [name="gpu_name"]`).Length() != 0 {
			t.Errorf("%s: the file's fields are not (all and only) behind the open disclosure", lang.Tag)
		}
		if up.Find(`#draft-notices li`).Text() != "The GPU is unknown." || up.Find(`form[action$="/discard"] button`).Length() != 1 {
			t.Errorf("%s: the notices or the discard button are missing", lang.Tag)
		}
		if up.Find(`#downloads`).Length() != 0 || up.Find(`table.grid`).Length() != 1 {
			t.Errorf("%s: the preview's report shows downloads, or no grid", lang.Tag)
		}
		if got := up.Find(`input[name="gpu_count"]`).AttrOr("value", ""); got != "two" {
			t.Errorf("%s: value not kept: %q", lang.Tag, got)
		}
		if up.Find(`#f-gpu_count-error li`).Text() != "Enter a whole number." {
			t.Errorf("%s: the field's error is not beside it", lang.Tag)
		}
		// The summary lists the general problem and links the field's.
		summary := up.Find(`#upload-errors[role="alert"][tabindex="-1"][autofocus]`)
		if n := summary.Find("li").Length(); n != 2 {
			t.Errorf("%s: the error summary lists %d problems, want 2", lang.Tag, n)
		}
		if link := summary.Find(`a[href="#f-gpu_count"]`).Text(); !strings.Contains(link, "Enter a whole number.") {
			t.Errorf("%s: the summary's link to gpu_count reads %q", lang.Tag, link)
		}
		if _, ok := up.Find(`option[value="cpu_only"]`).Attr("selected"); !ok {
			t.Errorf("%s: select not kept", lang.Tag)
		}
		if up.Find(`textarea[name="launch_command"]`).Text() != "vllm serve <x>" {
			t.Errorf("%s: textarea not kept", lang.Tag)
		}
		for _, name := range []string{"submitter", "hardware_type", "gpu_name", "gpu_count", "vram_gb", "cpu_name",
			"cpu_cores", "ram_gb", "os", "driver", "engine_name", "engine_version", "quantization", "backend",
			"build", "launch_command", "model_id", "served_model", "revision"} {
			if up.Find(`[name="`+name+`"]`).Length() != 1 {
				t.Errorf("%s: field %s missing", lang.Tag, name)
			}
		}
		errPage := render(t, lang.Tag, func(l *i18n.Localizer) templ.Component {
			ctx := i18n.WithLocalizer(context.Background(), l)
			return ErrorPage(base(l, "/runs/nope", ErrorTitle(ctx, 404)), 404, "")
		})
		if !strings.HasPrefix(errPage.Find("h1").Text(), "404 — ") {
			t.Errorf("%s: error heading %q", lang.Tag, errPage.Find("h1").Text())
		}
	}
}

func TestNewBase(t *testing.T) {
	b, _ := i18n.Default()
	u, _ := url.Parse("/compare?runs=a,b&lang=en")
	base := NewBase(b.Localizer("ja"), "https://s.example/", u, "T", "D")
	if base.CanonicalURL != "https://s.example/compare?lang=ja&runs=a%2Cb" {
		t.Errorf("canonical %q", base.CanonicalURL)
	}
	last := base.Alternates[len(base.Alternates)-1]
	if last.Lang != "x-default" || last.Href != "https://s.example/compare?runs=a%2Cb" {
		t.Errorf("x-default %+v", last)
	}
	if !base.Languages[1].Current || base.Languages[1].Href != "/compare?lang=ja&runs=a%2Cb" {
		t.Errorf("switcher %+v", base.Languages)
	}
}
