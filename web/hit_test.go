package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
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
	srv := httptest.NewServer(web.New(web.Config{Store: st, Bundle: b, Version: "test",
		Logger: slog.New(slog.NewTextHandler(&log, nil)), Uploads: web.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}}))
	defer srv.Close()
	s := &site{Server: srv, store: st, url: dbURL}
	id := s.seed(t)
	var n int
	for _, page := range []string{"/runs/" + id, "/runs/" + id + "/embed", "/runs/" + id + ".json", "/runs/" + id + "/badge.svg", "/", "/runs", "/leaderboard"} {
		for _, headers := range [][]string{
			{"Accept-Encoding: gzip"}, {"Accept-Encoding: br, gzip"}, {},
			{"Accept-Encoding: gzip", "Accept-Language: de-DE,de;q=0.9"},
			{"Accept-Encoding: gzip", "Cookie: lang=ja; session=abc"},
		} {
			n++
			path := page + "?hit=" + strconv.Itoa(n) // a page of its own: the first GET is its miss
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
