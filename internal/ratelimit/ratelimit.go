// Package ratelimit keeps one token bucket per key (a client address, an
// upload token) in memory: each key may spend Burst requests at once and
// earns them back at PerHour. It is per process, which is right for one
// server; several servers would each allow the full rate.
package ratelimit

import (
	"sync"
	"time"
)

// Limiter is a set of token buckets with one rule, kept as the generic cell
// rate algorithm (one "theoretical arrival time" per key, in exact integer
// durations, so the wait it names is the wait there is). It is safe for
// concurrent use.
type Limiter struct {
	interval  time.Duration // one request's worth of refill
	tolerance time.Duration // how far ahead of the rate a burst may run
	now       func() time.Time

	mu    sync.Mutex
	tat   map[string]time.Time
	swept time.Time
}

// New returns a limiter allowing perHour requests per key per hour, up to
// perHour at once; perHour <= 0 allows everything. now is the clock
// (time.Now when nil; tests pass a fake).
func New(perHour int, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	l := &Limiter{now: now, tat: map[string]time.Time{}}
	if perHour > 0 {
		l.interval = time.Hour / time.Duration(perHour)
		l.tolerance = time.Duration(perHour-1) * l.interval
	}
	return l
}

// Allow spends one request of key. When none is left it returns false and
// how long until one is, rounded up to whole seconds as Retry-After says it.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	if l.interval == 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	tat := l.tat[key]
	if tat.Before(now) {
		tat = now
	}
	if allowAt := tat.Add(-l.tolerance); now.Before(allowAt) {
		wait := allowAt.Sub(now)
		return false, (wait + time.Second - 1).Truncate(time.Second)
	}
	l.tat[key] = tat.Add(l.interval)
	return true, 0
}

// sweep forgets, at most once a minute, the keys whose bucket is full again:
// they are the same as no entry, so memory stays bounded by the keys active
// in the last hour.
func (l *Limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for k, tat := range l.tat {
		if !tat.After(now) {
			delete(l.tat, k)
		}
	}
}

// Len is the number of keys remembered, for tests.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tat)
}
