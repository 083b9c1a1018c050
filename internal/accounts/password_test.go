package accounts

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestPassword(t *testing.T) {
	ctx := context.Background()
	h, err := HashPassword(ctx, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=1$") || strings.Contains(h, "horse") {
		t.Errorf("hash %q is not a PHC argon2id string", h)
	}
	h2, _ := HashPassword(ctx, "correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	for pw, want := range map[string]bool{"correct horse battery": true, "correct horse batterY": false, "": false} {
		ok, err := CheckPassword(ctx, h, pw)
		if err != nil || ok != want {
			t.Errorf("CheckPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	if _, err := CheckPassword(ctx, "$2a$10$bcrypt", "x"); err == nil {
		t.Error("a bcrypt hash was accepted")
	}
	if ok, err := CheckPassword(ctx, dummyHash(), "anything"); ok || err != nil {
		t.Errorf("the dummy hash matched a password (%v, %v)", ok, err)
	}
	if err := CheckNobody(ctx, "anything"); err != nil {
		t.Errorf("CheckNobody: %v", err)
	}
}

// TestHashSlots: no more hashes run at once than there are slots, and
// with every slot taken a check gives up after HashWait with ErrBusy
// (or at once with the context's error when the client went away).
func TestHashSlots(t *testing.T) {
	ctx := context.Background()
	before := Stats()
	var wg sync.WaitGroup
	for range 3 * slotCount {
		wg.Go(func() {
			if err := CheckNobody(context.Background(), "guess"); err != nil && !errors.Is(err, ErrBusy) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	after := Stats()
	if after.Peak > slotCount || after.Peak < 1 {
		t.Errorf("%d hashes ran at once, want between 1 and the %d slots", after.Peak, slotCount)
	}
	if got := after.Computed + after.Busy - before.Computed - before.Busy; got != uint64(3*slotCount) {
		t.Errorf("%d checks computed or refused, want %d", got, 3*slotCount)
	}

	if err := hashSlots.Acquire(ctx, slotCount); err != nil {
		t.Fatal(err)
	}
	defer hashSlots.Release(slotCount)
	start := time.Now()
	if _, err := HashPassword(ctx, "correct horse battery"); !errors.Is(err, ErrBusy) {
		t.Errorf("HashPassword with every slot taken = %v, want ErrBusy", err)
	}
	if waited := time.Since(start); waited < HashWait {
		t.Errorf("gave up after %v, want a wait of %v", waited, HashWait)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := CheckPassword(gone, dummyHash(), "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("CheckPassword for a client gone = %v, want context.Canceled", err)
	}
	if Stats().Running != 0 {
		t.Errorf("%d hashes counted as running after all returned", Stats().Running)
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
