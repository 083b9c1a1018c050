package web_test

import (
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/httpfront"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/static"
	"github.com/speedmatrix/speedmatrix/web"
)

// TestHitAnswersAsChain: a warm hit, answered before the middleware chain
// (hit.go), carries the headers and body the chain gave the same page on
// its miss (security, language, Vary, the page's own, the embed page's
// framing), in every encoding and language, and a 304 for its ETag; its
// access log line says what it sent.
func TestHitAnswersAsChain(t *testing.T) {
	st, dbURL := dbtest.New(t)
	b, _ := i18n.Default()
	var log lockedBuffer
	changes := &changingStore{Store: st}
	srv := httptest.NewServer(web.New(web.Config{Store: changes, Bundle: b, Version: "test",
		Logger: slog.New(slog.NewTextHandler(&log, nil)), Uploads: web.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}}))
	defer srv.Close()
	s := &site{Server: srv, store: st, url: dbURL}
	id := s.seed(t)
	for _, page := range []string{"/runs/" + id, "/runs/" + id + "/embed", "/runs/" + id + ".json", "/runs/" + id + "/badge.svg", "/", "/runs", "/leaderboard"} {
		for _, headers := range [][]string{
			{"Accept-Encoding: gzip"}, {"Accept-Encoding: br, gzip"}, {},
			{"Accept-Encoding: gzip", "Accept-Language: de-DE,de;q=0.9"},
			{"Accept-Encoding: gzip", "Cookie: lang=ja; session=abc"},
		} {
			changes.touch(id) // the page is stale: the first GET is its miss
			path := page
			line := regexp.MustCompile(`msg=http method=GET path=` + regexp.QuoteMeta(page) + ` status=200 bytes=[1-9][0-9]* ms=`)
			before := len(line.FindAllString(log.String(), -1))
			missResp, miss := s.get(t, path, headers...)
			hitResp, hit := s.get(t, path, headers...)
			got := 0
			for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				// A line is written once its answer is sent.
				if got = len(line.FindAllString(log.String(), -1)) - before; got >= 2 {
					break
				}
			}
			if got != 2 {
				t.Errorf("%s %v: %d access log lines of its 200s, want the miss's and the hit's", path, headers, got)
			}
			if missResp.StatusCode != 200 || hitResp.StatusCode != 200 {
				t.Fatalf("%s %v: %d then %d", path, headers, missResp.StatusCode, hitResp.StatusCode)
			}
			missResp.Header.Del("Date")
			hitResp.Header.Del("Date")
			if !equalHeaders(missResp.Header, hitResp.Header) || miss != hit {
				t.Errorf("%s %v: the hit differs from the miss:\nmiss %v\nhit  %v", path, headers, missResp.Header, hitResp.Header)
			}
			if hitResp.Header.Get("Content-Security-Policy") == "" || len(hitResp.Header.Values("Vary")) < 2 {
				t.Errorf("%s %v: hit without the chain's headers: %v", path, headers, hitResp.Header)
			}
			tag := hitResp.Header.Get("Etag")
			notMod, _ := s.get(t, path, append([]string{"If-None-Match: " + tag}, headers...)...)
			if notMod.StatusCode != http.StatusNotModified || notMod.Header.Get("Etag") != tag {
				t.Errorf("%s %v: If-None-Match %s = %d %q, want 304", path, headers, tag, notMod.StatusCode, notMod.Header.Get("Etag"))
			}
		}
	}
}

