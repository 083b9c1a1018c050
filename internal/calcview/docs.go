package calcview

import (
	"net/url"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
)

// Docs is the documentation page's tables: every GPU and model the
// calculator knows, with their figures, sources and confidence, and the
// GPUs' board powers, which have sources of their own.
type Docs struct {
	GPUs   []DocsRow
	Models []DocsRow
	// BoardPower lists the GPUs with a board power (GPU.BoardPowerW), with
	// that figure's own source and confidence; the GPUs' table words the
	// others' as unknown.
	BoardPower []DocsRow
}

// DocsRow is one table row: a name, its figures formatted, and its source.
type DocsRow struct {
	Name       string
	Cells      []string
	Confidence string
	// URL is the source; Site its host, the link's text, so a reader can
	// tell the links apart.
	URL, Site string
}

// BuildDocs is the tables of t worded in l's language.
func BuildDocs(l *i18n.Localizer, t *calculator.Tables) Docs {
	var d Docs
	num := func(v float64) string {
		if v == 0 {
			return report.Dash
		}
		return l.Dec(v, 1)
	}
	for _, g := range t.GPUs {
		power := l.T("calc.docs.unknown", nil)
		if g.BoardPowerW > 0 {
			power = l.Dec(g.BoardPowerW, 0)
		}
		d.GPUs = append(d.GPUs, DocsRow{Name: g.Name, URL: g.URL, Site: site(g.URL),
			Cells:      []string{num(g.BandwidthGBs), l.Int(int64(g.MemoryGB)), num(g.FP16), num(g.FP8), power},
			Confidence: l.T("calc.confidence."+g.Confidence, nil)})
		if src := g.BoardPowerSource; g.BoardPowerW > 0 && src != nil {
			d.BoardPower = append(d.BoardPower, DocsRow{Name: g.Name, URL: src.URL, Site: site(src.URL),
				Cells: []string{power}, Confidence: l.T("calc.confidence."+src.Confidence, nil)})
		}
	}
	for _, m := range t.Models {
		p := m.Arch.Count()
		d.Models = append(d.Models, DocsRow{Name: m.Name, URL: m.URL, Site: site(m.URL),
			Cells:      []string{num(p.Total() / 1e9), num(m.Arch.KVGrowth(2) / 1024)},
			Confidence: l.T("calc.confidence."+m.Confidence, nil)})
	}
	return d
}

// site is a URL's host without "www.", or the URL when it has none.
func site(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return u
	}
	return strings.TrimPrefix(p.Host, "www.")
}
