package templates

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/report"
)

// The tags of the report's repeated rows, each opening tag written in one
// piece, the children between it and the closing tag.
// Through templ each attribute expression of a row was resolved on its
// own (a boxed value, an error join, a switch on the attribute's context)
// and an element with a class expression was built in a buffer of its
// own and copied: most of what a grid cell or a table row cost to render,
// on a page with dozens of each. Values are escaped as templ escapes an
// attribute (templ.EscapeString); rowtags_test.go holds the tags to what
// an HTML parser reads back.

// cellTd is a decode-grid cell's <td>: its id, classes and data.
func cellTd(c *report.Cell) tdCell { return tdCell{c} }

type tdCell struct{ c *report.Cell }

// Render writes the element around its children.
func (t tdCell) Render(ctx context.Context, w io.Writer) error {
	c := t.c
	var buf [192]byte
	b := append(buf[:0], `<td id="cell-`...)
	b = strconv.AppendInt(b, int64(c.Context), 10)
	b = append(b, '-')
	b = strconv.AppendInt(b, int64(c.Concurrency), 10)
	b = append(b, '"')
	b = attr(b, "class", strings.TrimSpace("cell num "+c.Heat))
	b = attr(b, "data-status", string(c.Status))
	b = attrInt(b, "data-context", c.Context)
	b = attrInt(b, "data-concurrency", c.Concurrency)
	return around(ctx, w, append(b, '>'), "</td>")
}

// rowTr is a measurement row's <tr> and its data.
func rowTr(r *report.Row) trRow { return trRow{r} }

type trRow struct{ r *report.Row }

// Render writes the element around its children.
func (t trRow) Render(ctx context.Context, w io.Writer) error {
	r := t.r
	var buf [160]byte
	b := append(buf[:0], "<tr"...)
	b = attr(b, "data-phase", r.PhaseKey)
	b = attr(b, "data-status", string(r.Status))
	b = attrInt(b, "data-context", r.ContextTokens)
	b = attrInt(b, "data-concurrency", r.Concurrency)
	return around(ctx, w, append(b, '>'), "</tr>")
}

// around writes open, the children of the component rendering (templ
// passes them in ctx), and end.
func around(ctx context.Context, w io.Writer, open []byte, end string) error {
	if _, err := w.Write(open); err != nil {
		return err
	}
	if err := templ.GetChildren(ctx).Render(templ.ClearChildren(ctx), w); err != nil {
		return err
	}
	_, err := io.WriteString(w, end)
	return err
}

// attr appends ` name="value"`, the value escaped.
func attr(b []byte, name, value string) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = append(b, templ.EscapeString(value)...)
	return append(b, '"')
}

// attrInt appends ` name="v"`.
func attrInt(b []byte, name string, v int) []byte {
	b = append(b, ' ')
	b = append(b, name...)
	b = append(b, `="`...)
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, '"')
}
