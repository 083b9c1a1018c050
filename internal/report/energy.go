package report

import (
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Metric is what the grid's cells show: the report's metric switch.
type Metric string

// Grid metrics, as the address spells them (?metric=).
const (
	MetricTPS  Metric = "tps"
	MetricTPJ  Metric = "tokens_per_joule"
	MetricWh   Metric = "wh_per_mtok"
	MetricCost Metric = "cost_per_mtok"
)

// Metrics lists the grid metrics in the switch's order.
var Metrics = []Metric{MetricTPS, MetricTPJ, MetricWh, MetricCost}

// MaxKWhPrice bounds the price a reader may set: above it, a typo.
const MaxKWhPrice = 1000

// ReadKWhPrice reads ?kwh=, a plain number per kWh in no currency
// ("0.30", "0,30" as many write it), so the address alone decides the
// page: ok is false for a value that is no price from 0 to MaxKWhPrice
// ("abc", "-1", "NaN"), which the report refuses; empty is
// run.DefaultKWhPrice.
func ReadKWhPrice(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return run.DefaultKWhPrice, true
	}
	v, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > MaxKWhPrice {
		return 0, false
	}
	return v, true
}

// KWhParam is price as the address spells it (?kwh=): the shortest
// decimal that reads back as it ("0.25", not "0.250" or "0,25"), and ""
// for run.DefaultKWhPrice, which the address leaves out. One price, one
// address: the page cache keeps one page for it, and the report sends
// another spelling there (web/report: RunPage).
func KWhParam(price float64) string {
	if price == run.DefaultKWhPrice {
		return ""
	}
	return strconv.FormatFloat(price, 'f', -1, 64)
}

// ReadMetric reads ?metric=: ok is false for a metric the grid does not
// show, which the report refuses; empty is MetricTPS.
func ReadMetric(s string) (Metric, bool) {
	if s == "" {
		return MetricTPS, true
	}
	m := Metric(s)
	return m, slices.Contains(Metrics, m)
}

// EnergyView is the report's "Energy and health" section and its metric
// switch; nil on a run whose file measured no GPU telemetry.
type EnergyView struct {
	Metric Metric
	// Price is the price per kWh in use; PriceText it worded, PriceParam
	// as the price form shows it (the address leaves the default out:
	// KWhParam).
	Price                 float64
	PriceText, PriceParam string
	// Switch links the grid's metrics, the current one marked.
	Switch []MetricLink
	// Caption names what the grid shows under an energy metric, "" for tok/s.
	Caption string
	// Note says the power is the GPU boards', not the machine's at the wall.
	Note string
	// Throttle is the run's worst verdict worded ("Power-capped"), Kind its
	// code; both empty when the file says nothing.
	Throttle, ThrottleKind string
	// Limits are "Power limit 550 W", "default 600 W", "at most 600 W":
	// shown joined, each kept on one line.
	Limits []string
	Rows   []EnergyRow
	// Implausible is set when a row drew more than its boards can.
	Implausible bool
}

// MetricLink is one choice of the metric switch: a plain link that keeps
// the price, so the grid changes without JavaScript.
type MetricLink struct {
	Metric  Metric
	Label   string
	Href    string
	Current bool
}

// EnergyRow is one prefill row or decode cell with telemetry, worded.
type EnergyRow struct {
	// Phase is "Prefill" or "Sustained decode"; Cell the prefill row's
	// context ("32K") or the decode cell's context × requests ("0 × 1").
	Phase, Cell string
	// Power is "388 W", Limit "of 700 W (55 %)", Peak "411 W".
	Power, Limit, Peak string
	Util, VRAM, Temp   string
	// Throttle is the verdict worded, ThrottleKind its code ("" when the
	// file says nothing); Reasons the clock-event reasons, each with its
	// share ("sw_power_cap 73 %"), none when the file gives none.
	Throttle, ThrottleKind string
	Reasons                []string
	TPJ, Wh, Cost          string
	// Implausible marks a row above its limit by more than a tenth, or
	// above what its boards can draw (RunSetup.PowerImplausible).
	Implausible bool
}

// HasTelemetry reports whether any decode cell or prefill row of r
// carries what the tool measured of the GPUs.
func HasTelemetry(r *run.Run) bool {
	for i := range r.Decode {
		if !r.Decode[i].Telemetry.Empty() {
			return true
		}
	}
	for i := range r.Prefill {
		if !r.Prefill[i].Telemetry.Empty() {
			return true
		}
	}
	return false
}