// TestFrontAnswersHitsAsChain: the server the binary runs (the chain
// behind httpfront's front) answers a warm hit itself, without net/http,
// with the same headers and body as the chain's hit of the same page,
// and a 304 for its ETag; a miss goes through to the chain.
func TestFrontAnswersHitsAsChain(t *testing.T) {
	st, dbURL := dbtest.New(t)
	b, _ := i18n.Default()
	changes := &changingStore{Store: st}
	handler := web.New(web.Config{Store: changes, Bundle: b, Version: "test",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Uploads: web.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}})
	srv := httptest.NewServer(handler)
	defer srv.Close()
	s := &site{Server: srv, store: st, url: dbURL}
	id := s.seed(t)
	frontURL, answered := startFront(t, handler)
	// A connection the front hands to net/http stays there: one request
	// per connection, so that each is the front's to take.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	frontGet := func(path string, headers ...string) (*http.Response, string) {
		t.Helper()
		return getWith(t, client, frontURL+path, headers...)
	}
	host := "Host: " + strings.TrimPrefix(srv.URL, "http://") // the page cache keys pages by host
	for _, page := range []string{"/runs/" + id, "/runs/" + id + "/embed", "/runs/" + id + ".json", "/", "/leaderboard"} {
		for _, headers := range [][]string{
			{"Accept-Encoding: gzip"}, {"Accept-Encoding: br, gzip"}, {},
			{"Accept-Encoding: gzip", "Cookie: lang=ja; session=abc"},
		} {
			changes.touch(id) // the page is stale: the first GET is its miss
			path := page
			headers = append(headers, host)
			before := answered.Load()
			frontMiss, _ := frontGet(path, headers...)
			if answered.Load() != before || frontMiss.StatusCode != 200 {
				t.Fatalf("%s %v: the front answered a miss itself (%d)", path, headers, frontMiss.StatusCode)
			}
			chainResp, chain := s.get(t, path, headers...)
			frontResp, hit := frontGet(path, headers...)
			if answered.Load() != before+1 {
				t.Errorf("%s %v: the front did not answer the hit itself", path, headers)
			}
			if !sameAnswer(chainResp, frontResp, chain, hit) {
				t.Errorf("%s %v: the front's hit differs from the chain's:\nchain %v\nfront %v", path, headers, chainResp.Header, frontResp.Header)
			}
			tag := frontResp.Header.Get("Etag")
			notMod, _ := frontGet(path, append([]string{"If-None-Match: " + tag}, headers...)...)
			if notMod.StatusCode != http.StatusNotModified || notMod.Header.Get("Etag") != tag || answered.Load() != before+2 {
				t.Errorf("%s %v: If-None-Match %s through the front = %d %q", path, headers, tag, notMod.StatusCode, notMod.Header.Get("Etag"))
			}
		}
	}
}

// TestFrontAnswersStaticAsChain: a static file's gzipped copy, what every
// page's visitor asks for next on the same connection, is answered by the
// front with the chain's headers and bytes; one the client does not take
// gzipped goes through the chain.
func TestFrontAnswersStaticAsChain(t *testing.T) {
	st, _ := dbtest.New(t)
	b, _ := i18n.Default()
	var log lockedBuffer
	handler := web.New(web.Config{Store: st, Bundle: b, Version: "test",
		Logger: slog.New(slog.NewTextHandler(&log, nil)), Uploads: web.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}})
	srv := httptest.NewServer(handler)
	defer srv.Close()
	frontURL, answered := startFront(t, handler)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	for _, path := range []string{static.URL("css/site.css"), static.URL("js/copy.js"), "/static/css/site.css"} {
		for _, headers := range [][]string{{"Accept-Encoding: gzip"}, {"Accept-Encoding: br, gzip;q=0.5"}, {"Accept-Encoding: identity"}} {
			before := answered.Load()
			chainResp, chain := getWith(t, srv.Client(), srv.URL+path, headers...)
			frontResp, front := getWith(t, client, frontURL+path, headers...)
			took := answered.Load() - before
			if gz := headers[0] != "Accept-Encoding: identity"; took != map[bool]int64{true: 1, false: 0}[gz] {
				t.Errorf("%s %v: the front answered %d itself (gzip taken: %v)", path, headers, took, gz)
			}
			if chainResp.StatusCode != 200 || frontResp.StatusCode != 200 {
				t.Fatalf("%s %v: %d and %d", path, headers, chainResp.StatusCode, frontResp.StatusCode)
			}
			if !sameAnswer(chainResp, frontResp, chain, front) {
				t.Errorf("%s %v: the front's answer differs from the chain's:\nchain %v\nfront %v", path, headers, chainResp.Header, frontResp.Header)
			}
		}
		// The gzipped answer never meets the middleware chain (the hit path
		// takes it there too), so its headers are held against the
		// chain's own answer of the plain file: the same but for the
		// encoding and what the file server adds.
		plainResp, plain := getWith(t, srv.Client(), srv.URL+path, "Accept-Encoding: identity")
		gzResp, gz := getWith(t, client, frontURL+path, "Accept-Encoding: gzip")
		unzipped, err := gzip.NewReader(strings.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(unzipped)
		if string(body) != plain || gzResp.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: the gzipped answer is not the file", path)
		}
		for _, h := range []http.Header{plainResp.Header, gzResp.Header} {
			for _, k := range []string{"Date", "Content-Length", "Content-Encoding", "Accept-Ranges", "Last-Modified"} {
				h.Del(k)
			}
		}
		if !equalHeaders(plainResp.Header, gzResp.Header) {
			t.Errorf("%s: the front's gzipped answer has other headers than the chain's plain one:\nchain %v\nfront %v", path, plainResp.Header, gzResp.Header)
		}
	}
	got := 0
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		// A line is written once its answer is sent.
		if got = strings.Count(log.String(), "path=/static/css/site.css status=200"); got >= 16 {
			break
		}
	}
	if got != 16 {
		t.Errorf("%d access log lines for the stylesheet, want one per request (16)", got)
	}
}

