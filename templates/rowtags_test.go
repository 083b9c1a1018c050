package templates

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The rows' tags read back, through an HTML parser, as the attributes
// and children they were given, hostile values included: a class or a
// status cannot close its attribute or open an element.
func TestRowTagsReadBack(t *testing.T) {
	hostile := `x" onmouseover="alert(1)"><script>&'`
	c := report.Cell{Context: 8192, Concurrency: 4, Status: run.Status(hostile), Heat: hostile,
		TPS: "63.5", StatusLabel: "Queued", Reason: "why"}
	r := report.Row{PhaseKey: hostile, Status: run.Valid, ContextTokens: 16384, Concurrency: 2, Phase: "Decode"}
	for _, tc := range []struct {
		name, tag string
		render    func(*bytes.Buffer) error
		want      map[string]string
		children  int
	}{
		{"cell", "td", func(b *bytes.Buffer) error { return gridCell(&c).Render(context.Background(), b) },
			map[string]string{"id": "cell-8192-4", "class": "cell num " + hostile, "data-status": hostile,
				"data-context": "8192", "data-concurrency": "4"}, 2},
		{"row", "tr", func(b *bytes.Buffer) error { return measurementRow(&r).Render(context.Background(), b) },
			map[string]string{"data-phase": hostile, "data-status": "valid", "data-context": "16384",
				"data-concurrency": "2"}, 13},
	} {
		var b bytes.Buffer
		if err := tc.render(&b); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader("<table><tbody><tr>" + b.String()))
		if err != nil {
			t.Fatal(err)
		}
		el := doc.Find(tc.tag).Last()
		if el.Length() != 1 || len(el.Get(0).Attr) != len(tc.want) {
			t.Errorf("%s: no <%s> with %d attributes in %s", tc.name, tc.tag, len(tc.want), b.String())
			continue
		}
		for k, v := range tc.want {
			if got, _ := el.Attr(k); got != v {
				t.Errorf("%s: %s=%q, want %q", tc.name, k, got, v)
			}
		}
		if n := el.Children().Length(); n != tc.children {
			t.Errorf("%s: %d child elements, want %d: %s", tc.name, n, tc.children, b.String())
		}
		if strings.Contains(b.String(), "<script") {
			t.Errorf("%s: markup got through: %s", tc.name, b.String())
		}
	}
}
