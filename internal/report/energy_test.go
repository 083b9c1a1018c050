package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func TestReadKWhPrice(t *testing.T) {
	for in, want := range map[string]float64{"": run.DefaultKWhPrice, "0.25": 0.25, "0,4": 0.4, " 1 ": 1} {
		if got, ok := ReadKWhPrice(in); !ok || got != want {
			t.Errorf("ReadKWhPrice(%q) = %g, %v, want %g", in, got, ok, want)
		}
	}
	if m, ok := ReadMetric("tokens_per_joule"); !ok || m != MetricTPJ {
		t.Errorf("ReadMetric(tokens_per_joule) = %q, %v", m, ok)
	}
}

func TestReadRefusesWhatItCannotRead(t *testing.T) {
	for _, in := range []string{"abc", "-1", "NaN", "1e9"} {
		if _, ok := ReadKWhPrice(in); ok {
			t.Errorf("ReadKWhPrice(%q) reads it", in)
		}
	}
	if v, ok := ReadKWhPrice("0,25"); !ok || v != 0.25 {
		t.Errorf("ReadKWhPrice(0,25) = %g, %v", v, ok)
	}
	if v, ok := ReadKWhPrice(""); !ok || v != run.DefaultKWhPrice {
		t.Errorf("ReadKWhPrice() = %g, %v", v, ok)
	}
	if _, ok := ReadMetric("<script>"); ok {
		t.Error("ReadMetric reads an unknown metric")
	}
	if m, ok := ReadMetric(""); !ok || m != MetricTPS {
		t.Errorf("ReadMetric() = %q, %v", m, ok)
	}
}

// withPower is the report fixture with the 0.7.8 sample's 0×1 cell
// telemetry on its first cell (152.2 tok/s there: 0.392 tok/J) and a
// power-capped verdict on its second.
func withPower() *run.Run {
	r := reporttest.Run()
	r.Decode[0].TotalTPS = run.F(152.2)
	r.Decode[0].Telemetry = run.Telemetry{PowerW: run.F(388), PowerLimitW: run.F(700), VRAMUsedMB: run.F(73422),
		VRAMTotalMB: run.F(81559), TempMaxC: run.F(63), GPUUtilPct: run.F(71)}
	capped := run.ThrottlePowerCapped
	r.Decode[1].Telemetry = run.Telemetry{PowerW: run.F(690), PowerLimitW: run.F(700), Throttle: &capped,
		ThrottleReasons: map[string]float64{"sw_power_cap": 0.733}}
	return r
}

func TestEnergySection(t *testing.T) {
	l := localizer(t, "en")
	if v := Build(reporttest.Run(), l); v.Energy != nil {
		t.Errorf("a run without telemetry has an energy section: %+v", v.Energy)
	}
	r := withPower()
	v := Build(r, l)
	e := v.Energy
	if e == nil || len(e.Rows) != 2 {
		t.Fatalf("energy = %+v, want two rows", e)
	}
	row := e.Rows[0]
	if row.Power != "388 W" || row.Limit != "of 700 W (55 %)" || row.TPJ != "0.392 tok/J" || row.Wh != "708 Wh" ||
		row.Cost != "0.212" || row.VRAM != "73.4 of 81.6 GB" || row.Throttle != Dash {
		t.Errorf("row = %+v", row)
	}
	if r := e.Rows[1]; r.Throttle != "Power-capped" || !slices.Equal(r.Reasons, []string{"sw_power_cap 73 %"}) {
		t.Errorf("capped row = %+v", r)
	}
	// The throttled cell says so in words on the grid, whatever the metric.
	if c := v.Grid.Rows[0].Cells[1]; c.Throttle != "Power-capped" {
		t.Errorf("grid cell throttle = %q, want a visible word", c.Throttle)
	}
	// The default price is left out of the address; another is kept.
	if len(e.Switch) != 4 || !e.Switch[0].Current || e.Switch[1].Href != "?metric=tokens_per_joule#decode" {
		t.Errorf("switch = %+v", e.Switch)
	}
	v.SetEnergy(r, l, MetricTPJ, 0.25)
	if s := v.Energy.Switch; s[0].Href != "?kwh=0.25&metric=tps#decode" || !s[1].Current || v.Energy.PriceParam != "0.25" {
		t.Errorf("switch at 0.25 = %+v", s)
	}
}

// Every spelling of a price has one address: the shortest decimal, and
// none for the default.
func TestKWhParam(t *testing.T) {
	for in, want := range map[string]string{"": "", "0.3": "", "0.30": "", "0,3": "", "0.25": "0.25", "0.250": "0.25",
		"0,25": "0.25", " 1 ": "1", "1.0": "1", "0": "0", "12.5": "12.5"} {
		price, ok := ReadKWhPrice(in)
		if !ok {
			t.Fatalf("ReadKWhPrice(%q) refused", in)
		}
		if got := KWhParam(price); got != want {
			t.Errorf("KWhParam(ReadKWhPrice(%q)) = %q, want %q", in, got, want)
		}
		if back, _ := ReadKWhPrice(KWhParam(price)); back != price {
			t.Errorf("%q reads back as %v, not %v", KWhParam(price), back, price)
		}
	}
}

func TestSetEnergyMetric(t *testing.T) {
	l := localizer(t, "de")
	r := withPower()
	v := Build(r, l)
	v.SetEnergy(r, l, MetricCost, 0.5)
	c := v.Grid.Rows[0].Cells[0]
	if c.TPS != "0,354" || c.TTFT != "388 W" {
		t.Errorf("cost cell = %q / %q, want 0,354 at 0.50 per kWh, its power beneath", c.TPS, c.TTFT)
	}
	if c := v.Grid.Rows[0].Cells[2]; c.TPS != Dash {
		t.Errorf("a cell without power shows %q, want a dash", c.TPS)
	}
	if !strings.Contains(v.Energy.Caption, "0,50") {
		t.Errorf("caption %q does not name the price", v.Energy.Caption)
	}
}
