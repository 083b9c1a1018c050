package webtest

import (
	"sync"
	"time"
)

// FakeClock is a settable clock for the rate limits.
type FakeClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewFakeClock is a FakeClock that reads t until moved on.
func NewFakeClock(t time.Time) *FakeClock { return &FakeClock{t: t} }

// Now is the clock's time, to give a site as its clock.
func (c *FakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

// Add moves the clock on by d.
func (c *FakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}
