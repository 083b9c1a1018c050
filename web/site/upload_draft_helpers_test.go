package site_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// browserClient is one browser over HTTP: its own cookie jar, the Fetch
// metadata a browser sends with a same-origin form, redirects not followed.
type browserClient struct {
	*http.Client
	base string
}

func newBrowserClient(t testing.TB, s *testSite) *browserClient {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar, Transport: s.Client().Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &browserClient{Client: c, base: s.URL}
}

// send makes one request and returns the answer with its body read.
func (b *browserClient) send(t testing.TB, method, path, contentType string, body []byte) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, b.base+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp, string(raw)
}

// draftCount counts the drafts table's rows.
func (s *testSite) draftCount(t testing.TB) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), s.url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM drafts").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// newClockSite is newSite with the drafts' clock in the test's hands.
func newClockSite(t testing.TB, now func() time.Time) *testSite {
	t.Helper()
	st, url := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, Now: now}))
	t.Cleanup(srv.Close)
	return &testSite{Server: srv, store: st, url: url}
}
