package i18n

import (
	"context"
	"math"
	"testing"

	"golang.org/x/text/language"
)

func TestPick(t *testing.T) {
	cases := []struct {
		query, cookie, accept, want string
	}{
		{"", "", "", "en"},
		{"ja", "zh-Hans", "zh-CN", "ja"},            // query first
		{"", "zh-Hans", "ja", "zh-Hans"},            // then cookie
		{"", "", "sv-SE,ja;q=0.8,en;q=0.5", "ja"},   // then Accept-Language, skipping unknown
		{"", "", "en;q=0.3,zh-CN;q=0.9", "zh-Hans"}, // by q, not order
		{"xx", "klingon", "sv", "en"},               // unknown everywhere
		{"sv", "", "ja-JP", "ja"},                   // unknown query ignored
		{"ko-KR", "", "", "ko"},                     // the five added languages
		{"", "", "de-AT,en;q=0.5", "de"},            //
		{"es-419", "", "", "es"},                    //
		{"", "fr-CA", "", "fr"},                     //
		{"pt-BR", "", "", "pt-BR"},                  //
		{"pt", "", "", "pt-BR"},                     // pt → pt-BR
		{"", "", "pt-PT", "pt-BR"},                  //
		{"zh-HK", "", "", "en"},                     // Traditional again
		{"", "", "zh-HK,de;q=0.5", "de"},            //
		{"zh", "", "", "zh-Hans"},                   // zh → zh-Hans
		{"zh-CN", "", "", "zh-Hans"},                //
		{"zh-SG", "", "", "zh-Hans"},                //
		{"zh_CN", "", "", "zh-Hans"},                // underscore spelling
		{"zh-TW", "", "", "en"},                     // Traditional is not Simplified
		{"", "", "zh-Hant,ja;q=0.5", "ja"},          //
		{"EN-us", "", "", "en"},                     // case
		{"", "", "garbage;;;", "en"},                // malformed header
	}
	for _, c := range cases {
		if got := Pick(c.query, c.cookie, c.accept); got != c.want {
			t.Errorf("Pick(%q, %q, %q) = %q, want %q", c.query, c.cookie, c.accept, got, c.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	en := NewNumbers(language.English)
	de := NewNumbers(language.German)
	ja := NewNumbers(language.Japanese)
	zh := NewNumbers(language.MustParse("zh-Hans"))
	cases := []struct {
		n    Numbers
		got  string
		want string
	}{
		{en, en.Int(2186), "2,186"},
		{ja, ja.Int(2186), "2,186"},
		{zh, zh.Int(2186), "2,186"},
		{de, de.Int(2186), "2.186"},
		{en, en.Dec(2186, 1), "2,186.0"},
		{de, de.Dec(2186, 1), "2.186,0"},
		{en, en.Dec(0.8, 2), "0.80"},
		{en, en.Dec(29.94, 1), "29.9"},
		{en, en.Dec(224.0, 1), "224.0"},
		// Go's -0.0 literal is positive zero: the sign has to be made.
		{en, en.Dec(math.Copysign(0, -1), 1), "0.0"},
		{en, en.Dec(-0.04, 1), "0.0"},
		{de, de.Dec(-0.004, 2), "0,00"},
		{en, en.Dec(-0.06, 1), "-0.1"},
		{en, en.Int(0), "0"},
		{en, en.Int(286720), "286,720"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}

func TestLocalizer(t *testing.T) {
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	en, ja := b.Localizer("en"), b.Localizer("ja")
	if got := en.T("nav.upload", nil); got != "Upload" {
		t.Errorf("en nav.upload = %q", got)
	}
	if got := ja.T("nav.upload", nil); got != "アップロード" {
		t.Errorf("ja nav.upload = %q", got)
	}
	if got := en.N("run.summary.contexts", 1, map[string]any{"Range": "8K"}); got != "1 context (8K)" {
		t.Errorf("singular = %q", got)
	}
	if got := en.N("run.summary.contexts", 6, map[string]any{"Range": "0–248K"}); got != "6 contexts (0–248K)" {
		t.Errorf("plural = %q", got)
	}
	if got := en.N("unit.tokens", 8192, nil); got != "8,192 tokens" {
		t.Errorf("grouped count = %q", got)
	}
	if len(en.Missing())+len(ja.Missing()) != 0 {
		t.Errorf("unexpected missing: %v %v", en.Missing(), ja.Missing())
	}
	// A missing id comes back as itself and is recorded, never a panic.
	if got := ja.T("no.such.id", nil); got != "no.such.id" {
		t.Errorf("missing id = %q", got)
	}
	if m := ja.Missing(); len(m) != 1 || m[0] != "no.such.id" {
		t.Errorf("Missing() = %v", m)
	}
	if got := b.Localizer("xx").Lang(); got != "en" {
		t.Errorf("unsupported tag gives %q", got)
	}
}

func TestContext(t *testing.T) {
	if got := FromContext(context.Background()).Lang(); got != "en" {
		t.Errorf("fallback = %q", got)
	}
	b, _ := Default()
	ctx := WithLocalizer(context.Background(), b.Localizer("zh-Hans"))
	if got := FromContext(ctx).T("nav.home", nil); got != "首页" {
		t.Errorf("zh nav.home = %q", got)
	}
}
