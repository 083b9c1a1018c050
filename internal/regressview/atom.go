package regressview

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// atomFeed is an Atom 1.0 document (RFC 4287) as this feed writes it.
type atomFeed struct {
	XMLName xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Lang    string      `xml:"xml:lang,attr"`
	ID      string      `xml:"id"`
	Title   string      `xml:"title"`
	Updated string      `xml:"updated"`
	Links   []atomLink  `xml:"link"`
	Author  atomAuthor  `xml:"author"`
	Entries []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomAuthor struct {
	Name string `xml:"name"`
}

type atomText struct {
	Type string `xml:"type,attr"`
	Body string `xml:",chardata"`
}

type atomEntry struct {
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Summary atomText `xml:"summary"`
	Content atomText `xml:"content"`
}

// FeedURL is the feed's own address, filtered by engine ("" for all).
func FeedURL(origin, engine string) string {
	if engine == "" {
		return origin + FeedPath
	}
	return origin + FeedPath + "?" + url.Values{"engine": {engine}}.Encode()
}

// Feed is the Atom feed of entries (the newest first, as VersionChanges
// returns them) for engine ("" for every engine), in l's language; each
// entry's content is the upstream report (in English, by en). now stands
// for the feed's updated time when it has no entry.
func Feed(l, en *i18n.Localizer, origin, engine string, entries []store.VersionChange, now time.Time) ([]byte, error) {
	f := atomFeed{Lang: l.Lang(), ID: FeedURL(origin, engine), Title: l.T("regressions.title", nil),
		Updated: now.UTC().Format(time.RFC3339),
		Links: []atomLink{{Rel: "self", Type: "application/atom+xml", Href: FeedURL(origin, engine)},
			{Rel: "alternate", Type: "text/html", Href: origin + URL(engine, "")}},
		Author: atomAuthor{Name: l.T("site.name", nil)}}
	if len(entries) > 0 {
		f.Updated = entries[0].SeenAt.UTC().Format(time.RFC3339)
	}
	for _, e := range entries {
		it := NewItem(l, en, origin, e)
		summary := it.Setup + l.T("common.dot_sep", nil) + it.Change + l.T("common.dot_sep", nil) + it.Moved
		if it.SetupNote != "" {
			summary += " " + it.SetupNote
		}
		f.Entries = append(f.Entries, atomEntry{ID: origin + Href(e),
			Title:   report.XMLSafe(it.KindLabel + ": " + it.Heading + l.T("common.dot_sep", nil) + it.Change),
			Updated: e.SeenAt.UTC().Format(time.RFC3339),
			Link:    atomLink{Rel: "alternate", Type: "text/html", Href: origin + Href(e)},
			Summary: atomText{Type: "text", Body: report.XMLSafe(summary)},
			Content: atomText{Type: "text", Body: report.XMLSafe(it.Report)}})
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
