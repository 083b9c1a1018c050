package planview

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/plan"
)

// TestEveryProblemWorded: each parameter ParseRequest can name, with each
// message, has its words in every language.
func TestEveryProblemWorded(t *testing.T) {
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	var probs []plan.Problem
	for _, param := range []string{"hardware", "gpus", "context", "users", "min_user_tps", "preset", "model", "engine", "quantization", "limit"} {
		for _, msg := range []string{plan.MsgRequired, plan.MsgNumber, plan.MsgRange, plan.MsgUnknown, plan.MsgSlug, plan.MsgCount} {
			probs = append(probs, plan.Problem{Param: param, Message: msg})
		}
	}
	for _, lang := range i18n.Languages {
		l := b.Localizer(lang.Tag)
		v := Build(l, Input{Request: plan.Request{Hardware: "rtx-3060-12gb"}, Problems: probs})
		if m := l.Missing(); len(m) > 0 {
			t.Errorf("%s: missing %v", lang.Tag, m)
		}
		if len(v.Problems) != len(probs) || v.Answered {
			t.Errorf("%s: %d problems worded of %d", lang.Tag, len(v.Problems), len(probs))
		}
	}
}

func TestBar(t *testing.T) {
	for _, tc := range []struct {
		v, largest float64
		want       int
	}{{8, 8, 100}, {1, 8, 13}, {1, 1000, 2}, {0, 8, 0}, {3, 0, 0}} {
		if got := bar(tc.v, tc.largest); got != tc.want {
			t.Errorf("bar(%g, %g) = %d, want %d", tc.v, tc.largest, got, tc.want)
		}
	}
}
