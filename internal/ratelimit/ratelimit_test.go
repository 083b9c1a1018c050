package ratelimit

import (
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestBucket(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := New(30, c.now)
	for i := range 30 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("request %d of a burst of 30 refused", i+1)
		}
	}
	ok, wait := l.Allow("a")
	if ok || wait != 120*time.Second {
		t.Fatalf("31st request = %v, wait %v; want refused, 120 s (one request per 2 min)", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Error("another key shares a's bucket")
	}
	c.t = c.t.Add(119 * time.Second)
	if ok, wait := l.Allow("a"); ok || wait != time.Second {
		t.Errorf("after 119 s = %v, wait %v; want refused, 1 s", ok, wait)
	}
	c.t = c.t.Add(time.Second)
	if ok, _ := l.Allow("a"); !ok {
		t.Error("after 120 s the next request is still refused")
	}
	// An hour later both buckets are full again and swept away.
	c.t = c.t.Add(time.Hour)
	l.Allow("c")
	if n := l.Len(); n != 1 {
		t.Errorf("%d buckets remembered after an idle hour, want 1 (c)", n)
	}
}

func TestUnlimited(t *testing.T) {
	l := New(0, nil)
	for range 1000 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatal("a limit of 0 (off) refused a request")
		}
	}
}
