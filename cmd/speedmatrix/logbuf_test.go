package main

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLogBufferHoldsInfoAndFlushes: info lines wait in memory and are
// written together within flushEvery, whole and in order; a warning is
// written at once with what came before it; Flush writes the rest.
func TestLogBufferHoldsInfoAndFlushes(t *testing.T) {
	out := &lockedWriter{w: new(strings.Builder)}
	buf := newLogBuffer(out)
	log := slog.New(newLogHandler(buf))
	log.Info("http", "path", "/a")
	log.Info("http", "path", "/b")
	if got := out.String(); got != "" {
		t.Fatalf("info lines written at once: %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := out.String(); strings.Count(got, "\n") != 2 || strings.Index(got, "path=/a") > strings.Index(got, "path=/b") {
		t.Fatalf("after the flush interval: %q", got)
	}
	log.Info("http", "path", "/c")
	log.With("part", "x").Warn("database down")
	if got := out.String(); !strings.Contains(got, "path=/c") || !strings.Contains(got, "part=x msg=\"database down\"") &&
		!strings.Contains(got, "msg=\"database down\" part=x") {
		t.Fatalf("a warning (and what came before it) not written at once: %q", got)
	}
	log.Info("http", "path", "/d")
	if err := buf.Flush(); err != nil || !strings.HasSuffix(out.String(), "path=/d\n") {
		t.Fatalf("Flush: %v, %q", err, out.String())
	}
}

// TestLogBufferKeepsLinesWhole: records logged from many goroutines come
// out whole, and a burst past the limit is written without waiting.
func TestLogBufferKeepsLinesWhole(t *testing.T) {
	out := &lockedWriter{w: new(strings.Builder)}
	buf := newLogBuffer(out)
	log := slog.New(newLogHandler(buf))
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				log.Info("http", "g", g, "i", i, "pad", strings.Repeat("x", 40))
			}
		})
	}
	wg.Wait()
	if len(out.String()) < logBufferLimit {
		t.Errorf("%d bytes written during a burst of 4,000 lines, want at least the limit (%d)", len(out.String()), logBufferLimit)
	}
	buf.Flush()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4000 {
		t.Fatalf("%d lines, want 4000", len(lines))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "time=") || !strings.HasSuffix(l, strings.Repeat("x", 40)) {
			t.Fatalf("a broken line: %q", l)
		}
	}
}
