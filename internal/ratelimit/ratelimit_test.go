package ratelimit

import (
	"sync"
	"sync/atomic"
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

// TestAllowTogether: a request spends every key's budget or none of it,
// and a refund gives one back.
func TestAllowTogether(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := NewPer(2, 10*time.Minute, c.now) // one per 5 minutes, two at once
	for range 2 {
		if ok, _ := l.Allow("email:a", "addr:1"); !ok {
			t.Fatal("a request within the burst was refused")
		}
	}
	// email:a is spent, so addr:2 must not be charged for the refused try.
	if ok, wait := l.Allow("email:a", "addr:2"); ok || wait != 5*time.Minute {
		t.Fatalf("third request for email:a = %v, wait %v; want refused, 5 min", ok, wait)
	}
	for range 2 {
		if ok, _ := l.Allow("addr:2"); !ok {
			t.Fatal("addr:2 was charged for a request that was refused")
		}
	}
	l.Refund("email:a", "addr:1")
	if ok, _ := l.Allow("email:a"); !ok {
		t.Error("a refunded request is not available again")
	}
	if ok, _ := l.Allow("email:a"); ok {
		t.Error("a refund gave back more than one request")
	}
}

// TestAllowConcurrent: of requests arriving together, exactly the burst
// passes. A check followed by a separate count let every one through.
func TestAllowConcurrent(t *testing.T) {
	l := NewPer(10, 15*time.Minute, nil)
	var passed atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 50 {
		wg.Go(func() {
			<-start
			if ok, _ := l.Allow("email:victim", "addr:attacker"); ok {
				passed.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	if n := passed.Load(); n != 10 {
		t.Errorf("%d of 50 simultaneous requests passed, want 10", n)
	}
}
