package main

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/web/site"
)

// TestLogBufferHoldsInfoAndFlushes: info lines wait in memory and are
// written together within flushEvery, whole and in order; a warning is
// written at once with what came before it; Flush writes the rest.
func TestLogBufferHoldsInfoAndFlushes(t *testing.T) {
	out := &lockedWriter{w: new(strings.Builder)}
	buf := newLogBuffer(out)
	log := slog.New(newLogHandler(buf, true))
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

// TestLogHandlerLeavesOutRequests: with LOG_REQUESTS=false the site's
// access log records (site.AccessLog) are not even enabled, and every
// other line, the access log's warnings included, is still written.
func TestLogHandlerLeavesOutRequests(t *testing.T) {
	access := site.AccessLogContext()
	for _, logRequests := range []bool{true, false} {
		out := &lockedWriter{w: new(strings.Builder)}
		buf := newLogBuffer(out)
		log := slog.New(newLogHandler(buf, logRequests).WithAttrs(nil))
		if got := log.Handler().Enabled(access, slog.LevelInfo); got != logRequests {
			t.Errorf("LOG_REQUESTS=%v: an access line enabled = %v", logRequests, got)
		}
		if !log.Handler().Enabled(access, slog.LevelWarn) || !log.Handler().Enabled(context.Background(), slog.LevelInfo) {
			t.Errorf("LOG_REQUESTS=%v: a warning or another info line is left out", logRequests)
		}
		log.InfoContext(context.Background(), "mail on")
		if err := buf.Flush(); err != nil || !strings.Contains(out.String(), "msg=\"mail on\"") {
			t.Errorf("LOG_REQUESTS=%v: other lines not written: %v %q", logRequests, err, out.String())
		}
	}
}

// TestLogBufferKeepsLinesWhole: records logged from many goroutines come
// out whole, and a burst past the limit is written without waiting.
func TestLogBufferKeepsLinesWhole(t *testing.T) {
	out := &lockedWriter{w: new(strings.Builder)}
	buf := newLogBuffer(out)
	log := slog.New(newLogHandler(buf, true))
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
