package static_test

import (
	"os"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/static"
)

// TestHeatCSSCurrent: the embedded css/heat.css is what report.HeatCSS
// writes, so every step a page names has its rule. UPDATE_HEAT_CSS=1
// rewrites the file.
func TestHeatCSSCurrent(t *testing.T) {
	want := report.HeatCSS()
	if os.Getenv("UPDATE_HEAT_CSS") != "" {
		if err := os.WriteFile("css/heat.css", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := static.FS.ReadFile("css/heat.css")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("static/css/heat.css is stale: run UPDATE_HEAT_CSS=1 go test ./static/")
	}
}
