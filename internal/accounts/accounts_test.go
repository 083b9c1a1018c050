package accounts

import (
	"bytes"
	"testing"
)

func TestNewToken(t *testing.T) {
	a, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken()
	if !IsToken(a.Secret) || len(a.Secret) != len(TokenPrefix)+40 {
		t.Errorf("token %q does not match lil-bench's pattern with 40 random characters", a.Secret)
	}
	if a.Secret == b.Secret {
		t.Error("two tokens are equal")
	}
	if !bytes.Equal(a.Hash, Hash(a.Secret)) || len(a.Hash) != 32 {
		t.Errorf("hash is not the SHA-256 of the secret")
	}
	if a.Prefix != a.Secret[:11] || IsToken(a.Prefix) {
		t.Errorf("prefix %q: want the first 11 characters, not a usable token", a.Prefix)
	}
}

func TestBearerToken(t *testing.T) {
	for header, want := range map[string]struct {
		token string
		ok    bool
	}{
		"":                   {"", false},
		"Bearer lilb_abc":    {"lilb_abc", true},
		"bearer  lilb_abc ":  {"lilb_abc", true},
		"Basic dXNlcjpwYXNz": {"", false},
		"Bearer":             {"", true},
	} {
		tok, ok := BearerToken(header)
		if tok != want.token || ok != want.ok {
			t.Errorf("BearerToken(%q) = %q, %v; want %q, %v", header, tok, ok, want.token, want.ok)
		}
	}
}

func TestNames(t *testing.T) {
	for h, want := range map[string]bool{"Sandberg": true, "a": true, "local-inference.lab_1": true,
		"-x": false, "": false, "has space": false, "<b>": false, "ü": false} {
		if ValidHandle(h) != want {
			t.Errorf("ValidHandle(%q) = %v", h, !want)
		}
	}
	for s, want := range map[string]bool{"lil-lab": true, "Lil": false, "a_b": false, "x": true} {
		if ValidSlug(s) != want {
			t.Errorf("ValidSlug(%q) = %v", s, !want)
		}
	}
}
