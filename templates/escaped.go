package templates

import (
	"context"
	"io"

	"github.com/a-h/templ"
)

// escaped is a string written HTML-escaped exactly as templ writes a
// { expression }, without what templ does first: fmt.Sprint of the boxed
// value, two allocations and a printer per expression. Templates use
// @escaped(s) where a page prints the same kind of string hundreds of
// times (a table's cells); elsewhere { s } reads better and costs little.
type escaped string

// Render writes s escaped for HTML text.
func (s escaped) Render(_ context.Context, w io.Writer) error {
	_, err := io.WriteString(w, templ.EscapeString(string(s)))
	return err
}
