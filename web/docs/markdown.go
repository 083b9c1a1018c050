package docs

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// docsMarkdown renders the documentation pages' Markdown (docs/*.md, part
// of the build) the one way every /docs page is rendered: GitHub tables,
// headings with an id of their own ({#id}) or one made from their text,
// and raw HTML not passed through (goldmark's default), so a page is as
// safe as the rest of the site.
var docsMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAttribute(), parser.WithAutoHeadingID()))

// markdownHTML renders one document with docsMarkdown.
func markdownHTML(src []byte) ([]byte, error) {
	var buf bytes.Buffer
	err := docsMarkdown.Convert(src, &buf)
	return buf.Bytes(), err
}
