package i18n

import (
	"strings"

	"golang.org/x/text/language"
)

// Pick chooses the page language: an explicit ?lang= first, then the cookie
// holding an earlier choice, then the browser's Accept-Language, then
// English. Values naming no supported language are skipped, so a stale
// cookie or a typo in a link never breaks a page.
func Pick(query, cookie, acceptLanguage string) string {
	if tag, ok := Normalize(query); ok {
		return tag
	}
	if tag, ok := Normalize(cookie); ok {
		return tag
	}
	if acceptLanguage == "" {
		return English // without parsing: every request of many clients
	}
	// ParseAcceptLanguage sorts by q; a malformed header yields what it
	// could read, which is enough to try.
	tags, _, _ := language.ParseAcceptLanguage(acceptLanguage)
	for _, t := range tags {
		if tag, ok := normalizeTag(t); ok {
			return tag
		}
	}
	return English
}

// Normalize maps a language value from a URL, cookie or header to a supported
// tag: "ja-JP" → "ja", "de-AT" → "de", "pt" and "pt-PT" → "pt-BR" (the one
// Portuguese we write), "zh", "zh-CN", "zh-SG", "zh-Hans" → "zh-Hans". It
// reports false for anything else, including Traditional Chinese, which a
// Simplified page would serve badly.
func Normalize(s string) (string, bool) {
	if supported(s) {
		return s, true // as the site's own links and cookies write it: nothing to parse
	}
	s = strings.TrimSpace(strings.ReplaceAll(s, "_", "-"))
	if s == "" || len(s) > 35 {
		return "", false
	}
	t, err := language.Parse(s)
	if err != nil {
		return "", false
	}
	return normalizeTag(t)
}

func normalizeTag(t language.Tag) (string, bool) {
	base, conf := t.Base()
	if conf == language.No {
		return "", false
	}
	switch b := base.String(); b {
	case "en", "ja", "ko", "de", "es", "fr":
		return b, true
	case "pt":
		return "pt-BR", true
	case "zh":
		// Script() infers the script from the region when it is not
		// written: zh-TW → Hant, zh-CN and plain zh → Hans.
		if script, _ := t.Script(); script.String() == "Hans" {
			return "zh-Hans", true
		}
	}
	return "", false
}
