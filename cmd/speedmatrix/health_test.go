package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestHealthCommand: `speedmatrix health` asks /readyz on ADDR, asking
// 127.0.0.1 for a listener on every interface, and exits 0 for 200, 1 for
// anything else (503, nobody listening) with the reason.
func TestHealthCommand(t *testing.T) {
	var ready atomic.Bool
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		asked.Add(1)
		if !ready.Load() {
			http.Error(w, "not ready: the database cannot be reached", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	health := func(addr string) (int, string, string) {
		t.Helper()
		t.Setenv("ADDR", addr)
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"health"}, &out, &errOut)
		return code, out.String(), errOut.String()
	}

	ready.Store(true)
	for _, addr := range []string{"127.0.0.1:" + port, "0.0.0.0:" + port, ":" + port} {
		if code, out, errOut := health(addr); code != 0 || !strings.Contains(out, "ready") {
			t.Errorf("ADDR=%s, server ready: exit %d, %q %q; want 0", addr, code, out, errOut)
		}
	}
	ready.Store(false)
	if code, _, errOut := health("127.0.0.1:" + port); code != 1 || !strings.Contains(errOut, "503") ||
		!strings.Contains(errOut, "the database cannot be reached") {
		t.Errorf("server not ready: exit %d, %q; want 1 naming 503 and the reason", code, errOut)
	}
	if n := asked.Load(); n != 4 {
		t.Errorf("/readyz was asked %d times, want 4", n)
	}
	srv.Close()
	if code, _, errOut := health("127.0.0.1:" + port); code != 1 || errOut == "" {
		t.Errorf("nobody listening: exit %d, %q; want 1 with a message", code, errOut)
	}
}

func TestReadyURL(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:8080":   "http://127.0.0.1:8080/readyz",
		"[::]:8080":      "http://127.0.0.1:8080/readyz",
		":8080":          "http://127.0.0.1:8080/readyz",
		"127.0.0.1:9000": "http://127.0.0.1:9000/readyz",
		"[::1]:8080":     "http://[::1]:8080/readyz",
		"app:8080":       "http://app:8080/readyz",
	} {
		if got := readyURL(addr); got != want {
			t.Errorf("readyURL(%q) = %q, want %q", addr, got, want)
		}
	}
}
