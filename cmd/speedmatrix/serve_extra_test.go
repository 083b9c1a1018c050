package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web"
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
	stop, err := serveMetrics(addr, web.NewMetrics(), &out)
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
