// Package ratelimit keeps one token bucket per key (a client address, an
// upload token, an e-mail address) in memory: each key may spend Burst
// requests at once and earns them back at the limiter's rate. It is per
// process, which is right for one server; several servers would each allow
// the full rate.
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
func New(perHour int, now func() time.Time) *Limiter { return NewPer(perHour, time.Hour, now) }

// NewPer returns a limiter allowing n requests per key in every window, up
// to n at once; n <= 0 allows everything.
func NewPer(n int, window time.Duration, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	l := &Limiter{now: now, tat: map[string]time.Time{}}
	if n > 0 {
		l.interval = window / time.Duration(n)
		l.tolerance = time.Duration(n-1) * l.interval
	}
	return l
}

// Allow spends one request of every key in one step: when any key has none
// left it spends nothing and returns false and how long until all have one,
// rounded up to whole seconds as Retry-After says it. Checking and spending
// happen under one lock, so of requests arriving together only as many
// pass as the budget holds; a check now and a count after the work would
// let them all through.
func (l *Limiter) Allow(keys ...string) (ok bool, retryAfter time.Duration) {
	if l.interval == 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	var wait time.Duration
	for _, k := range keys {
		if allowAt := l.arrival(k, now).Add(-l.tolerance); now.Before(allowAt) {
			wait = max(wait, allowAt.Sub(now))
		}
	}
	if wait > 0 {
		return false, (wait + time.Second - 1).Truncate(time.Second)
	}
	for _, k := range keys {
		l.tat[k] = l.arrival(k, now).Add(l.interval)
	}
	return true, 0
}

// Refund gives one request back to every key: for an attempt that turned
// out not to count against the rule (the right password, or a check the
// server was too busy to make).
func (l *Limiter) Refund(keys ...string) {
	if l.interval == 0 {
		return
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		tat, ok := l.tat[k]
		if !ok {
			continue
		}
		if tat = tat.Add(-l.interval); tat.After(now) {
			l.tat[k] = tat
		} else {
			delete(l.tat, k)
		}
	}
}

// arrival is key's theoretical arrival time, never earlier than now.
func (l *Limiter) arrival(key string, now time.Time) time.Time {
	if tat := l.tat[key]; tat.After(now) {
		return tat
	}
	return now
}

// sweep forgets, at most once a minute, the keys whose bucket is full again:
// they are the same as no entry, so memory stays bounded by the keys active
// in the last window.
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
