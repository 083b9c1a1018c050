package regressview_test

import (
	"encoding/json"
	"encoding/xml"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/regressview"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

const origin = "https://speedmatrix.example"

// seedEntry is the seed run at 0.32.0 against a copy at 0.31.0 whose
// total tok/s are 1.25× higher, and whose command also sets a context.
func seedEntry() store.VersionChange {
	cur, old := reporttest.Run(), reporttest.Run()
	old.ID, old.Engine.Version = "old031", "0.31.0"
	old.Engine.LaunchCommand = cur.Engine.LaunchCommand + " --max-model-len 8192"
	at := time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC)
	var pts []regress.Point
	for _, c := range cur.Decode {
		if c.Status == run.Valid {
			k := regress.Cell{Context: c.Context, Concurrency: c.Concurrency}
			pts = append(pts, regress.Point{Version: "0.32.0", Cell: k, TPS: *c.TotalTPS, RunID: cur.ID, UploadedAt: at},
				regress.Point{Version: "0.31.0", Cell: k, TPS: *c.TotalTPS * 1.25, RunID: old.ID})
		}
	}
	return store.VersionChange{Setup: store.VersionSetup{Hardware: "rtx-3060-12gb", Engine: "vllm",
		Model: "redhatai-qwen3-5-4b-fp8-dynamic", Quantization: "fp8-dynamic"},
		Entry: regress.Entry{Change: regress.Detect(pts)[0], Old: old, New: cur}}
}

func localizers(t *testing.T, tag string) (l, en *i18n.Localizer) {
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	return b.Localizer(tag), b.Localizer("en")
}

func TestItemWordsTheChange(t *testing.T) {
	l, en := localizers(t, "en")
	it := regressview.NewItem(l, en, origin, seedEntry())
	if it.Heading != "vLLM 0.31.0 → 0.32.0" || it.KindLabel != "Regression" || !strings.HasPrefix(it.Change, "-20") ||
		!strings.HasSuffix(it.Change, "at 0 × 1") || it.Moved != "2 of 2 shared cells moved 10 % or more" {
		t.Errorf("item %q / %q / %q / %q", it.Heading, it.KindLabel, it.Change, it.Moved)
	}
	if len(it.SetupChanged) != 1 || it.SetupChanged[0].Label != "--max-model-len" ||
		it.SetupChanged[0].This != "8192" || it.SetupChanged[0].Other != "not stated" {
		t.Errorf("setup changes (older first) %+v", it.SetupChanged)
	}
	if it.HistoryHref != "/history?engine=vllm&hardware=rtx-3060-12gb&model=redhatai-qwen3-5-4b-fp8-dynamic&quant=fp8-dynamic" {
		t.Errorf("history link %q", it.HistoryHref)
	}
	if !strings.Contains(it.Report, origin+"/runs/old031") || !strings.Contains(it.Report, origin+"/runs/k3x9q2") {
		t.Errorf("report lacks the runs' addresses:\n%s", it.Report)
	}
	ko, _ := localizers(t, "ko")
	if it := regressview.NewItem(ko, en, origin, seedEntry()); it.KindLabel != "성능 저하" || !strings.Contains(it.Report, "Engine:") {
		t.Errorf("Korean item %q; the report stays English", it.KindLabel)
	}
}

func TestPageFiltersAndEmpty(t *testing.T) {
	l, en := localizers(t, "fr")
	p := regressview.NewPage(l, en, origin, "", "rtx-3060-12gb", regressview.Choices{}, nil)
	if p.Empty == "" || p.FeedHref != "/regressions.atom" || !p.Engines[0].Selected || p.Hardware != "rtx-3060-12gb" {
		t.Errorf("page %+v", p)
	}
	if got := regressview.URL("vllm", "h 1"); got != "/regressions?engine=vllm&hardware=h+1" {
		t.Errorf("URL %q", got)
	}
}