// Energy builds the energy section of r for metric at price per kWh, nil
// when r has no telemetry.
func Energy(r *run.Run, l *i18n.Localizer, metric Metric, price float64) *EnergyView {
	if !HasTelemetry(r) {
		return nil
	}
	e := &EnergyView{Metric: metric, Price: price, PriceText: l.Dec(price, priceDecimals(price)),
		PriceParam: strconv.FormatFloat(price, 'f', -1, 64), Note: l.T("energy.note", nil)}
	for _, m := range Metrics {
		q := url.Values{"metric": {string(m)}}
		if p := KWhParam(price); p != "" {
			q.Set("kwh", p)
		}
		e.Switch = append(e.Switch, MetricLink{Metric: m, Label: l.T("energy.metric."+string(m), nil),
			Href: "?" + q.Encode() + "#decode", Current: m == metric})
	}
	if metric != MetricTPS {
		e.Caption = l.T("energy.caption."+string(metric), map[string]any{"Price": e.PriceText})
	}
	if t := r.Telemetry; t != nil {
		if t.Throttle != nil {
			e.Throttle, e.ThrottleKind = ThrottleLabel(l, *t.Throttle), *t.Throttle
		}
		var parts []string
		if t.PowerLimitW != nil {
			parts = append(parts, l.T("energy.limit", map[string]any{"V": FormatWatts(l, t.PowerLimitW)}))
		}
		if t.PowerLimitDefaultW != nil {
			parts = append(parts, l.T("energy.limit_default", map[string]any{"V": FormatWatts(l, t.PowerLimitDefaultW)}))
		}
		if t.PowerLimitMaxW != nil {
			parts = append(parts, l.T("energy.limit_max", map[string]any{"V": FormatWatts(l, t.PowerLimitMaxW)}))
		}
		e.Limits = parts
	}
	setup := calculator.ForRun(r)
	for i := range r.Prefill {
		p := &r.Prefill[i]
		if p.Telemetry.Empty() {
			continue
		}
		row := energyRow(l, &p.Telemetry, p.TokensPerJoule(), price)
		row.Phase, row.Cell = l.T("run.phase.prefill", nil), ContextLabel(p.Context)
		row.Implausible = setup.PowerImplausible(r, &p.Telemetry)
		e.Rows = append(e.Rows, row)
	}
	for i := range r.Decode {
		c := &r.Decode[i]
		if c.Telemetry.Empty() {
			continue
		}
		tpj := c.TokensPerJoule()
		if !ShowsNumbers(c.Status) {
			tpj = nil
		}
		row := energyRow(l, &c.Telemetry, tpj, price)
		row.Phase = l.T("run.phase.decode", nil)
		row.Cell = l.T("energy.cell", map[string]any{"Context": ContextLabel(c.Context), "Concurrency": l.Int(int64(c.Concurrency))})
		row.Implausible = setup.PowerImplausible(r, &c.Telemetry)
		e.Rows = append(e.Rows, row)
	}
	for _, row := range e.Rows {
		e.Implausible = e.Implausible || row.Implausible
	}
	return e
}

func energyRow(l *i18n.Localizer, t *run.Telemetry, tpj *float64, price float64) EnergyRow {
	row := EnergyRow{Power: FormatWatts(l, t.PowerW), Peak: FormatWatts(l, t.PowerMaxW), Util: Dash, VRAM: Dash, Temp: Dash,
		Throttle: Dash}
	if t.PowerLimitW != nil {
		row.Limit = l.T("energy.of_limit", map[string]any{"V": FormatWatts(l, t.PowerLimitW)})
		if t.PowerW != nil && *t.PowerLimitW > 0 {
			row.Limit = l.T("energy.of_limit_share", map[string]any{"V": FormatWatts(l, t.PowerLimitW),
				"Share": l.T("bound.percent", map[string]any{"V": l.Dec(*t.PowerW / *t.PowerLimitW * 100, 0)})})
		}
	}
	if t.GPUUtilPct != nil {
		row.Util = l.T("bound.percent", map[string]any{"V": l.Dec(*t.GPUUtilPct, 0)})
	}
	if t.VRAMUsedMB != nil && t.VRAMTotalMB != nil {
		row.VRAM = l.T("energy.vram", map[string]any{"Used": l.Dec(*t.VRAMUsedMB/1000, 1), "Total": l.Dec(*t.VRAMTotalMB/1000, 1)})
	}
	if t.TempMaxC != nil {
		row.Temp = l.T("energy.temp", map[string]any{"V": l.Dec(*t.TempMaxC, 0)})
	}
	if t.Throttle != nil {
		row.Throttle, row.ThrottleKind = ThrottleLabel(l, *t.Throttle), *t.Throttle
	}
	for _, k := range slices.Sorted(maps.Keys(t.ThrottleReasons)) {
		row.Reasons = append(row.Reasons, k+" "+l.T("bound.percent", map[string]any{"V": l.Dec(t.ThrottleReasons[k]*100, 0)}))
	}
	wh := run.WhPerMTok(tpj)
	row.TPJ, row.Wh, row.Cost = FormatTPJ(l, tpj), FormatWh(l, wh), FormatCost(l, run.CostPerMTok(wh, price))
	return row
}

