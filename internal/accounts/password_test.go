package accounts

import (
	"strings"
	"testing"
)

func TestPassword(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=1$") || strings.Contains(h, "horse") {
		t.Errorf("hash %q is not a PHC argon2id string", h)
	}
	h2, _ := HashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		ok, err := CheckPassword(h, pw)
		if err != nil || ok != want {
			t.Errorf("CheckPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	if _, err := CheckPassword("$2a$10$bcrypt", "x"); err == nil {
		t.Error("a bcrypt hash was accepted")
	}
	if CheckNobody("anything") {
		t.Error("CheckNobody said yes")
	}
}

func TestValidPasswordEmail(t *testing.T) {
	if ValidPassword("short") || !ValidPassword("ten chars!") || ValidPassword(strings.Repeat("x", 257)) {
		t.Error("password length bounds")
	}
	for e, want := range map[string]bool{"a@b.c": true, "a@": false, "@b": false, "a b@c": false, "a@b@c": false} {
		if ValidEmail(e) != want {
			t.Errorf("ValidEmail(%q) = %v", e, !want)
		}
	}
}

func TestNewSecret(t *testing.T) {
	a, _ := NewSecret()
	b, _ := NewSecret()
	if len(a) != 43 || a == b {
		t.Errorf("secrets %q %q", a, b)
	}
}
