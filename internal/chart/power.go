package chart

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// ForPower draws a run's GPU telemetry over time (lil-bench's 0.5 s
// series): board power summed over the GPUs, and the mean SM clock, each
// with the measured phases shaded and numbered. The table lists the
// phases (what the bands mean) rather than hundreds of samples. Nil when
// the run has no series.
func ForPower(l *i18n.Localizer, r *run.Run) []*Chart {
	if r.Telemetry == nil || r.Telemetry.Series == nil || len(r.Telemetry.Series.Ms) == 0 {
		return nil
	}
	s := r.Telemetry.Series
	power := timeChart(l, s, "chart-power", "chart.power", "chart.axis.power", "chart.series.power", s.PowerW,
		func(v float64) string { return report.FormatWatts(l, &v) })
	clock := timeChart(l, s, "chart-clock", "chart.clock", "chart.axis.clock", "chart.series.clock", s.SMMHz,
		func(v float64) string { return l.T("chart.mhz", map[string]any{"V": l.Dec(v, 0)}) })
	return []*Chart{power, clock}
}

func timeChart(l *i18n.Localizer, s *run.PowerSeries, id, key, axis, name string, ys []float64, word func(float64) string) *Chart {
	c := &Chart{ID: id, Title: l.T(key+".title", nil), Desc: l.T(key+".desc", nil), Colours: 1, Group: GroupEnergy}
	c.X.Label, c.Y.Label = l.T("chart.axis.seconds", nil), l.T(axis, nil)
	line := Series{Name: l.T(name, nil), Dense: true}
	maxX, maxY := 0.0, 0.0
	for i, ms := range s.Ms {
		if i >= len(ys) {
			break
		}
		x := float64(ms) / 1000
		line.Points = append(line.Points, Point{X: x, Y: ys[i], XText: seconds(l, x), YText: word(ys[i])})
		maxX, maxY = max(maxX, x), max(maxY, ys[i])
	}
	for _, p := range s.Phases {
		from, to := float64(p.StartMs)/1000, float64(p.EndMs)/1000
		c.Bands = append(c.Bands, Band{From: from, To: to, Label: p.Name})
		maxX = max(maxX, to)
	}
	linearTicks(&c.X, maxX, func(v, _ float64) string { return l.Dec(v, 0) })
	linearTicks(&c.Y, maxY, func(v, _ float64) string { return l.Dec(v, 0) })
	if len(line.Points) > 0 {
		c.Series = []Series{line}
	}
	c.Table.Head = []string{"#", l.T("energy.col.phase", nil), l.T("chart.phase.from", nil), l.T("chart.phase.to", nil),
		l.T("energy.col.throttle", nil)}
	for i, p := range s.Phases {
		verdict := report.Dash
		if p.Throttle != nil {
			verdict = report.ThrottleLabel(l, *p.Throttle)
		}
		c.Table.Rows = append(c.Table.Rows, []string{l.Int(int64(i + 1)), p.Name,
			seconds(l, float64(p.StartMs)/1000), seconds(l, float64(p.EndMs)/1000), verdict})
	}
	return c
}

func seconds(l *i18n.Localizer, v float64) string {
	return report.FormatSeconds(l, &v)
}
