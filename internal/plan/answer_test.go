package plan

import (
	"net/url"
	"testing"
)

func f(v float64) *float64 { return &v }

var qwen = SetupKey{Model: "qwen3-5-4b-fp8", ModelBase: "qwen3-5-4b", Engine: "vllm", Quantization: "fp8"}

// answered is a setup's answer as the store gives it: users served at
// speed per request, from run id (none when users is 0).
func answered(k SetupKey, id string, users int, speed float64) Setup {
	s := Setup{Key: k, ModelName: k.Model, MaxUsers: users, ContextUsed: 16384}
	if users > 0 {
		s.RunID, s.PerRequestTPS = id, speed
	}
	return s
}

func TestUsersFilterSplits(t *testing.T) {
	other := SetupKey{Model: "llama-3-1-8b", ModelBase: "llama-3-1-8b", Engine: "llama-cpp", Quantization: "q4-k-m"}
	setups := []Setup{answered(other, "b", 4, 30), answered(qwen, "a", 8, 25)}
	a := Measured(Request{Context: 16384, MinUserTPS: 20, Users: 8}, setups, false)
	if len(a.Setups) != 1 || a.Setups[0].Key != qwen || len(a.Unmet) != 1 || a.Unmet[0].MaxUsers != 4 {
		t.Fatalf("users=8: setups %+v, unmet %+v", a.Setups, a.Unmet)
	}
	// Without users= both meet, ranked by users served.
	a = Measured(Request{Context: 16384, MinUserTPS: 20}, setups, false)
	if len(a.Setups) != 2 || a.Setups[0].Key != qwen || a.Setups[1].MaxUsers != 4 {
		t.Fatalf("any users: %+v", a.Setups)
	}
	// Same users served: the faster per request first; none served: unmet.
	setups = []Setup{answered(qwen, "a", 1, 48), answered(other, "b", 1, 70), answered(SetupKey{Model: "m"}, "", 0, 0)}
	a = Measured(Request{Context: 16384, MinUserTPS: 45}, setups, false)
	if len(a.Setups) != 2 || a.Setups[0].Key != other || a.Setups[1].Key != qwen || len(a.Unmet) != 1 {
		t.Fatalf("need 45: %+v", a)
	}
}

func TestFiltersAndDemo(t *testing.T) {
	demo := qwen
	demo.Demo = true
	other := SetupKey{Model: "qwen3-14b-awq", ModelBase: "qwen3-14b", Engine: "sglang", Quantization: "awq"}
	setups := []Setup{answered(demo, "d", 16, 30), answered(qwen, "a", 8, 25), answered(other, "b", 1, 30)}
	r := Request{Context: 16384, MinUserTPS: 20}
	if a := Measured(r, setups, false); len(a.Setups) != 2 {
		t.Errorf("without demo: %d setups, want 2", len(a.Setups))
	}
	a := Measured(r, setups, true)
	if len(a.Setups) != 3 || !a.Setups[2].Key.Demo {
		t.Errorf("demo setups rank after measured ones: %+v", a.Setups)
	}
	for _, tc := range []struct {
		r    Request
		want int
	}{
		{Request{Model: "4b"}, 1}, {Request{Model: "14b"}, 1}, {Request{Model: "qwen3"}, 2},
		{Request{Model: "qwen3-5"}, 1}, {Request{Engine: "sglang"}, 1}, {Request{Quantization: "fp8"}, 1},
		{Request{Model: "qwen"}, 0},
	} {
		tc.r.Context, tc.r.MinUserTPS = 16384, 20
		if a := Measured(tc.r, setups, false); len(a.Setups) != tc.want || a.SetupsTotal != tc.want {
			t.Errorf("%+v: %d setups, want %d", tc.r, len(a.Setups), tc.want)
		}
	}
}

func TestParseRequest(t *testing.T) {
	parse := func(q string) (Request, []Problem) {
		v, err := url.ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		return ParseRequest(v)
	}
	r, probs := parse("hardware=rtx-3060-12gb&context=16384&min_user_tps=20")
	if len(probs) != 0 || r.Hardware != "rtx-3060-12gb" || r.GPUs != 1 || r.Context != 16384 || r.MinUserTPS != 20 || r.Users != 1 {
		t.Errorf("plain: %+v %v", r, probs)
	}
	r, _ = parse("hardware=rtx-3090-24gb&gpus=2")
	if r.Hardware != "2x-rtx-3090-24gb" || r.Device != "rtx-3090-24gb" || r.GPUs != 2 {
		t.Errorf("gpus=2: %+v", r)
	}
	r, _ = parse("hardware=2x-RTX-3090-24gb&preset=team")
	if r.GPUs != 2 || r.Context != 16384 || r.Users != 8 || r.Preset != "team" {
		t.Errorf("team preset: %+v", r)
	}
	if q := r.Query(); q != "hardware=2x-rtx-3090-24gb&preset=team" {
		t.Errorf("query %q", q)
	}
	for q, param := range map[string]string{
		"hardware=rtx-3060-12gb&context=-1":         "context",
		"hardware=rtx-3060-12gb&context=abc":        "context",
		"context=8192":                              "hardware",
		"hardware=rtx 3060":                         "hardware",
		"hardware=2x-rtx-3090-24gb&gpus=4":          "gpus",
		"hardware=rtx-3060-12gb&min_user_tps=0":     "min_user_tps",
		"hardware=rtx-3060-12gb&min_user_tps=NaN":   "min_user_tps",
		"hardware=rtx-3060-12gb&users=5000":         "users",
		"hardware=rtx-3060-12gb&preset=party":       "preset",
		"hardware=rtx-3060-12gb&model=%3Cscript%3E": "model",
		"hardware=rtx-3060-12gb&gpus=0":             "gpus",
	} {
		_, probs := parse(q)
		if len(probs) != 1 || probs[0].Param != param {
			t.Errorf("%s: problems %v, want one naming %s", q, probs, param)
		}
	}
	// Each of Params (the cache key) is read: a bad value of each is
	// a problem naming it.
	all := url.Values{}
	for _, p := range Params {
		all.Set(p, "bad value")
	}
	if _, probs := ParseRequest(all); len(probs) != len(Params) {
		t.Errorf("%d problems of %d parameters: %v", len(probs), len(Params), probs)
	}
	if _, probs := parse("hardware=rtx-3060-12gb&context=-5"); probs[0].Error() != "context: out of range" {
		t.Errorf("error text %q", probs[0].Error())
	}
}
