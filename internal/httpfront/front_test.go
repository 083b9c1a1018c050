package httpfront

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// pair is a Front and a plain net/http server with the same handler, to
// compare their answers byte for byte.
type pair struct {
	front, plain string // addresses
	answered     atomic.Int64
	f            *Front
	served       chan error
}

// startPair serves handler through a Front that answers what takes
// reports true for, and through net/http alone.
func startPair(t *testing.T, handler http.Handler, takes func(*http.Request) bool, tune func(*http.Server)) *pair {
	t.Helper()
	p := &pair{served: make(chan error, 1)}
	srv := &http.Server{Handler: handler, ErrorLog: log.New(io.Discard, "", 0)}
	plain := &http.Server{Handler: handler, ErrorLog: log.New(io.Discard, "", 0)}
	if tune != nil {
		tune(srv)
		tune(plain)
	}
	p.f = New(srv, func(w http.ResponseWriter, r *http.Request) bool {
		if !takes(r) {
			return false
		}
		p.answered.Add(1)
		handler.ServeHTTP(w, r)
		return true
	})
	fl, pl := listen(t), listen(t)
	p.front, p.plain = fl.Addr().String(), pl.Addr().String()
	go func() { p.served <- p.f.Serve(fl) }()
	go plain.Serve(pl)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		p.f.Shutdown(ctx)
		plain.Shutdown(ctx)
	})
	return p
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// exchange sends raw to addr and returns the raw answers to its n
// requests, each with its Date field blanked.
func exchange(t *testing.T, addr, raw string, n int) []string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	var got []string
	br := bufio.NewReader(c)
	head := strings.HasPrefix(raw, "HEAD ")
	for range n {
		answer, err := readAnswer(br, head)
		if err != nil {
			t.Fatalf("%.60q: answer %d: %v (so far %q)", raw, len(got)+1, err, answer)
		}
		got = append(got, dateField.ReplaceAllString(answer, "Date: -\r\n"))
	}
	return got
}

// readAnswer reads one raw answer off br: its head, then its body as
// framed (a length, chunks, or up to the close).
func readAnswer(br *bufio.Reader, head bool) (string, error) {
	var raw strings.Builder
	length, chunked := -1, false
	status := ""
	for {
		line, err := br.ReadString('\n')
		raw.WriteString(line)
		if err != nil {
			return raw.String(), err
		}
		if status == "" {
			status = line
		}
		if line == "\r\n" {
			break
		}
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		switch strings.ToLower(k) {
		case "content-length":
			fmt.Sscan(v, &length)
		case "transfer-encoding":
			chunked = strings.TrimSpace(v) == "chunked"
		}
	}
	if head || strings.Contains(status, " 304 ") || strings.Contains(status, " 204 ") {
		return raw.String(), nil
	}
	var err error
	switch {
	case chunked:
		for {
			line, lerr := br.ReadString('\n')
			raw.WriteString(line)
			var size int
			if _, serr := fmt.Sscanf(line, "%x", &size); lerr != nil || serr != nil {
				return raw.String(), errors.Join(lerr, serr)
			}
			chunk := make([]byte, size+2)
			_, err = io.ReadFull(br, chunk)
			raw.Write(chunk)
			if size == 0 || err != nil {
				return raw.String(), err
			}
		}
	case length >= 0:
		body := make([]byte, length)
		_, err = io.ReadFull(br, body)
		raw.Write(body)
	default:
		body, rerr := io.ReadAll(br)
		raw.Write(body)
		err = rerr
	}
	return raw.String(), err
}

var dateField = regexp.MustCompile(`Date: [^\r]*\r\n`)

// echo answers with what it was asked, and with the odd headers the
// front must write as net/http does.
func echo(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	switch r.URL.Path {
	case "/typed":
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", "5")
		h.Set("Etag", `"abc"`)
		h["Vary"] = []string{"Accept-Language", "Accept-Encoding"}
		w.Write([]byte("hello"))
	case "/sniffed":
		w.Write([]byte("<!doctype html><p>sniff me</p>"))
	case "/encoded":
		h.Set("Content-Encoding", "gzip")
		w.Write([]byte("\x1f\x8b not really"))
	case "/untyped":
		h["Content-Type"] = nil
		w.Write([]byte("<html>no type wanted"))
	case "/not-modified":
		h.Set("Content-Type", "text/plain")
		h.Set("Content-Length", "10")
		h.Set("Etag", `"x"`)
		w.WriteHeader(http.StatusNotModified)
	case "/no-content":
		h.Set("Content-Length", "10")
		w.WriteHeader(http.StatusNoContent)
	case "/odd":
		h.Set("X-Newline", "a\r\nb\nc")
		h["Bad Name"] = []string{"x"}
		h["X-Empty"] = nil
		h.Set("Date", "Mon, 01 Jan 2001 00:00:00 GMT")
		w.WriteHeader(299)
		w.Write([]byte("odd"))
	case "/close":
		h.Set("Connection", "close")
		w.Write([]byte("bye"))
	case "/late":
		w.WriteHeader(201)
		h.Set("X-Too-Late", "ignored")
		w.Write([]byte("created"))
	case "/empty":
	default:
		keys := make([]string, 0, len(r.Header))
		for k := range r.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(w, "%s %s %s host=%s close=%v\n", r.Method, r.RequestURI, r.Proto, r.Host, r.Close)
		for _, k := range keys {
			fmt.Fprintf(w, "%s=%q\n", k, r.Header[k])
		}
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "body=%q remote-set=%v", body, r.RemoteAddr != "")
	}
}

