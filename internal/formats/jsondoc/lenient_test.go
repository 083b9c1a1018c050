package jsondoc

import (
	"math"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

func TestSanitize(t *testing.T) {
	in := `{"a":NaN,"b":[Infinity,-Infinity],"s":"NaN \"Infinity\"","t":"x\\","u":NaN}`
	want := `{"a":"NaN","b":["Infinity","-Infinity"],"s":"NaN \"Infinity\"","t":"x\\","u":"NaN"}`
	if got := string(Sanitize([]byte(in))); got != want {
		t.Errorf("Sanitize = %s", got)
	}
}

func TestSplit(t *testing.T) {
	for _, tt := range []struct {
		in              string
		n               int
		array, truncate bool
		path1           string
	}{
		{`{"a":1}`, 1, false, false, ""},
		{"{\"a\":1}\n{\"a\":2}\n", 2, false, false, "$[1]"},
		{`{"a":1}{"a":2}`, 2, false, false, "$[1]"},
		{"[\n {\"a\":1},\n {\"a\":2}\n]\n", 2, true, false, "$[1]"},
		{"[\n {\"a\":1},\n {\"a\":2}", 2, true, true, "$[1]"},
		{"[\n {\"a\":1},\n {\"a\":", 1, true, true, ""},
		{"{\"a\":1}\n{\"a\":", 1, false, true, ""},
	} {
		d, err := Split([]byte(tt.in))
		if err != nil || len(d.Values) != tt.n || d.Array != tt.array || d.Truncated != tt.truncate {
			t.Errorf("Split(%q) = %+v, %v", tt.in, d, err)
			continue
		}
		if tt.path1 != "" && d.Path(1) != tt.path1 {
			t.Errorf("Split(%q) path 1 = %s", tt.in, d.Path(1))
		}
	}
	for _, in := range []string{``, `{"a":`, `{"a":1} x`, `[{"a":1} {"b":2}]`, "\xff"} {
		if _, err := Split([]byte(in)); err == nil {
			t.Errorf("Split(%q) accepted", in)
		} else if _, ok := problem.As(err); !ok {
			t.Errorf("Split(%q) = %v, not a refusal", in, err)
		}
	}
}

func TestObjectNumbers(t *testing.T) {
	d, _ := Split([]byte(`{"nan":NaN,"inf":Infinity,"s":"131","sinf":"inf","neg":-2,"frac":1.5,"word":"x","null":null}`))
	probs := NewChecker()
	o := NewObject(d.Values[0], "$", probs)
	if o.Float("nan") != nil || o.Float("null") != nil || o.Float("missing") != nil {
		t.Error("NaN, null and absent must read as unknown")
	}
	if v := o.Float("inf"); v == nil || !math.IsInf(*v, 1) {
		t.Errorf("Infinity = %v", v)
	}
	if v := o.Float("sinf"); v == nil || !math.IsInf(*v, 1) {
		t.Errorf(`"inf" = %v`, v)
	}
	if v := o.Count("s"); v == nil || *v != 131 {
		t.Errorf(`"131" = %v`, v)
	}
	if len(probs.Problems) != 0 {
		t.Fatalf("problems so far: %+v", probs.Problems)
	}
	o.Measure("inf")
	o.Measure("neg")
	o.Count("frac")
	o.Float("word")
	want := []string{"$.inf problem.nonfinite", "$.neg problem.negative", "$.frac problem.integer", "$.word problem.type"}
	for i, p := range probs.Problems {
		if i >= len(want) || p.Path+" "+p.Key != want[i] {
			t.Errorf("problem %d = %s %s", i, p.Path, p.Key)
		}
	}
	if o.Try("word") != nil || len(probs.Problems) != 4 {
		t.Error("Try must not record problems")
	}
}
