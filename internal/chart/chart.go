// Package chart draws the run and compare pages' charts as server-rendered
// SVG: no JavaScript, colours from report.Colour's scale switched for dark
// mode by the stylesheet, axis text in currentColor, and every chart with a
// table of its numbers for readers who cannot see it.
package chart

// Point is one plotted measurement.
type Point struct {
	X, Y float64
	// Queued marks a cell where not every request ran at once: drawn hollow
	// and named in the table.
	Queued bool
	// XText and YText are X and Y as the page words them.
	XText, YText string
}

// Series is one line: a context of a run, or a run's prefill.
type Series struct {
	Name   string
	Points []Point
	// Colour indexes the colour ramp, Style the dash and marker patterns,
	// so colour is never the only cue.
	Colour, Style int
	// Dense marks a series sampled too often for a marker per point (a
	// telemetry series): drawn as a line only.
	Dense bool
}

// Band is a stretch of the x axis shaded and numbered: a measured phase on
// a chart over time. Its number leads its row of the chart's table.
type Band struct {
	From, To float64
	Label    string
}

// Axis is one axis: its title, whether it doubles per step, its range and
// its ticks.
type Axis struct {
	Label    string
	Log2     bool
	Min, Max float64
	Ticks    []Tick
}

// Tick is one labelled value on an axis.
type Tick struct {
	V     float64
	Label string
}

// Chart is one chart and its text alternative.
type Chart struct {
	// ID is unique on the page; the SVG's title and desc ids derive from it.
	ID, Title, Desc string
	X, Y            Axis
	Series          []Series
	// Colours is the number of colours in use, which spreads the ramp.
	Colours int
	// Bands are shaded behind the lines, numbered from 1.
	Bands []Band
	// Group is where the page shows the chart: "" among the run's charts,
	// GroupEnergy in its energy section.
	Group string
	// Table is the alternative: one row per point.
	Table Table
}

// Table is a chart's numbers as a table.
type Table struct {
	Head []string
	Rows [][]string
}

// GroupEnergy is the Group of the charts of a run's GPU telemetry.
const GroupEnergy = "energy"

// InGroup returns the charts of group g, in order.
func InGroup(charts []*Chart, g string) []*Chart {
	var out []*Chart
	for _, c := range charts {
		if c.Group == g {
			out = append(out, c)
		}
	}
	return out
}

// Empty reports a chart without a point to draw.
func (c *Chart) Empty() bool {
	for _, s := range c.Series {
		if len(s.Points) > 0 {
			return false
		}
	}
	return true
}