// startFront serves handler as the binary does, hits answered by
// httpfront before net/http, and returns its URL; answered counts the
// hits it answered.
func startFront(t *testing.T, handler http.Handler) (string, *atomic.Int64) {
	t.Helper()
	answered := new(atomic.Int64)
	f := httpfront.New(&http.Server{Handler: handler}, func(w http.ResponseWriter, r *http.Request) bool {
		ok := handler.(web.HitAnswerer).AnswerHit(w, r)
		if ok {
			answered.Add(1)
		}
		return ok
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go f.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		f.Shutdown(ctx)
	})
	return "http://" + ln.Addr().String(), answered
}

// sameAnswer reports whether two answers have the same headers (but
// for the Date) and body.
func sameAnswer(a, b *http.Response, aBody, bBody string) bool {
	a.Header.Del("Date")
	b.Header.Del("Date")
	return equalHeaders(a.Header, b.Header) && aBody == bBody
}

// equalHeaders compares two responses' headers, values in order.
func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// TestFrontKeepsConnectionsThroughMisses: the binary's front answers a
// cached route's miss through the chain itself, with the chain's headers
// and bytes, so that a connection (one a reverse proxy keeps open and
// sends every reader down) stays with the front through its misses: over
// one kept-alive connection, misses, hits and a later list page are all
// answered without net/http (a bad cursor's 400 too), until a request of
// another route hands the connection over.
func TestFrontKeepsConnectionsThroughMisses(t *testing.T) {
	st, dbURL := dbtest.New(t)
	b, _ := i18n.Default()
	changes := &changingStore{Store: st}
	handler := web.New(web.Config{Store: changes, Bundle: b, Version: "test",
		Logger: slog.New(slog.DiscardHandler), Uploads: web.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}})
	srv := httptest.NewServer(handler)
	defer srv.Close()
	s := &site{Server: srv, store: st, url: dbURL}
	id := s.seed(t)
	var byNetHTTP, byFront atomic.Int64
	f := httpfront.New(&http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		byNetHTTP.Add(1)
		handler.ServeHTTP(w, r)
	})}, func(w http.ResponseWriter, r *http.Request) bool {
		ok := handler.(web.FrontAnswerer).AnswerFront(w, r)
		if ok {
			byFront.Add(1)
		}
		return ok
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go f.Serve(ln)
	defer f.Shutdown(context.Background())
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}} // one connection, kept alive
	host := "Host: " + strings.TrimPrefix(srv.URL, "http://")
	report := "/runs/" + id
	for i, step := range []struct {
		path  string
		stale bool
	}{{report, true}, {report, false}, {"/leaderboard", true}, {"/runs?after=zzz", false}, {report + ".json", true}} {
		if step.stale {
			// The chain's own miss of the page, then the front's: both
			// are built afresh and must be the same answer.
			changes.touch(id)
			chainResp, chain := s.get(t, step.path, "Accept-Encoding: gzip", host)
			changes.touch(id)
			before := byFront.Load()
			frontResp, front := getWith(t, client, "http://"+ln.Addr().String()+step.path, "Accept-Encoding: gzip", host)
			if byFront.Load() != before+1 || !sameAnswer(chainResp, frontResp, chain, front) {
				t.Errorf("step %d, %s's miss: answered by the front %v, same as the chain's %v:\nchain %v\nfront %v", i, step.path,
					byFront.Load() == before+1, sameAnswer(chainResp, frontResp, chain, front), chainResp.Header, frontResp.Header)
			}
			continue
		}
		resp, _ := getWith(t, client, "http://"+ln.Addr().String()+step.path, host)
		if resp.StatusCode >= 500 { // a hit, and a cursor refused with 400
			t.Errorf("step %d, %s: %d", i, step.path, resp.StatusCode)
		}
	}
	if n := byNetHTTP.Load(); n != 0 || byFront.Load() != 5 {
		t.Errorf("net/http answered %d, the front %d of 5 cached pages on one connection: want the front all", n, byFront.Load())
	}
	getWith(t, client, "http://"+ln.Addr().String()+"/upload", host)
	getWith(t, client, "http://"+ln.Addr().String()+report, host)
	if n := byNetHTTP.Load(); n != 2 {
		t.Errorf("after a request of an uncached route, net/http answered %d, want it and the next (the connection is its now)", n)
	}
}
