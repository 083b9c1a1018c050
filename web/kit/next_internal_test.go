package kit

import (
	"strings"
	"testing"
)

// TestLocalNextRefusesBypasses: every known way to make a local-looking
// return address leave the site goes to defaultNext; plain paths, with any
// encoded query, pass unchanged.
func TestLocalNextRefusesBypasses(t *testing.T) {
	refused := []string{
		// Tabs and line breaks, which browsers drop: `/\t/evil.com` is
		// `//evil.com`.
		"/%09/evil.com", "/\t/evil.com", "/\t\t/evil.com", "\t//evil.com", "/%09%09/evil.com",
		"/\r/evil.com", "/\n/evil.com", "/\r\n/evil.com", "/%0d%0a/evil.com", "/%0A/evil.com",
		"/\x00", "/%00/evil.com", "/\x7f/evil.com", "/%7f/evil.com", "/%c2%85/evil.com", // NUL, DEL, NEL
		// Two slashes or more: another host.
		"//", "//evil.com", "//evil.com/", "///", "///evil.com", "////evil.com", "//evil.com/%2F..",
		// A backslash is a slash to browsers.
		`/\`, `/\evil.com`, `/\/evil.com`, `\\evil.com`, `\/evil.com`, `/a\b`, `/search?q=\`,
		// Encoded slash or backslash in the path, in any case.
		"/%2F/evil.com", "/%2f/evil.com", "/%2F%2Fevil.com", "/%5C", "/%5c/evil.com", "/%5Cevil.com", "/a%2Fb",
		// Dot segments, which clean to something else (`/.//` to `//`).
		"/.//", "/.//evil.com", "/./evil.com", "/../evil.com", "/a/../b", "/a/./b", "/.", "/..",
		"/%2e%2e/evil.com", "/%2E/evil.com", "/.%2e/evil.com", "/a//b",
		// A scheme.
		"https://evil.com", "http://evil.com", "https:evil.com", "https:/evil.com", "HTTPS://evil.com",
		"javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,x",
		"mailto:x@evil.com", "/https://evil.com",
		// A full-width solidus and other slashes that are not `/`, raw
		// and encoded.
		"／evil.com", "／／evil.com", "/／evil.com", "/%EF%BC%8Fevil.com", "/%ef%bc%8f%ef%bc%8fevil.com",
		"/\u2215evil.com", "/%E2%88%95evil.com", "/\u2044evil.com", "/%E2%81%84evil.com",
		"/＼evil.com", "/%EF%BC%BCevil.com", "/%C0%AFevil.com", // full-width backslash, overlong `/`
		// Leading or inner white space.
		" /account", "  /account", "\u00a0/account", "\u3000/account", "/acc ount", "/account ",
		// Not a path at all.
		"", "account", "evil.com", "?next=/x", "#x", ".", "./account", "../account",
		"/%zz",                             // an escape that is none
		"/" + strings.Repeat("a", maxNext), // too long
	}
	for _, next := range refused {
		if got := LocalNext(next); got != defaultNext {
			t.Errorf("LocalNext(%q) = %q, want %q", next, got, defaultNext)
		}
	}
	accepted := []string{
		"/", "/account", "/account/", "/account/tokens", "/runs/abcdefgh23", "/account#tokens",
		"/search?q=Qwen%2FQwen3-8B", "/search?q=a%5Cb", "/runs?gpu=RTX+3060&after=x%2Fy",
		"/login?next=%2Faccount", "/gpus/caf%C3%A9", "/gpus/%E6%97%A5%E6%9C%AC",
		"/javascript:alert(1)", // a path on this site, not a scheme
		"/" + strings.Repeat("a", maxNext-1),
	}
	for _, next := range accepted {
		if got := LocalNext(next); got != next {
			t.Errorf("LocalNext(%q) = %q, want it unchanged", next, got)
		}
	}
}
