package report

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// localizer returns a localizer for tag and fails the test if any message
// it was asked for is missing.
func localizer(t *testing.T, tag string) *i18n.Localizer {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	l := b.Localizer(tag)
	t.Cleanup(func() {
		if m := l.Missing(); len(m) > 0 {
			t.Errorf("%s: missing messages %v", tag, m)
		}
	})
	return l
}

func TestContextLabel(t *testing.T) {
	for in, want := range map[int]string{
		0: "0", 512: "512", 8192: "8K", 16384: "16K", 131072: "128K", 253952: "248K",
		63424: "61.9K", 1048576: "1M", 1024: "1K",
	} {
		if got := ContextLabel(in); got != want {
			t.Errorf("ContextLabel(%d) = %q, want %q", in, got, want)
		}
	}
}

// TestFormatters pins every formatter at the seed page's precision.
func TestFormatters(t *testing.T) {
	l := localizer(t, "en")
	cases := []struct{ got, want string }{
		{FormatTPSCompact(l, run.F(2186)), "2,186"},
		{FormatTPSCompact(l, run.F(1779)), "1,779"},
		{FormatTPSCompact(l, run.F(875)), "875.0"},
		{FormatTPSCompact(l, run.F(63.5)), "63.5"},
		{FormatTPSCompact(l, run.F(8.3)), "8.3"},
		{FormatTPSCompact(l, nil), "—"},
		{FormatTPS(l, run.F(2186)), "2,186.0"},
		{FormatTPS(l, run.F(536.8)), "536.8"},
		{FormatTTFT(l, run.F(13783)), "13,783 ms"},
		{FormatTTFT(l, run.F(96)), "96 ms"},
		{FormatTTFT(l, run.F(244675)), "244,675 ms"},
		{FormatTBT(l, run.F(224)), "224.0 ms"},
		{FormatTBT(l, run.F(15.4)), "15.4 ms"},
		{FormatAvgActive(l, run.F(0.8)), "0.80"},
		{FormatAvgActive(l, run.F(13)), "13.00"},
		{FormatCount(l, run.I(16374)), "16,374"},
		{FormatCount(l, run.I(0)), "0"},
		{FormatSeconds(l, run.F(29.94)), "29.9 s"},
		{FormatSeconds(l, run.F(30)), "30.0 s"},
		{FormatSeconds(l, nil), "—"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
	ja := localizer(t, "ja")
	if got := FormatSeconds(ja, run.F(29.94)); got != "29.9 秒" {
		t.Errorf("ja seconds = %q", got)
	}
}
