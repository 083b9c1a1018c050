package kit

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestNotModified: the one 304 helper compares weakly, reads lists and
// "*", and sets the ETag either way.
func TestNotModified(t *testing.T) {
	for _, tt := range []struct {
		header, etag string
		want         bool
	}{
		{"", `"a"`, false},
		{`"a"`, `"a"`, true},
		{`W/"a"`, `"a"`, true},
		{`"a"`, `W/"a"`, true},
		{`"b", W/"a"`, `W/"a"`, true},
		{`"ab"`, `"a"`, false},
		{`"a-en"`, `"a"`, false},
		{`*`, `"a"`, true},
	} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/", nil)
		if tt.header != "" {
			r.Header.Set("If-None-Match", tt.header)
		}
		got := NotModified(w, r, tt.etag)
		if got != tt.want {
			t.Errorf("If-None-Match %s vs %s = %v, want %v", tt.header, tt.etag, got, tt.want)
		}
		if w.Header().Get("ETag") != tt.etag {
			t.Errorf("ETag = %q, want %q", w.Header().Get("ETag"), tt.etag)
		}
		if got && w.Code != http.StatusNotModified {
			t.Errorf("status %d, want 304", w.Code)
		}
	}
}
