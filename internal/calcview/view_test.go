package calcview

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// The address a result links is one per calculation: defaults left out,
// fields in a fixed order, and it reads back to the same form.
func TestQueryRoundTrip(t *testing.T) {
	q, _ := url.ParseQuery("weights=FP8&gpu=rtx-3060-12gb&model=Qwen/Qwen3.5-4B&kv=int4&context=0&config=&spec_tokens=2&acceptance=0.8&gpu_count=1")
	f, probs := ParseForm(q)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	want := "acceptance=0.8&gpu=rtx-3060-12gb&kv=int4&model=Qwen%2FQwen3.5-4B&spec_tokens=2&weights=fp8"
	if got := f.Query(); got != want {
		t.Errorf("query %s, want %s", got, want)
	}
	back, _ := url.ParseQuery(f.Query())
	if g, _ := ParseForm(back); g != f {
		t.Errorf("read back %+v, want %+v", g, f)
	}
}

// Every field out of range is a problem naming it; an empty query is a
// form to fill, not an error.
func TestParseFormProblems(t *testing.T) {
	if f, probs := ParseForm(url.Values{}); len(probs) > 0 || f.Submitted {
		t.Errorf("empty query: %v, submitted %v", probs, f.Submitted)
	}
	q, _ := url.ParseQuery("gpu=x&gpu_count=0&context=abc&concurrency=5000&spec_tokens=17&acceptance=1.5&weights=fp3&head=x&kv=q4_k_m&config=" + strings.Repeat("a", MaxConfigBytes+1))
	_, probs := ParseForm(q)
	var fields []string
	for _, p := range probs {
		fields = append(fields, p.Field)
	}
	slices.Sort(fields)
	want := []string{"acceptance", "concurrency", "config", "context", "gpu_count", "head", "kv", "spec_tokens", "weights"}
	if !slices.Equal(fields, want) {
		t.Errorf("problems on %v, want %v", fields, want)
	}
}

// Every message the page composes exists in every language: each
// precision, each confidence of each table row, each refusal.
func TestBuildEveryLanguage(t *testing.T) {
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	tables, err := calculator.Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Languages {
		l := b.Localizer(lang.Tag)
		for _, g := range tables.GPUs {
			q := url.Values{"gpu": {g.ID}, "model": {tables.Models[0].ID}, "spec_tokens": {"2"}}
			if v := Build(l, tables, mustParse(t, q), nil); v.Result == nil {
				t.Fatalf("%s: no result", g.ID)
			}
		}
		for _, m := range tables.Models {
			Build(l, tables, mustParse(t, url.Values{"gpu": {"h100-sxm-80gb"}, "model": {m.ID}}), nil)
		}
		q, _ := url.ParseQuery("gpu=x&model=y&kv=zz")
		f, probs := ParseForm(q)
		Build(l, tables, f, probs)
		Build(l, tables, mustParse(t, url.Values{"gpu": {"l4-24gb"}, "config": {"{}"}}), nil)
		BuildDocs(l, tables)
		if missing := l.Missing(); len(missing) > 0 {
			t.Errorf("%s lacks %v", lang.Tag, missing)
		}
	}
}

func mustParse(t *testing.T, q url.Values) Form {
	t.Helper()
	f, probs := ParseForm(q)
	if len(probs) > 0 {
		t.Fatalf("%v: %v", q, probs)
	}
	return f
}
