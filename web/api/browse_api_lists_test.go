package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestAPIIdentityLists: /api/v1/hardware, /engines and /models list what
// runs name with their counts and links that work; a hidden run leaves the
// counts; reads are open to other origins.
func TestAPIIdentityLists(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	type item struct {
		Slug, Name, URL string
		Runs            int64
		RunsURL         string `json:"runs_url"`
		Base            *struct{ Slug, Name string }
	}
	list := func(path, field string) []item {
		t.Helper()
		resp, body := s.Get(t, path, "Origin: https://forum.example")
		if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("%s = %d, CORS %q: %s", path, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), body)
		}
		var out map[string][]item
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			t.Fatal(err)
		}
		return out[field]
	}
	hw := list("/api/v1/hardware", "hardware")
	if len(hw) != 1 || hw[0].Slug != "rtx-3060-12gb" || hw[0].Runs != 1 || !strings.HasSuffix(hw[0].URL, "/hardware/rtx-3060-12gb") {
		t.Fatalf("hardware = %+v", hw)
	}
	for _, u := range []string{hw[0].URL, hw[0].RunsURL} {
		resp, body := s.Get(t, strings.TrimPrefix(u, s.URL))
		if resp.StatusCode != 200 || !strings.Contains(body, id) {
			t.Errorf("%s = %d and does not show run %s", u, resp.StatusCode, id)
		}
	}
	if e := list("/api/v1/engines", "engines"); len(e) != 1 || e[0].Slug != "vllm" || e[0].Name == "" {
		t.Errorf("engines = %+v", e)
	}
	m := list("/api/v1/models", "models")
	if len(m) != 1 || m[0].Base == nil || m[0].Base.Slug == "" || m[0].Runs != 1 {
		t.Fatalf("models = %+v", m)
	}
	if resp, _ := s.Get(t, strings.TrimPrefix(m[0].URL, s.URL)); resp.StatusCode != http.StatusOK {
		t.Errorf("%s = %d", m[0].URL, resp.StatusCode)
	}
	if err := s.Store.HideRun(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if hw := list("/api/v1/hardware", "hardware"); len(hw) != 0 {
		t.Errorf("after hiding the only run, hardware = %+v", hw)
	}
}
