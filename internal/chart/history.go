package chart

import "github.com/speedmatrix/speedmatrix/internal/i18n"

// VersionPoint is one engine version's figure on a history chart.
type VersionPoint struct {
	Version string
	Value   float64
}

// ForHistory draws one cell's total tok/s against engine version: the
// versions evenly spaced in the order given (oldest first), one line.
func ForHistory(l *i18n.Localizer, id, title string, pts []VersionPoint) *Chart {
	c := &Chart{ID: id, Title: title, Desc: l.T("history.sub", nil), Colours: 1}
	c.X.Label, c.Y.Label = l.T("history.col_version", nil), l.T("chart.axis.total_tps", nil)
	s := Series{Name: l.T("history.col_tps", nil)}
	maxY := 0.0
	for i, p := range pts {
		s.Points = append(s.Points, Point{X: float64(i), Y: p.Value, XText: p.Version, YText: tps(l, p.Value)})
		c.X.Ticks = append(c.X.Ticks, Tick{V: float64(i), Label: p.Version})
		maxY = max(maxY, p.Value)
	}
	// Half a step of room on both sides, so the end markers clear the frame.
	c.X.Min, c.X.Max = -0.5, float64(len(pts))-0.5
	linearTicks(&c.Y, maxY, tpsTick(l))
	if len(s.Points) > 0 {
		c.Series = []Series{s}
	}
	c.fillTable(l)
	return c
}
