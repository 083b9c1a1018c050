package jsondoc

import (
	"encoding/json"
	"math"
	"testing"
)

// Num reads what Python tools write for a number: numbers, numeric
// strings, and Python's non-finite values and empty strings as not given;
// anything else is kept in Bad for the checker's message.
func TestNum(t *testing.T) {
	for _, tt := range []struct {
		in  string
		v   float64
		set bool
		bad string
	}{
		{`12.5`, 12.5, true, ""},
		{`"131"`, 131, true, ""},
		{`" 4 "`, 4, true, ""},
		{`null`, 0, false, ""},
		{`"NaN"`, 0, false, ""},
		{`"-inf"`, 0, false, ""},
		{`"Infinity"`, 0, false, ""},
		{`""`, 0, false, ""},
		{`"fast"`, 0, false, "fast"},
		{`"1e400"`, 0, false, "1e400"},
		{`1e400`, 0, false, "1e400"},
		{`true`, 0, false, "true"},
		{`{"a":1}`, 0, false, `{"a":1}`},
	} {
		var doc struct{ N Num }
		if err := json.Unmarshal([]byte(`{"N":`+tt.in+`}`), &doc); err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if n := doc.N; n.V != tt.v || n.Set != tt.set || n.Bad != tt.bad {
			t.Errorf("%s read as %+v", tt.in, n)
		}
	}
}

// The checker's rules: what is absent or NaN is unknown, infinities and
// negatives are problems, counts are whole, a concurrency is at least 1,
// and 0 is "no samples" where Positive is asked for.
func TestChecker(t *testing.T) {
	c := NewChecker()
	f := func(v float64) *float64 { return &v }
	if c.Measure("$.a", nil) != nil || c.Measure("$.a", f(math.NaN())) != nil || len(c.Problems) != 0 {
		t.Fatal("absent and NaN must read as unknown without a problem")
	}
	if v := c.Measure("$.a", f(0)); v == nil || *v != 0 {
		t.Errorf("Measure(0) = %v", v)
	}
	if c.Positive("$.a", f(0)) != nil {
		t.Error("Positive(0) must be unknown")
	}
	if v := c.Count("$.a", f(89.0)); v == nil || *v != 89 {
		t.Errorf("Count(89.0) = %v", v)
	}
	if got := c.Concurrency("$.a", f(8)); got != 8 || len(c.Problems) != 0 {
		t.Fatalf("Concurrency(8) = %d, problems %+v", got, c.Problems)
	}
	c.Measure("$.inf", f(math.Inf(-1)))
	c.Positive("$.neg", f(-2))
	c.Count("$.frac", f(1.5))
	c.Count("$.big", f(MaxCount*2))
	c.Concurrency("$.zero", f(0))
	c.Concurrency("$.none", nil)
	c.Num("$.word", Num{Bad: "fast"})
	want := []string{"$.inf problem.nonfinite", "$.neg problem.negative", "$.frac problem.integer",
		"$.big problem.integer", "$.zero problem.concurrency", "$.none problem.concurrency", "$.word problem.type"}
	if len(c.Problems) != len(want) {
		t.Fatalf("problems = %+v", c.Problems)
	}
	for i, p := range c.Problems {
		if p.Path+" "+p.Key != want[i] {
			t.Errorf("problem %d = %s %s, want %s", i, p.Path, p.Key, want[i])
		}
	}
	if c.Problems[0].Data["Value"] != "-Inf" || c.Problems[5].Data["Value"] != "nothing" {
		t.Errorf("values = %v, %v", c.Problems[0].Data, c.Problems[5].Data)
	}
}
