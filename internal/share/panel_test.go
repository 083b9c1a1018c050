package share

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/demo"
)

// TestPanel: what the Share panel offers to copy links back absolutely,
// images in the reader's language; its download links are the page's own.
func TestPanel(t *testing.T) {
	r := demoRun(t, demo.SeedRun)
	l := localizer(t, "ja")
	p := NewPanel(r, l, "https://speedmatrix.example/")
	for name, c := range map[string][2]string{
		"permalink": {p.Permalink, "https://speedmatrix.example/runs/k3x9q2mabc"},
		"csv":       {p.CSVURL, "/runs/k3x9q2mabc.csv"},
		"md":        {p.MarkdownURL, "/runs/k3x9q2mabc.md"},
		"txt":       {p.TextURL, "/runs/k3x9q2mabc.txt"},
		"bbcode":    {p.BBCodeURL, "/runs/k3x9q2mabc.bbcode"},
		"grid":      {p.GridURL, "/runs/k3x9q2mabc/grid.svg"},
		"card":      {p.CardURL, "/runs/k3x9q2mabc/card.png"},
		"badge":     {p.BadgeURL, "/runs/k3x9q2mabc/badge.svg?lang=ja&v=0"},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
	if !strings.Contains(p.Embed, `src="https://speedmatrix.example/runs/k3x9q2mabc/embed?lang=ja"`) {
		t.Errorf("embed = %s", p.Embed)
	}
	if !strings.Contains(p.BadgeMarkdown, "(https://speedmatrix.example/runs/k3x9q2mabc/badge.svg?lang=ja)](https://speedmatrix.example/runs/k3x9q2mabc)") {
		t.Errorf("badge markdown = %s", p.BadgeMarkdown)
	}
	for name, text := range map[string]string{"markdown": p.Markdown, "bbcode": p.BBCode, "text": p.Text} {
		if !strings.Contains(text, p.Permalink) || !strings.Contains(text, "RTX 3060 12GB 上の Qwen3.5-4B-FP8-dynamic") {
			t.Errorf("%s lacks the permalink or the title:\n%s", name, text)
		}
	}
}

func TestPreview(t *testing.T) {
	r := demoRun(t, demo.SeedRun)
	p := NewPreview(r, localizer(t, "en"), "https://speedmatrix.example")
	if p.Title != "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB" || p.Headline != Headline(r, localizer(t, "en")) {
		t.Errorf("preview = %+v", p)
	}
	if p.Card != "https://speedmatrix.example/runs/k3x9q2mabc/card.png?lang=en" {
		t.Errorf("card = %q", p.Card)
	}
	if !strings.Contains(p.CardAlt, p.Title) {
		t.Errorf("card alt %q does not name the run", p.CardAlt)
	}
}
