package site

import "testing"

func TestWithoutTracking(t *testing.T) {
	for raw, want := range map[string]string{
		"":                                   "",
		"lang=ja":                            "lang=ja",
		"utm_source=forum":                   "",
		"fbclid=IwAR0abc&lang=de":            "lang=de",
		"hardware=rtx-4090&utm_medium=x&q=1": "hardware=rtx-4090&q=1",
		"gclid=1&msclkid=2&_ga=3&mc_cid=4":   "",
		"utm=1&clid=2&fbclid_x=3":            "utm=1&clid=2&fbclid_x=3", // only the names themselves
		"a=1&&utm_id=2&b":                    "a=1&b",
	} {
		if got := withoutTracking(raw); got != want {
			t.Errorf("withoutTracking(%q) = %q, want %q", raw, got, want)
		}
	}
}
