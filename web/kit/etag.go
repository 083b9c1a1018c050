package kit

import (
	"net/http"
	"strings"
)

// NotModified is the one ETag/304 helper of every cached answer: it sets
// etag on the response and, when the request's If-None-Match already has
// it, answers 304 and reports true, so the caller loads and sends nothing
// more. Comparison is weak, as RFC 9110 asks for If-None-Match: W/"x"
// matches "x"; and the cached pages' encodings of one body ("x-gz",
// "x-br", "x") match each other, since each is that body.
func NotModified(w http.ResponseWriter, r *http.Request, etag string) bool {
	return NotModifiedTag(w, r, etag, []string{etag})
}

// NotModifiedTag is NotModified with the header value made already
// (value is []string{etag}).
func NotModifiedTag(w http.ResponseWriter, r *http.Request, etag string, value []string) bool {
	w.Header()["Etag"] = value
	if !matches(r.Header.Get("If-None-Match"), etag) {
		return false
	}
	w.WriteHeader(http.StatusNotModified)
	return true
}

// matches reports whether an If-None-Match list names etag, or is "*".
func matches(list, etag string) bool {
	if list == "" {
		return false
	}
	want := opaque(etag)
	for _, tag := range strings.Split(list, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || opaque(tag) == want {
			return true
		}
	}
	return false
}

// opaque is a tag without its weakness and its encoding suffix.
func opaque(tag string) string {
	tag = strings.TrimPrefix(tag, "W/")
	for _, enc := range []string{`-gz"`, `-br"`} {
		if strings.HasSuffix(tag, enc) {
			return strings.TrimSuffix(tag, enc) + `"`
		}
	}
	return tag
}
