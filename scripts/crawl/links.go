package main

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// maxAddress bounds the addresses followed: a link longer than this is an
// error address's echo, asked for already among the seeds.
const maxAddress = 600

var (
	// attrLinks are the addresses of HTML and SVG attributes; a form's
	// action too, asked with GET as a visitor who types it would.
	attrLinks = regexp.MustCompile(`(?:href|src|action|content)\s*=\s*"([^"]*)"`)
	// locLinks are a sitemap's addresses.
	locLinks = regexp.MustCompile(`<loc>([^<]*)</loc>`)
	// textLinks are absolute addresses in text (Markdown, BBCode, plain).
	textLinks = regexp.MustCompile(`https?://[^\s\]\[)("'<>]+`)
	// getForms are the forms a visitor sends with GET (filters, pickers).
	getForms       = regexp.MustCompile(`(?s)<form\b([^>]*)>(.*?)</form>`)
	formAction     = regexp.MustCompile(`\baction="([^"]*)"`)
	formMethodPost = regexp.MustCompile(`(?i)\bmethod="post"`)
	// selects are a form's lists; options their values; checkboxes the
	// values a box sends.
	selects    = regexp.MustCompile(`(?s)<select\b[^>]*\bname="([^"]*)"[^>]*>(.*?)</select>`)
	options    = regexp.MustCompile(`<option\b[^>]*\bvalue="([^"]*)"`)
	checkboxes = regexp.MustCompile(`<input\b[^>]*\btype="checkbox"[^>]*>`)
	inputName  = regexp.MustCompile(`\bname="([^"]*)"`)
	inputValue = regexp.MustCompile(`\bvalue="([^"]*)"`)
)

// links returns the addresses of host that body links to, as path and
// query, without fragments: from (a path) is the page they are relative to.
func links(host, from, contentType string, body []byte) []string {
	page := pageURL(host, from)
	var raw []string
	switch {
	case strings.Contains(contentType, "json"):
		raw = jsonStrings(body)
	case strings.Contains(contentType, "html"), strings.Contains(contentType, "svg"), strings.Contains(contentType, "xml"):
		for _, m := range attrLinks.FindAllSubmatch(body, -1) {
			raw = append(raw, html.UnescapeString(string(m[1])))
		}
		for _, m := range locLinks.FindAllSubmatch(body, -1) {
			raw = append(raw, html.UnescapeString(string(m[1])))
		}
		raw = append(raw, formChoices(from, body)...)
	case strings.HasPrefix(contentType, "text/"):
		for _, m := range textLinks.FindAll(body, -1) {
			raw = append(raw, strings.TrimRight(string(m), ".,;:"))
		}
	}
	var out []string
	for _, r := range raw {
		if a, ok := local(page, r); ok {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pageURL is the absolute address of path from on host ("/" when from
// cannot be read).
func pageURL(host, from string) *url.URL {
	base := &url.URL{Scheme: "http", Host: host, Path: "/"}
	if u, err := base.Parse(from); err == nil {
		return u
	}
	return base
}

// local resolves ref against page and returns its path and query when it
// is an address of page's site.
func local(page *url.URL, ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, "data:") {
		return "", false
	}
	if !strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "http") && !strings.HasPrefix(ref, "?") {
		return "", false // mailto:, javascript:, words in a content attribute
	}
	u, err := page.Parse(ref)
	if err != nil || u.Host != page.Host || u.Scheme != page.Scheme {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	a := u.RequestURI()
	if len(a) > maxAddress {
		return "", false
	}
	return a, true
}

// formChoices are the addresses a GET form sends with one of its choices
// made (one list's option, one box ticked) and the rest left as they are
// not sent: every filter and grid point a page offers, one at a time.
func formChoices(from string, body []byte) []string {
	var out []string
	for _, f := range getForms.FindAllSubmatch(body, -1) {
		if formMethodPost.Match(f[1]) {
			continue
		}
		action := from
		if a := formAction.FindSubmatch(f[1]); a != nil {
			action = html.UnescapeString(string(a[1]))
		}
		action, _, _ = strings.Cut(action, "?")
		choice := func(name, value string) {
			if name != "" && value != "" {
				out = append(out, action+"?"+url.QueryEscape(name)+"="+url.QueryEscape(value))
			}
		}
		for _, sel := range selects.FindAllSubmatch(f[2], -1) {
			for _, o := range options.FindAllSubmatch(sel[2], -1) {
				choice(html.UnescapeString(string(sel[1])), html.UnescapeString(string(o[1])))
			}
		}
		for _, box := range checkboxes.FindAll(f[2], -1) {
			if n, v := inputName.FindSubmatch(box), inputValue.FindSubmatch(box); n != nil && v != nil {
				choice(html.UnescapeString(string(n[1])), html.UnescapeString(string(v[1])))
			}
		}
	}
	return out
}

// jsonStrings are a JSON document's addresses: its absolute URLs, and the
// strings of fields named for links (url, href, next). Other strings that
// begin with a slash are file paths of the document (a launch command's
// program, a tokenizer's directory), no addresses of the site.
func jsonStrings(body []byte) []string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	var out []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch v := v.(type) {
		case string:
			k := strings.ToLower(key)
			if strings.HasPrefix(v, "http") || strings.Contains(k, "url") || strings.Contains(k, "href") || k == "next" {
				out = append(out, v)
			}
		case []any:
			for _, e := range v {
				walk(key, e)
			}
		case map[string]any:
			for k, e := range v {
				walk(k, e)
			}
		}
	}
	walk("", v)
	return out
}

// patternSegments are the first segments whose next segment is a
// variable: a run's id, an identity's slug, a draft's id.
var patternSegments = map[string]string{
	"runs": "{id}", "hardware": "{slug}", "engines": "{slug}", "models": "{slug}",
	"submitters": "{slug}", "orgs": "{slug}", "with": "{id}", "drafts": "{id}", "static": "{file}",
}

// pattern is the route an address answers to, with the names of its query
// parameters: the summary groups answers by it, and the crawl takes
// addresses of every pattern in turn.
func pattern(addr string) string {
	u, err := url.Parse(addr)
	if err != nil {
		return "?"
	}
	segs := strings.Split(strings.TrimPrefix(u.Path, "/"), "/")
	for i := 0; i+1 < len(segs); i++ {
		v, ok := patternSegments[segs[i]]
		switch {
		case !ok:
			continue
		case v == "{file}":
			segs = append(segs[:i+1], v)
		default:
			suffix := "" // /runs/{id}.csv
			if j := strings.LastIndexByte(segs[i+1], '.'); j > 0 && v == "{id}" {
				suffix = segs[i+1][j:]
			}
			segs[i+1] = v + suffix
		}
		i++ // the variable's own segment
	}
	p := "/" + strings.Join(segs, "/")
	if strings.HasPrefix(p, "/sitemap-") {
		p = "/sitemap-{lang}.xml"
	}
	if len(p) > 60 {
		p = p[:60] + "…"
	}
	var names []string
	for name := range u.Query() {
		names = append(names, name)
	}
	if len(names) == 0 {
		return p
	}
	slices.Sort(names)
	return p + "?" + strings.Join(names, "&")
}
