package site

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// newTestServer is a Server with what the page cache needs, and no store.
func newTestServer() *Server {
	return &Server{pages: newPageCache(1 << 20), gens: newGenerations(), metrics: NewMetrics(),
		Server: kit.New(kit.Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))}), compressor: middleware.NewCompressor(5, "text/html")}
}

// TestNotKept: the page cache keeps a cached route's 200 unless its
// handler calls NotKept, whatever the answer's headers say; a page not
// kept is made again for the next reader.
func TestNotKept(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handler  func(w http.ResponseWriter, r *http.Request)
		wantRuns int
	}{
		{"kept", func(w http.ResponseWriter, r *http.Request) { kit.KeptIf(w, r, true) }, 1},
		{"not kept", func(w http.ResponseWriter, r *http.Request) { kit.NotKept(r) }, 2},
		{"kit.KeptIf false", func(w http.ResponseWriter, r *http.Request) { kit.KeptIf(w, r, false) }, 2},
	} {
		s := newTestServer()
		runs := 0
		h := chi.NewRouter()
		h.Use(s.cachePages)
		h.Get("/leaderboard", func(w http.ResponseWriter, r *http.Request) {
			runs++
			tc.handler(w, r)
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = io.WriteString(w, "the page")
		})
		for range 2 {
			req := httptest.NewRequest("GET", "/leaderboard", nil)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || rec.Body.String() != "the page" {
				t.Fatalf("%s: %d %q", tc.name, rec.Code, rec.Body)
			}
		}
		if runs != tc.wantRuns {
			t.Errorf("%s: the handler ran %d times for two readers, want %d", tc.name, runs, tc.wantRuns)
		}
	}
}
