package report

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// sitemapLimit is the most addresses one sitemap file may hold.
const sitemapLimit = 50000

// sitemapStatic are the pages every site has, beside the runs.
var sitemapStatic = []string{"/", "/runs", "/leaderboard", "/calculator", "/upload"}

type urlset struct {
	XMLName xml.Name     `xml:"urlset"`
	NS      string       `xml:"xmlns,attr"`
	XHTML   string       `xml:"xmlns:xhtml,attr"`
	URLs    []sitemapURL `xml:"url"`
}

type sitemapURL struct {
	Loc     string        `xml:"loc"`
	LastMod string        `xml:"lastmod,omitempty"`
	Links   []sitemapLink `xml:"xhtml:link"`
}

type sitemapLink struct {
	Rel      string `xml:"rel,attr"`
	Hreflang string `xml:"hreflang,attr"`
	Href     string `xml:"href,attr"`
}

// Sitemap is GET /sitemap.xml: the static pages and every listed run, each
// with its translations as hreflang alternates (the same links the pages'
// heads carry: ?lang= per language, the bare address as x-default).
func (s *Handlers) Sitemap(w http.ResponseWriter, r *http.Request) error {
	return s.writeSitemap(w, r, "")
}

// SitemapLang is GET /sitemap-{lang}.xml: the same pages in one language,
// each located at its ?lang= address, so a search engine crawling for
// Korean readers finds the Korean pages listed as such.
func (s *Handlers) SitemapLang(w http.ResponseWriter, r *http.Request) error {
	lang := chi.URLParam(r, "lang")
	if !slices.ContainsFunc(i18n.Languages, func(l i18n.Language) bool { return l.Tag == lang }) {
		return kit.ErrNotFound
	}
	return s.writeSitemap(w, r, lang)
}

// writeSitemap writes the sitemap of lang's addresses ("" for the bare
// ones).
func (s *Handlers) writeSitemap(w http.ResponseWriter, r *http.Request, lang string) error {
	runs, err := s.store.SitemapRuns(r.Context(), sitemapLimit-len(sitemapStatic))
	if err != nil {
		return err
	}
	origin := strings.TrimSuffix(s.Origin(r), "/")
	set := urlset{NS: "http://www.sitemaps.org/schemas/sitemap/0.9", XHTML: "http://www.w3.org/1999/xhtml"}
	for _, p := range sitemapStatic {
		set.URLs = append(set.URLs, sitemapEntry(origin, p, "", lang))
	}
	for _, rn := range runs {
		set.URLs = append(set.URLs, sitemapEntry(origin, paths.Run(rn.ID), rn.UploadedAt.Format("2006-01-02"), lang))
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	if err := xml.NewEncoder(&buf).Encode(set); err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return kit.WriteBody(w, "application/xml; charset=utf-8", buf.Bytes())
}

// sitemapEntry is one page: its address in lang (the x-default one for
// "") and its alternates.
func sitemapEntry(origin, path, lastmod, lang string) sitemapURL {
	u := sitemapURL{Loc: origin + path, LastMod: lastmod}
	if lang != "" {
		u.Loc += "?lang=" + url.QueryEscape(lang)
	}
	for _, l := range i18n.Languages {
		u.Links = append(u.Links, sitemapLink{Rel: "alternate", Hreflang: l.Tag,
			Href: origin + path + "?lang=" + url.QueryEscape(l.Tag)})
	}
	u.Links = append(u.Links, sitemapLink{Rel: "alternate", Hreflang: "x-default", Href: origin + path})
	return u
}

// Robots is GET /robots.txt: everything may be crawled but the upload form,
// the pages of accounts, the API and the raw source files, and the
// sitemaps are named.
func (s *Handlers) Robots(w http.ResponseWriter, r *http.Request) {
	origin := strings.TrimSuffix(s.Origin(r), "/")
	body := "User-agent: *\nDisallow: /upload\nDisallow: /account\nDisallow: /admin/\nDisallow: /signup\nDisallow: /login\nDisallow: /bench/token\nDisallow: /api/\nDisallow: /runs/*/source\nAllow: /\n\n" +
		"Sitemap: " + origin + "/sitemap.xml\n"
	for _, l := range i18n.Languages {
		body += "Sitemap: " + origin + "/sitemap-" + l.Tag + ".xml\n"
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_ = kit.WriteBody(w, "text/plain; charset=utf-8", []byte(body))
}
