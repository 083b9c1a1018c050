package kit

import (
	"net/url"
	"path"
	"strings"
	"unicode"
)

// defaultNext is where a refused return address goes: the account page.
const defaultNext = "/account"

// maxNext bounds a return address: longer than any address the site makes
// for a page, short enough for the GitHub sign-in's cookie.
const maxNext = 2048

// LocalNext is the one check of every return address a client gives
// (`next` on sign-in, the address kept through GitHub's round trip): next
// when it is a path on this site, else defaultNext. Browsers forgive much
// that the server would read as local: they drop tabs and line breaks
// (`/\t/evil.com` is `//evil.com`, another site), read `\` as `/`, and
// undo `.` segments and encoded slashes; so only a plain path passes,
// refused whole rather than repaired:
//   - printable ASCII only: no control character, space or raw non-ASCII
//     (a full-width solidus), no backslash;
//   - a path with no scheme and no host, starting with exactly one `/`;
//   - in the path, no encoded slash or backslash (%2F, %5C), no decoded
//     control character, no non-ASCII but letters, marks and digits, and
//     nothing path.Clean would change (`//`, `/./`, `/../`, also encoded).
//
// The query may hold anything encoded: `/search?q=Qwen%2FQwen3-8B` passes.
func LocalNext(next string) string {
	if !plainLocalPath(next) {
		return defaultNext
	}
	return next
}

// plainLocalPath is LocalNext's test.
func plainLocalPath(next string) bool {
	// "///x" parses as an empty host and the path "/x": the second slash
	// is refused here, before parsing could hide it.
	if next == "" || len(next) > maxNext || next[0] != '/' || strings.HasPrefix(next, "//") {
		return false
	}
	for i := 0; i < len(next); i++ {
		if c := next[i]; c <= ' ' || c >= 0x7f || c == '\\' {
			return false
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return false
	}
	rawPath, _, _ := strings.Cut(next, "?")
	rawPath, _, _ = strings.Cut(rawPath, "#")
	if lower := strings.ToLower(rawPath); strings.Contains(lower, "%2f") || strings.Contains(lower, "%5c") {
		return false
	}
	for _, r := range u.Path {
		if unicode.IsControl(r) || r == '\\' ||
			(r > unicode.MaxASCII && !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r)) {
			return false
		}
	}
	clean := path.Clean(u.Path)
	if strings.HasSuffix(u.Path, "/") && clean != "/" {
		clean += "/"
	}
	return clean == u.Path
}
