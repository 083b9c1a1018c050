package account_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestLookalikeNames: names are compared by what they look like. With an
// account alice, an organisation acme and a retired handle carol, an
// anonymous upload typed as any look-alike of them (Cyrillic letters,
// full-width letters, zero-width characters, a slug, a retired handle) is
// refused with 422 naming the submitter field, as ALICE and its spaced
// spellings were already; an unrelated name is accepted. A new handle or
// slug that looks like one in use is refused at sign-up and at the
// creation of an organisation, with words of its own.
func TestLookalikeNames(t *testing.T) {
	s := webtest.NewSite(t)
	ctx := context.Background()
	webtest.NewVisitor(t, s).Signup("alice", "alice@example.com", webtest.Password)
	bob := webtest.NewVisitor(t, s)
	bob.Signup("bob", "bob@example.com", webtest.Password)
	if resp, page := bob.Post("/account/orgs", url.Values{"org_slug": {"acme"}, "org_name": {"Acme Labs"}}); resp.StatusCode != 303 {
		t.Fatalf("creating acme = %d: %.300s", resp.StatusCode, page)
	}
	webtest.NewVisitor(t, s).Signup("carol", "carol@example.com", webtest.Password)
	carol, err := s.Store.AccountByHandle(ctx, "carol")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.DeleteAccount(ctx, carol.ID); err != nil { // carol is retired
		t.Fatal(err)
	}
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")

	for _, c := range []struct{ name, words string }{
		{"аlice", "looks like"},          // Cyrillic а
		{"ａｌｉｃｅ", "looks like"},          // full-width
		{"al\u200dice", "looks like"},    // zero-width joiner
		{"alice\u200b", "looks like"},    // zero-width space
		{"acme", "looks like"},           // an organisation's slug
		{"ａcme", "looks like"},           // and its look-alike
		{"carol", "looks like"},          // a retired handle
		{"саrol", "looks like"},          // and its look-alike (Cyrillic с, а)
		{"ALICE", "is the handle"},       // refused before, still
		{" alice ", "is the handle"},     // idem
		{"alice\u00a0", "is the handle"}, // idem
	} {
		body, ct := webtest.MultipartBody(t, seed, "b.json", map[string]string{"submitter": c.name})
		resp, out := s.Post(t, ct, body, "Accept-Language: en")
		probs, _ := out["problems"].([]any)
		var path, msg string
		if len(probs) > 0 {
			p, _ := probs[0].(map[string]any)
			path, _ = p["path"].(string)
			msg, _ = p["message"].(string)
		}
		if resp.StatusCode != 422 || path != "submitter" || !strings.Contains(msg, c.words) {
			t.Errorf("anonymous upload as %+q = %d %v, want 422 naming submitter, saying %q", c.name, resp.StatusCode, out, c.words)
		}
	}
	body, ct := webtest.MultipartBody(t, seed, "b.json", map[string]string{"submitter": "аlice"})
	if resp, page := webtest.NewVisitor(t, s).Upload(body, ct); resp.StatusCode != 422 || !strings.Contains(page, `id="f-submitter-error"`) {
		t.Errorf("form upload as Cyrillic аlice = %d, want 422 with the message at the submitter field", resp.StatusCode)
	}
	body, ct = webtest.MultipartBody(t, seed, "b.json", map[string]string{"submitter": "alicia"})
	if resp, out := s.Post(t, ct, body); resp.StatusCode != 201 {
		t.Errorf("anonymous upload as alicia, a name nobody has = %d %v, want 201", resp.StatusCode, out)
	}

	// Sign-up: a1ice looks like alice, acrne like acme (UTS #39 reads rn
	// as m: it over-matches, and only ever refuses a new name), caro1 like
	// the retired carol.
	lookalike := "looks like a name already in use"
	for _, handle := range []string{"a1ice", "acrne", "caro1"} {
		resp, page := webtest.NewVisitor(t, s).Post("/signup?lang=en", url.Values{"handle": {handle},
			"email": {handle + "@example.com"}, "password": {webtest.Password}})
		if resp.StatusCode != 422 || !strings.Contains(page, lookalike) {
			t.Errorf("sign-up as %s = %d, want 422 saying the handle %q: %.300s", handle, resp.StatusCode, lookalike, page)
		}
	}
	if _, err := s.Store.AccountByHandle(ctx, "a1ice"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a1ice exists after its refused sign-up (%v)", err)
	}

	// An organisation: b0b looks like bob, a1ice like alice, acrne like acme.
	for _, slug := range []string{"b0b", "a1ice", "acrne"} {
		resp, page := bob.Post("/account/orgs?lang=en", url.Values{"org_slug": {slug}, "org_name": {"Look-alike"}})
		if resp.StatusCode != 422 || !strings.Contains(page, "That short name "+lookalike) {
			t.Errorf("creating the organisation %s = %d, want 422 saying it %q: %.300s", slug, resp.StatusCode, lookalike, page)
		}
	}
	if resp, page := bob.Post("/account/orgs", url.Values{"org_slug": {"bobs-lab"}, "org_name": {"Bob’s lab"}}); resp.StatusCode != 303 {
		t.Errorf("creating bobs-lab, unlike any name = %d: %.300s", resp.StatusCode, page)
	}
}
