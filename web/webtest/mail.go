package webtest

import (
	"bytes"
	"context"
	"regexp"
	"sync"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// SMTPPassword is the sink's password: no log line may ever show it.
const SMTPPassword = "smtp-pw-31337"

// MustAccount makes an account with a password, its address confirmed or
// not.
func MustAccount(t *testing.T, s *Site, handle, email, password string, confirmed bool) {
	t.Helper()
	hash, err := accounts.HashPassword(context.Background(), password)
	if err != nil {
		t.Fatal(err)
	}
	a := store.NewAccount{Handle: handle, Email: email, PasswordHash: hash, EmailVerified: confirmed}
	if _, err := s.Store.CreateConfirmedAccount(context.Background(), a); err != nil {
		t.Fatal(err)
	}
}

// LinkIn returns the path and query of the first link to path in body.
func LinkIn(t *testing.T, body, path string) string {
	t.Helper()
	m := regexp.MustCompile(`http://127\.0\.0\.1:\d+(` + regexp.QuoteMeta(path) + `\?token=[A-Za-z0-9_-]+)`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no %s link in the mail:\n%s", path, body)
	}
	return m[1]
}

// LockedBuffer is a log destination shared by the server's goroutines.
type LockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p under the lock.
func (b *LockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *LockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
