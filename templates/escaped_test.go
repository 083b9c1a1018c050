package templates

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report"
)

// TestEscapedIsTemplText holds @escaped(s) to what templ's { s } writes,
// html.EscapeString(fmt.Sprint(s)), on text that has every character the
// escaper changes: the table cells that use it must read as before.
func TestEscapedIsTemplText(t *testing.T) {
	hostile := `<b onclick="x">&'é</b>`
	var buf bytes.Buffer
	row := report.Row{Phase: hostile, TotalTPS: hostile, StatusLabel: hostile, Reason: hostile}
	if err := measurementRow(&row).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	want := ">" + html.EscapeString(fmt.Sprint(hostile)) + "<"
	if n := strings.Count(buf.String(), want); n != 4 {
		t.Errorf("%d cells read %q, want 4 in %s", n, want, buf.String())
	}
	if strings.Contains(buf.String(), "<b") {
		t.Errorf("markup got through: %s", buf.String())
	}
}
