package site_test

import (
	"bytes"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// cutProxy forwards TCP to PostgreSQL until cut, then refuses and drops
// every connection, as a database that went away does, until restored on
// the same address.
type cutProxy struct {
	target, addr string
	mu           sync.Mutex
	ln           net.Listener
	conns        map[net.Conn]bool
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	p := &cutProxy{target: target, conns: map[net.Conn]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *cutProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *cutProxy) pipe(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[up] = true, true
	p.mu.Unlock()
	go func() { _, _ = io.Copy(up, c); up.Close() }()
	_, _ = io.Copy(c, up)
	c.Close()
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *cutProxy) restore(t *testing.T) {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}

// TestDatabaseOutage: while PostgreSQL cannot be reached, a cached page is
// served from the cache, marked stale (Age, Warning, a note in the
// reader's language); a page never cached and an upload answer 503 with
// Retry-After; /readyz is 503. When the database is back, everything is
// fresh again without a restart.
func TestDatabaseOutage(t *testing.T) {
	seedStore, dbURL := dbtest.New(t)
	u, _ := url.Parse(dbURL)
	proxy := newCutProxy(t, u.Host)
	u.Host = proxy.addr
	s := newInstance(t, u.String())
	up, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Ingest(t.Context(), seedStore, up)
	if err != nil {
		t.Fatal(err)
	}
	report := "/runs/" + res.ID
	for _, lang := range []string{"en", "ja"} {
		if resp, _ := s.Fetch(t, report+"?lang="+lang, "gzip"); resp.StatusCode != 200 {
			t.Fatalf("%s report = %d", lang, resp.StatusCode)
		}
	}

	proxy.cut()
	// The listener notices the lost connection and marks every page stale.
	stale := func() bool { resp, _ := s.Fetch(t, report+"?lang=en", "gzip"); return resp.Header.Get("Warning") != "" }
	if _, ok := within(3*time.Second, stale); !ok {
		t.Fatal("no stale copy served while the database is down")
	}
	resp, body := s.Fetch(t, report+"?lang=ja", "")
	if resp.StatusCode != 200 || resp.Header.Get("Age") == "" || !strings.HasPrefix(resp.Header.Get("Warning"), "111 ") ||
		!bytes.Contains(body, []byte(`class="stale-note"`)) || !bytes.Contains(body, []byte("保存済みのページ")) {
		t.Errorf("stale Japanese report: %d, Age %q, Warning %q, note %v", resp.StatusCode,
			resp.Header.Get("Age"), resp.Header.Get("Warning"), bytes.Contains(body, []byte("stale-note")))
	}
	if resp, _ := s.Fetch(t, "/leaderboard", "gzip"); resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("uncached page while down = %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")); resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("upload while down = %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := s.Get(t, "/readyz"); resp.StatusCode != 503 {
		t.Errorf("/readyz while down = %d", resp.StatusCode)
	}

	proxy.restore(t)
	if _, ok := within(5*time.Second, func() bool { resp, _ := s.Get(t, "/readyz"); return resp.StatusCode == 200 }); !ok {
		t.Fatal("/readyz not 200 after the database came back")
	}
	resp, body = s.Fetch(t, report+"?lang=ja", "")
	if resp.StatusCode != 200 || resp.Header.Get("Warning") != "" || bytes.Contains(body, []byte("stale-note")) {
		t.Errorf("report after recovery: %d, Warning %q", resp.StatusCode, resp.Header.Get("Warning"))
	}
	if resp, _ := s.Fetch(t, "/leaderboard", "gzip"); resp.StatusCode != 200 {
		t.Errorf("leaderboard after recovery = %d", resp.StatusCode)
	}
}
