package templates

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"

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
		render   func(*bytes.Buffer) error
		want     map[string]string
		children int
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
		doc, err := html.Parse(strings.NewReader("<table><tbody><tr>" + b.String()))
		if err != nil {
			t.Fatal(err)
		}
		el := find(doc, tc.tag, tc.want)
		if el == nil {
			t.Errorf("%s: no <%s> with %v in %s", tc.name, tc.tag, tc.want, b.String())
			continue
		}
		if len(el.Attr) != len(tc.want) {
			t.Errorf("%s: attributes %v, want %v", tc.name, el.Attr, tc.want)
		}
		n := 0
		for ch := el.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.ElementNode {
				n++
			}
		}
		if n != tc.children {
			t.Errorf("%s: %d child elements, want %d: %s", tc.name, n, tc.children, b.String())
		}
		if strings.Contains(b.String(), "<script") {
			t.Errorf("%s: markup got through: %s", tc.name, b.String())
		}
	}
}

// find is the first element named tag whose attributes are want.
func find(n *html.Node, tag string, want map[string]string) *html.Node {
	if n.Type == html.ElementNode && n.Data == tag {
		ok := true
		for k, v := range want {
			got := ""
			for _, a := range n.Attr {
				if a.Key == k {
					got = a.Val
				}
			}
			ok = ok && got == v
		}
		if ok {
			return n
		}
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if f := find(ch, tag, want); f != nil {
			return f
		}
	}
	return nil
}
