package web

import (
	"sync"
	"time"
)

// Failed sign-ins allowed per e-mail address and per client address in a
// window; the next attempt answers 429 until the window passes. Ten is
// plenty for a person who mistypes and far too few to guess a password.
const (
	loginFailures = 10
	loginWindow   = 15 * time.Minute
)

// loginLimiter counts failed sign-ins per key. It is in memory, per
// process, like the upload limits.
type loginLimiter struct {
	mu   sync.Mutex
	now  func() time.Time
	seen map[string]*failures
}

type failures struct {
	n     int
	first time.Time
}

func newLoginLimiter(now func() time.Time) *loginLimiter {
	if now == nil {
		now = time.Now
	}
	return &loginLimiter{now: now, seen: map[string]*failures{}}
}

// blocked reports whether any of keys has used up its failures, and how
// long until it may try again.
func (l *loginLimiter) blocked(keys ...string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var wait time.Duration
	for _, k := range keys {
		f := l.seen[k]
		if f == nil {
			continue
		}
		if now.Sub(f.first) >= loginWindow {
			delete(l.seen, k)
			continue
		}
		if f.n >= loginFailures {
			wait = max(wait, f.first.Add(loginWindow).Sub(now))
		}
	}
	return wait > 0, wait
}

// fail counts one failed sign-in against each key.
func (l *loginLimiter) fail(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.seen) > 100_000 { // an attack from many addresses: forget the oldest rather than grow
		for k, f := range l.seen {
			if now.Sub(f.first) >= loginWindow/2 {
				delete(l.seen, k)
			}
		}
	}
	for _, k := range keys {
		f := l.seen[k]
		if f == nil || now.Sub(f.first) >= loginWindow {
			f = &failures{first: now}
			l.seen[k] = f
		}
		f.n++
	}
}
