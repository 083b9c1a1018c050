package webtest

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// Page GETs path, wants 200 and parses the HTML.
func Page(t *testing.T, s *Site, path string, headers ...string) *goquery.Document {
	t.Helper()
	resp, body := s.Get(t, path, headers...)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d", path, resp.StatusCode)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// Texts are the trimmed texts of sel's elements.
func Texts(sel *goquery.Selection) []string {
	var out []string
	sel.Each(func(_ int, c *goquery.Selection) { out = append(out, strings.TrimSpace(c.Text())) })
	return out
}
