package main

import (
	"io"
	"math"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/site"
)

// TestServeMetricsServesProfiler: the operator's listener answers
// /metrics and Go's profiler index, and refuses what it does not serve.
func TestServeMetricsServesProfiler(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var out strings.Builder
	stop, err := serveMetrics(addr, site.NewMetrics(), &out)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Errorf("/metrics: %d %.200q", code, body)
	}
	if code, body := get("/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("/debug/pprof/: %d %.200q", code, body)
	}
	if code, body := get("/debug/pprof/cmdline"); code != 200 || body == "" {
		t.Errorf("/debug/pprof/cmdline: %d %q", code, body)
	}
	if code, _ := get("/"); code != http.StatusNotFound {
		t.Errorf("/: %d, want 404", code)
	}
}

// TestHeapPolicy: serve sets the memory limit and the collector's pace when
// the environment does not, and leaves each alone when it does.
func TestHeapPolicy(t *testing.T) {
	prevGC, prevLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(prevGC); debug.SetMemoryLimit(prevLimit) })

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	setMemoryLimit()
	if got := debug.SetGCPercent(123); got != gcPercent {
		t.Errorf("GOGC unset: the collector's percent is %d, want %d", got, gcPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != defaultMemoryLimit {
		t.Errorf("GOMEMLIMIT unset: the limit is %d, want %d", got, defaultMemoryLimit)
	}

	t.Setenv("GOGC", "150") // the runtime read it at start; serve must not override it
	t.Setenv("GOMEMLIMIT", "1GiB")
	setMemoryLimit()
	if got := debug.SetGCPercent(100); got != 123 {
		t.Errorf("GOGC set: the collector's percent became %d, want it left at 123", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: the limit became %d, want it left alone", got)
	}
}