// TestFeedIsAtom parses the feed as Atom (RFC 4287): the namespace, the
// required id, title and updated of the feed and of each entry, a self
// link, times in RFC 3339 and absolute addresses.
func TestFeedIsAtom(t *testing.T) {
	l, en := localizers(t, "en")
	e := seedEntry()
	body, err := regressview.Feed(l, en, origin, "vllm", []store.VersionChange{e}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		XMLName xml.Name
		Lang    string `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
		ID      string `xml:"id"`
		Title   string `xml:"title"`
		Updated string `xml:"updated"`
		Author  struct {
			Name string `xml:"name"`
		} `xml:"author"`
		Links []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Entries []struct {
			ID      string `xml:"id"`
			Title   string `xml:"title"`
			Updated string `xml:"updated"`
			Link    struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
			Content struct {
				Type string `xml:"type,attr"`
				Body string `xml:",chardata"`
			} `xml:"content"`
		} `xml:"entry"`
	}
	dec := xml.NewDecoder(strings.NewReader(string(body)))
	dec.Strict = true
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("not XML: %v\n%s", err, body)
	}
	if f.XMLName.Space != "http://www.w3.org/2005/Atom" || f.XMLName.Local != "feed" {
		t.Errorf("root %v", f.XMLName)
	}
	if f.ID != origin+"/regressions.atom?engine=vllm" || f.Title == "" || f.Author.Name == "" || f.Lang != "en" {
		t.Errorf("feed head %q %q %q %q", f.ID, f.Title, f.Author.Name, f.Lang)
	}
	if _, err := time.Parse(time.RFC3339, f.Updated); err != nil || f.Updated != "2026-11-03T08:00:00Z" {
		t.Errorf("updated %q (%v)", f.Updated, err)
	}
	self := false
	for _, ln := range f.Links {
		self = self || ln.Rel == "self" && ln.Href == f.ID
	}
	if !self {
		t.Error("no self link")
	}
	if len(f.Entries) != 1 {
		t.Fatalf("%d entries", len(f.Entries))
	}
	x := f.Entries[0]
	if u, err := url.Parse(x.ID); err != nil || !u.IsAbs() || x.Link.Href != x.ID || x.Title == "" {
		t.Errorf("entry %q %q %q", x.ID, x.Link.Href, x.Title)
	}
	if _, err := time.Parse(time.RFC3339, x.Updated); err != nil {
		t.Errorf("entry updated %q", x.Updated)
	}
	if !strings.Contains(x.Title, "0.31.0 → 0.32.0") || !strings.Contains(x.Content.Body, "0.31.0 → 0.32.0") ||
		x.Content.Type != "text" {
		t.Errorf("entry %q / %q", x.Title, x.Content.Body)
	}
	// No entry: still a valid feed, updated now.
	if body, err := regressview.Feed(l, en, origin, "", nil, time.Now()); err != nil || !strings.Contains(string(body), "<updated>") {
		t.Errorf("empty feed %s (%v)", body, err)
	}
}

func TestAPI(t *testing.T) {
	_, en := localizers(t, "en")
	out := regressview.API(en, origin, []store.VersionChange{seedEntry()})
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(b, &back); err != nil || len(back) != 1 {
		t.Fatal(err)
	}
	c := out[0]
	if c.Kind != "regression" || c.OldVersion != "0.31.0" || c.NewVersion != "0.32.0" || c.HeadlineCell == nil ||
		math.Abs(c.HeadlineCell.ChangePercent+20) > 1e-9 || c.OldRun.URL != origin+"/runs/old031" ||
		len(c.SetupChanged) != 1 || c.SetupChanged[0].Flag != "max-model-len" || c.SetupChanged[0].New != "" ||
		c.SetupChanged[0].Old != "8192" || !strings.HasPrefix(c.IssueURL, "https://github.com/vllm-project/") {
		t.Errorf("api %+v", c)
	}
	for _, k := range []string{"kind", "cells", "old_run", "new_run", "setup_changed", "seen_at", "report_markdown", "change_percent"} {
		if _, ok := back[0][k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
}