// TestAnswersAsNetHTTP: what Front answers is byte for byte what
// net/http sends for the same handler and request (but for the Date).
func TestAnswersAsNetHTTP(t *testing.T) {
	p := startPair(t, http.HandlerFunc(echo), func(*http.Request) bool { return true }, nil)
	for _, path := range []string{"/typed", "/sniffed", "/encoded", "/untyped", "/not-modified",
		"/no-content", "/odd", "/late", "/empty", "/echo?a=1&b=%20", "/echo/%2F/x"} {
		for _, extra := range []string{"", "Connection: close\r\n", "Accept-Encoding: gzip\r\nPragma: no-cache\r\nX-Multi: 1\r\nx-multi: 2\r\n"} {
			raw := "GET " + path + " HTTP/1.1\r\nHost: example.test\r\n" + extra + "\r\n"
			before := p.answered.Load()
			f, n := exchange(t, p.front, raw, 1), exchange(t, p.plain, raw, 1)
			if p.answered.Load() != before+1 {
				t.Errorf("%q: the front did not answer it itself", raw)
			}
			if f[0] != n[0] {
				t.Errorf("%q:\nfront    %q\nnet/http %q", raw, f[0], n[0])
			}
		}
	}
	f, n := exchange(t, p.front, "GET /close HTTP/1.1\r\nHost: a\r\n\r\n", 1), exchange(t, p.plain, "GET /close HTTP/1.1\r\nHost: a\r\n\r\n", 1)
	if f[0] != n[0] || !strings.Contains(f[0], "Connection: close") {
		t.Errorf("a handler's Connection: close:\nfront    %q\nnet/http %q", f[0], n[0])
	}
}

// TestHandsOverTheRest: every request Front does not take reaches
// net/http as it was sent and gets net/http's own answer, errors
// included.
func TestHandsOverTheRest(t *testing.T) {
	p := startPair(t, http.HandlerFunc(echo), func(r *http.Request) bool { return r.URL.Path == "/hit" }, nil)
	long := "X-Long: " + strings.Repeat("a", headSize) + "\r\n"
	for _, raw := range []string{
		"GET /miss HTTP/1.1\r\nHost: a\r\n\r\n",
		"POST /hit HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
		"GET /hit HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
		"HEAD /hit HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /hit HTTP/1.0\r\nHost: a\r\n\r\n",
		"GET /hit HTTP/1.1\nHost: a\n\n",
		"GET http://a/hit HTTP/1.1\r\nHost: a\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
		"GET /hit HTTP/1.1\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a b\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nX-Folded: a\r\n b\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\nX-Ctl: a\x01b\r\n\r\n",
		"GET /hit HTTP/1.1\r\nHost: a\r\n" + long + "\r\n",
		"GET /hit HTTP/1.2\r\nHost: a\r\n\r\n",
		"GET  /hit HTTP/1.1\r\nHost: a\r\n\r\n",
	} {
		f, n := exchange(t, p.front, raw, 1), exchange(t, p.plain, raw, 1)
		if f[0] != n[0] {
			t.Errorf("%.60q:\nfront    %q\nnet/http %q", raw, f[0], n[0])
		}
	}
	if got := p.answered.Load(); got != 0 {
		t.Errorf("the front answered %d of them itself, want none", got)
	}
}

// TestPipelined: requests sent together are answered in order, the
// front's and net/http's alike, and after a request net/http takes the
// connection stays with it.
func TestPipelined(t *testing.T) {
	p := startPair(t, http.HandlerFunc(echo), func(r *http.Request) bool { return r.URL.Path == "/hit" }, nil)
	req := func(path string) string { return "GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n" }
	raw := req("/hit?1") + req("/hit?2") + req("/miss") + req("/hit?3")
	f, n := exchange(t, p.front, raw, 4), exchange(t, p.plain, raw, 4)
	for i := range f {
		if f[i] != n[i] {
			t.Errorf("answer %d:\nfront    %q\nnet/http %q", i+1, f[i], n[i])
		}
	}
	if got := p.answered.Load(); got != 2 {
		t.Errorf("the front answered %d, want the two before the miss", got)
	}
	// One request sent in pieces, the next in the same write as the
	// first's end.
	c, err := net.Dial("tcp", p.front)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, piece := range []string{"GET /hit?4 HT", "TP/1.1\r\nHost: a\r\n", "\r\nGET /hit?5 HTTP/1.1\r\nHost: a\r\n\r\n"} {
		io.WriteString(c, piece)
		time.Sleep(10 * time.Millisecond)
	}
	for _, want := range []string{"/hit?4", "/hit?5"} {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(body), "GET "+want+" ") {
			t.Errorf("want the answer to %s, got %q", want, body)
		}
	}
	if got := p.answered.Load(); got != 4 {
		t.Errorf("the front answered %d, want 4", got)
	}
}

