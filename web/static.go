package web

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/static"
)

// staticFiles serves the embedded CSS and JS. Pages link them with a content
// hash (static.URL), so such a link can be cached for good; a bare address
// gets an hour.
func staticFiles() http.Handler {
	fs := http.StripPrefix(static.Prefix, http.FileServerFS(static.FS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("v") != "" {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "public, max-age=3600")
		}
		fs.ServeHTTP(w, r)
	})
}
