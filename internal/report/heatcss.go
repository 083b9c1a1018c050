package report

import (
	"fmt"
	"strings"
)

// HeatClass names step k of the colour scale as a stylesheet class: the
// grid's cells and the charts' lines are coloured through classes, never a
// style attribute, so the site's Content-Security-Policy needs no
// 'unsafe-inline'.
func HeatClass(k int) string { return fmt.Sprintf("heat-%d", k) }

// HeatCSS is the stylesheet static/css/heat.css holds (a test keeps them
// equal): for every step, the cell background and foreground (.heat-k) and
// the custom properties a chart's series reads for light (.sl-k) and dark
// (.sd-k) pages.
func HeatCSS() string {
	var b strings.Builder
	b.WriteString("/* Generated from report.HeatCSS (UPDATE_HEAT_CSS=1 go test ./static/): the colour scale's steps as classes. */\n")
	for k := 0; k <= ColourSteps; k++ {
		bg, fg := colourAt(float64(k) / ColourSteps)
		fmt.Fprintf(&b, ".heat-%d{background-color:%s;color:%s}.sl-%d{--l:%s}.sd-%d{--d:%s}\n", k, bg, fg, k, bg, k, bg)
	}
	return b.String()
}