// ThrottleLabel words a throttle verdict: "No throttling", "Power-capped".
func ThrottleLabel(l *i18n.Localizer, verdict string) string {
	if !slices.Contains(run.ThrottleVerdicts, verdict) {
		return verdict
	}
	return l.T("energy.throttle."+verdict, nil)
}

// FormatWatts is a power in whole watts: "388 W".
func FormatWatts(l *i18n.Localizer, w *float64) string {
	if w == nil {
		return Dash
	}
	return l.T("unit.w", map[string]any{"V": l.Dec(*w, 0)})
}

// FormatTPJ is tokens per joule, three significant digits: "0.392 tok/J".
func FormatTPJ(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	return l.T("unit.tok_j", map[string]any{"V": l.Dec(*v, sigDecimals(*v))})
}

// FormatWh is watt-hours per million tokens: "709 Wh".
func FormatWh(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	return l.T("unit.wh", map[string]any{"V": l.Dec(*v, sigDecimals(*v))})
}

// FormatCost is what a million tokens cost, a plain number in no currency
// (the reader's price is in theirs): "0.21".
func FormatCost(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	return l.Dec(*v, max(2, sigDecimals(*v)))
}

// sigDecimals is how many decimals show three significant digits of v
// (none from 100 up).
func sigDecimals(v float64) int {
	v = math.Abs(v)
	switch {
	case v == 0 || v >= 100:
		return 0
	case v >= 10:
		return 1
	case v >= 1:
		return 2
	}
	return min(6, 2-int(math.Floor(math.Log10(v))))
}

func priceDecimals(p float64) int {
	if p == math.Trunc(p) {
		return 0
	}
	return max(2, min(4, len(strconv.FormatFloat(p, 'f', -1, 64))-strings.IndexByte(strconv.FormatFloat(p, 'f', -1, 64), '.')-1))
}

// MetricValue is a decode cell's value under metric at price: total tok/s,
// tokens per joule, Wh or cost per million tokens; nil when unknown.
func MetricValue(c *run.DecodeCell, metric Metric, price float64) *float64 {
	switch metric {
	case MetricTPJ:
		return c.TokensPerJoule()
	case MetricWh:
		return run.WhPerMTok(c.TokensPerJoule())
	case MetricCost:
		return run.CostPerMTok(run.WhPerMTok(c.TokensPerJoule()), price)
	}
	return c.TotalTPS
}

// FormatMetric words a MetricValue the way the grid shows it.
func FormatMetric(l *i18n.Localizer, metric Metric, v *float64) string {
	switch metric {
	case MetricTPJ:
		return FormatTPJ(l, v)
	case MetricWh:
		return FormatWh(l, v)
	case MetricCost:
		return FormatCost(l, v)
	}
	return FormatTPSCompact(l, v)
}

// SetEnergy sets the view's energy section for metric at price and shows
// metric in the grid: the report page's handler calls it with the
// address's ?metric= and ?kwh= (ReadMetric, ReadKWhPrice). Under an
// energy metric cells show it, their power beneath, coloured by tokens per
// joule (more is better whichever is shown); cells without power show a
// dash.
func (v *View) SetEnergy(r *run.Run, l *i18n.Localizer, metric Metric, price float64) {
	v.Energy = Energy(r, l, metric, price)
	if v.Energy == nil || metric == MetricTPS {
		return
	}
	byKey := make(map[[2]int]*run.DecodeCell, len(r.Decode))
	best := 0.0
	for i := range r.Decode {
		c := &r.Decode[i]
		byKey[[2]int{c.Context, c.Concurrency}] = c
		if tpj := c.TokensPerJoule(); c.Status == run.Valid && tpj != nil {
			best = max(best, *tpj)
		}
	}
	for i := range v.Grid.Rows {
		for j := range v.Grid.Rows[i].Cells {
			cell := &v.Grid.Rows[i].Cells[j]
			c := byKey[[2]int{cell.Context, cell.Concurrency}]
			if c == nil || !ShowsNumbers(c.Status) {
				continue
			}
			cell.TPS = FormatMetric(l, metric, MetricValue(c, metric, price))
			cell.TTFT = ""
			if c.PowerW != nil {
				cell.TTFT = FormatWatts(l, c.PowerW)
			}
			cell.BG, cell.FG, cell.Heat = "", "", ""
			if tpj := c.TokensPerJoule(); c.Status == run.Valid && tpj != nil {
				cell.BG, cell.FG = Colour(*tpj, best)
				cell.Heat = HeatClass(ColourStep(*tpj, best))
			}
		}
	}
}
