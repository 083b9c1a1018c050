package site

import (
	"net/url"
	"slices"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// langParam chooses the page's language (middleware.go).
const langParam = "lang"

// pageQuery is the raw query reduced to params (sorted): their parts in
// params' order, each parameter once (its first value, the one
// Query().Get reads: the pages read no other), each value written one way (inValueForm: %76llm is vllm), and ?lang= once, as
// the tag it names (dropped when it names none: it chooses no language).
// Any other part is dropped, the
// page as if the link had not carried it: a parameter not listed, an empty
// part, a name written with escapes, a part holding ';' (which
// url.ParseQuery skips anyway), a value that is no valid escape. A query in
// that form already, as the site's own links are (url.Values.Encode sorts
// by name), is returned as it is, with no copy made: a warm hit builds its
// key without allocating. One page, one key: another spelling of the same
// value is no new miss and no new entry.
func pageQuery(params []string, raw string) string {
	if raw == "" || inPageForm(params, raw) {
		return raw
	}
	return reducedQuery(params, raw)
}

// paramAt is the index in params of the raw part's name, -1 when the part
// is not kept under any.
func paramAt(params []string, part string) int {
	name, value, _ := strings.Cut(part, "=")
	if value == "" || strings.IndexByte(part, ';') >= 0 {
		return -1
	}
	return slices.Index(params, name)
}

// inPageForm reports whether raw is what pageQuery would make of it.
func inPageForm(params []string, raw string) bool {
	last := -1
	for part := range strings.SplitSeq(raw, "&") {
		i := paramAt(params, part)
		if i <= last { // -1 included, and a parameter again
			return false
		}
		_, v, _ := strings.Cut(part, "=")
		if !inValueForm(v) || (params[i] == langParam && !isLangTag(v)) {
			return false
		}
		last = i
	}
	return true
}

// reducedQuery is pageQuery's copy of raw, for a query not in that form.
func reducedQuery(params []string, raw string) string {
	var kept []string
	var seen uint64 // by index in params, which are far fewer than 64
	for part := range strings.SplitSeq(raw, "&") {
		i := paramAt(params, part)
		if i < 0 || seen&(1<<i) != 0 {
			continue // the first one counts, as Query().Get reads it
		}
		seen |= 1 << i
		if params[i] == langParam {
			part = langPart(part)
		}
		if part = valuePart(part); part == "" {
			continue
		}
		kept = append(kept, part)
	}
	slices.SortFunc(kept, func(a, b string) int { return paramAt(params, a) - paramAt(params, b) })
	return strings.Join(kept, "&")
}

// langPart is a ?lang= part as the tag it names, "" when it names none.
func langPart(part string) string {
	_, v, _ := strings.Cut(part, "=")
	v, err := url.QueryUnescape(v)
	if err != nil {
		return ""
	}
	tag, ok := i18n.Normalize(v)
	if !ok {
		return ""
	}
	return langParam + "=" + tag
}

// isLangTag reports whether v is a supported tag as written.
func isLangTag(v string) bool {
	return slices.ContainsFunc(i18n.Languages, func(l i18n.Language) bool { return l.Tag == v })
}

// valuePart is a kept part with its value in inValueForm, "" when the value
// is no valid escape.
func valuePart(part string) string {
	name, v, _ := strings.Cut(part, "=")
	if inValueForm(v) {
		return part
	}
	v, err := url.QueryUnescape(v)
	if err != nil {
		return ""
	}
	return name + "=" + escapeValue(v)
}

// inValueForm reports whether a query value is written the one way pages
// are kept under: unreserved bytes and ',' as they are (the separator of
// compare's runs, which the site's links write bare), a space as '+', and
// every other byte as %XX in upper case. It is url.QueryEscape's form but
// for ','.
func inValueForm(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case bareInValue(c), c == '+':
		case c == '%' && i+2 < len(v) && isUpperHex(v[i+1]) && isUpperHex(v[i+2]):
			b := unhex(v[i+1])<<4 | unhex(v[i+2])
			if bareInValue(b) || b == ' ' {
				return false
			}
			i += 2
		default:
			return false
		}
	}
	return true
}

// escapeValue writes v in inValueForm.
func escapeValue(v string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case bareInValue(c):
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// bareInValue reports whether c is written as itself in a kept value.
func bareInValue(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '~' || c == ','
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}
