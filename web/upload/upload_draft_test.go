package upload_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/web/upload"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// uploadSeedDraft uploads the seed run's file alone through the form and
// returns its preview's address.
func uploadSeedDraft(t *testing.T, b *browserClient) string {
	t.Helper()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	body, ct := webtest.MultipartBody(t, u.Files[0].Data, demo.SeedRun, nil)
	resp, _ := b.send(t, "POST", "/upload", ct, body)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/upload/drafts/") {
		t.Fatalf("upload = %d → %q, want 303 to a preview", resp.StatusCode, loc)
	}
	return loc
}

// TestDraftPrivate: a draft is in no list, leaderboard, sitemap, search or
// API list, only its own browser sees it, and it is gone after 24 hours:
// the pages stop showing it at once and the server's sweep deletes it.
func TestDraftPrivate(t *testing.T) {
	clock := webtest.NewFakeClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	s := newClockSite(t, clock.Now)
	b := newBrowserClient(t, s)
	draft := uploadSeedDraft(t, b)
	id := strings.TrimPrefix(draft, "/upload/drafts/")
	if resp, page := b.send(t, "GET", draft, "", nil); resp.StatusCode != 200 || !strings.Contains(page, "bench on unknown hardware") {
		t.Fatalf("preview = %d, want 200 with the run's title", resp.StatusCode)
	}
	for _, path := range []string{"/", "/runs", "/leaderboard", "/sitemap.xml", "/search?q=bench", "/api/v1/runs", "/api/v1/models"} {
		resp, body := s.Get(t, path)
		if resp.StatusCode != 200 || strings.Contains(body, id) || strings.Contains(body, "unknown hardware") {
			t.Errorf("%s (%d) shows the draft", path, resp.StatusCode)
		}
	}
	_, list := s.Get(t, "/api/v1/runs")
	var runs struct{ Runs []any }
	if err := json.Unmarshal([]byte(list), &runs); err != nil || len(runs.Runs) != 0 {
		t.Errorf("the API lists %d runs (%v), want none", len(runs.Runs), err)
	}
	if n := s.RowCounts(t); !strings.HasPrefix(n, "runs=0 ") {
		t.Errorf("a draft is stored as a run: %s", n)
	}
	other := newBrowserClient(t, s)
	if resp, _ := other.send(t, "GET", draft, "", nil); resp.StatusCode != 404 {
		t.Errorf("another browser opens the preview: %d, want 404", resp.StatusCode)
	}
	if resp, _ := other.send(t, "POST", draft+"/discard", "", nil); resp.StatusCode != 404 || s.DraftCount(t) != 1 {
		t.Errorf("another browser discards the preview: %d", resp.StatusCode)
	}

	clock.Add(23 * time.Hour)
	sweep(t, s, clock)
	if resp, _ := b.send(t, "GET", draft, "", nil); resp.StatusCode != 200 || s.DraftCount(t) != 1 {
		t.Errorf("after 23 hours the preview = %d with %d drafts, want it kept", resp.StatusCode, s.DraftCount(t))
	}
	clock.Add(time.Hour + time.Second)
	if resp, _ := b.send(t, "GET", draft, "", nil); resp.StatusCode != 404 {
		t.Errorf("after 24 hours the preview = %d, want 404", resp.StatusCode)
	}
	sweep(t, s, clock)
	if n := s.DraftCount(t); n != 0 {
		t.Errorf("the sweep left %d expired drafts", n)
	}
}

// sweep runs the server's draft sweep for one pass.
func sweep(t *testing.T, s *webtest.Site, clock *webtest.FakeClock) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var counting countingSweeper
	counting.st = s.Store
	counting.passed = make(chan struct{}, 1)
	go func() {
		defer close(done)
		upload.SweepDrafts(ctx, &counting, clock.Now, time.Hour, slog.New(slog.DiscardHandler))
	}()
	select {
	case <-counting.passed:
	case <-time.After(10 * time.Second):
		t.Error("the sweep did not run")
	}
	cancel()
	<-done
}

// countingSweeper tells the test when the sweep's first pass is done.
type countingSweeper struct {
	st interface {
		DeleteExpiredDrafts(context.Context, time.Time) (int64, error)
	}
	passed chan struct{}
}

func (c *countingSweeper) DeleteExpiredDrafts(ctx context.Context, now time.Time) (int64, error) {
	n, err := c.st.DeleteExpiredDrafts(ctx, now)
	select {
	case c.passed <- struct{}{}:
	default:
	}
	return n, err
}

// TestDraftDiscard: the browser that made a preview deletes it, and the
// upload page says nothing was published.
func TestDraftDiscard(t *testing.T) {
	s := webtest.NewSite(t)
	b := newBrowserClient(t, s)
	draft := uploadSeedDraft(t, b)
	resp, _ := b.send(t, "POST", draft+"/discard", "", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/upload?discarded=1" {
		t.Fatalf("discard = %d → %q, want 303 to /upload?discarded=1", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, page := b.send(t, "GET", "/upload?discarded=1&lang=en", "", nil); !strings.Contains(page, "nothing was published") {
		t.Error("the upload page does not say the preview was discarded")
	}
	if resp, _ := b.send(t, "GET", draft, "", nil); resp.StatusCode != 404 || s.DraftCount(t) != 0 {
		t.Errorf("after discarding, the preview = %d with %d drafts", resp.StatusCode, s.DraftCount(t))
	}
}