// TestConnectionClose: after an answer to a request that asked to close,
// the front closes the connection.
func TestConnectionClose(t *testing.T) {
	p := startPair(t, http.HandlerFunc(echo), func(*http.Request) bool { return true }, nil)
	for _, first := range []string{
		"GET /typed HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n", // the client asks
		"GET /close HTTP/1.1\r\nHost: a\r\n\r\n",                      // the answer says so
	} {
		c, err := net.Dial("tcp", p.front)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, first+"GET /typed HTTP/1.1\r\nHost: a\r\n\r\n")
		all, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("reading to the close: %v", err)
		}
		if got := strings.Count(string(all), "HTTP/1.1 200"); got != 1 || !strings.Contains(string(all), "Connection: close\r\n") {
			t.Errorf("%q: want one answer with Connection: close, then EOF; got %q", first, all)
		}
	}
}

// TestTimeouts: the server's header and idle timeouts hold on the
// front's connections.
func TestTimeouts(t *testing.T) {
	p := startPair(t, http.HandlerFunc(echo), func(*http.Request) bool { return true }, func(s *http.Server) {
		s.ReadHeaderTimeout = 150 * time.Millisecond
		s.IdleTimeout = 300 * time.Millisecond
	})
	closedAfter := func(name, send string, answers int) time.Duration {
		t.Helper()
		c, err := net.Dial("tcp", p.front)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		io.WriteString(c, send)
		all, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("%s: not closed by the server: %v", name, err)
		}
		if got := strings.Count(string(all), "HTTP/1.1 200"); got != answers {
			t.Errorf("%s: %d answers, want %d", name, got, answers)
		}
		return time.Since(start)
	}
	if d := closedAfter("nothing sent", "", 0); d < 100*time.Millisecond {
		t.Errorf("nothing sent: closed after %v, before the header timeout", d)
	}
	if d := closedAfter("half a head", "GET /typed HTTP/1.1\r\nHo", 0); d < 100*time.Millisecond {
		t.Errorf("half a head: closed after %v, before the header timeout", d)
	}
	// After an answer the connection waits the idle timeout, longer than
	// the header timeout.
	if d := closedAfter("idle after an answer", "GET /typed HTTP/1.1\r\nHost: a\r\n\r\n", 1); d < 250*time.Millisecond {
		t.Errorf("idle after an answer: closed after %v, before the idle timeout", d)
	}
}

// TestPanicClosesTheConnection: an answer that panics is logged to the
// server's ErrorLog and its connection closed, as net/http does; the
// front goes on serving others.
func TestPanicClosesTheConnection(t *testing.T) {
	var logged lockedBuffer
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			panic("boom")
		}
		echo(w, r)
	})
	p := startPair(t, h, func(*http.Request) bool { return true }, func(s *http.Server) {
		s.ErrorLog = log.New(&logged, "", 0)
	})
	c, err := net.Dial("tcp", p.front)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET /panic HTTP/1.1\r\nHost: a\r\n\r\n")
	all, err := io.ReadAll(c)
	if err != nil || len(all) != 0 {
		t.Errorf("after a panic: %q, %v; want the connection closed with nothing sent", all, err)
	}
	if !strings.Contains(logged.String(), "panic serving") || !strings.Contains(logged.String(), "boom") {
		t.Errorf("ErrorLog got %q", logged.String())
	}
	if got := exchange(t, p.front, "GET /typed HTTP/1.1\r\nHost: a\r\n\r\n", 1); !strings.HasPrefix(got[0], "HTTP/1.1 200") {
		t.Errorf("after a panic: %q", got[0])
	}
}

// lockedBuffer is a bytes.Buffer for a logger and a test's reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestShutdown: Shutdown closes the front's idle connections, lets a
// request net/http is answering finish, and Serve then returns
// http.ErrServerClosed.
func TestShutdown(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			close(started)
			<-release
		}
		echo(w, r)
	})
	p := startPair(t, h, func(r *http.Request) bool { return r.URL.Path != "/slow" }, nil)
	idle, err := net.Dial("tcp", p.front)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	idle.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(idle, "GET /typed HTTP/1.1\r\nHost: a\r\n\r\n")
	br := bufio.NewReader(idle)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != 200 {
		t.Fatalf("first answer: %v", err)
	} else {
		io.Copy(io.Discard, resp.Body)
	}
	slow, err := net.Dial("tcp", p.front)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	slow.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(slow, "GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
	<-started
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	go func() { done <- p.f.Shutdown(ctx) }()
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("the idle connection after Shutdown: %v, want EOF", err)
	}
	select {
	case err := <-done:
		t.Fatalf("Shutdown returned (%v) while a request was being answered", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	resp, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("the slow request across Shutdown: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if err := <-p.served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve after Shutdown: %v", err)
	}
	if _, err := net.Dial("tcp", p.front); err == nil {
		t.Error("the listener still accepts after Shutdown")
	}
}
