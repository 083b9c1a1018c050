package site_test

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// lockedLog is a log's output, written by the server's goroutines and
// read by the test.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestQuietRequests: with QuietRequests (LOG_REQUESTS=false) the site
// writes no line per request, and every other line of its logger is still
// written; without it, each request has its line.
func TestQuietRequests(t *testing.T) {
	st, _ := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, quiet := range []bool{false, true} {
		out := &lockedLog{}
		log := slog.New(slog.NewTextHandler(out, nil))
		srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: log, QuietRequests: quiet}))
		resp, err := srv.Client().Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		srv.Close() // the request's line is written before its handler returns
		log.Info("mail on")
		if got := strings.Contains(out.String(), "path=/healthz"); got == quiet {
			t.Errorf("QuietRequests=%v: a line for the request = %v:\n%s", quiet, got, out.String())
		}
		if !strings.Contains(out.String(), `msg="mail on"`) {
			t.Errorf("QuietRequests=%v: another line is left out:\n%s", quiet, out.String())
		}
	}
}
