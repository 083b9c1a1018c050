package api

import (
	"net/http"

	"github.com/go-chi/chi/v5/middleware"
)

// corsMethods are the methods other origins may use: reads only. Uploads
// and deletions are for tools holding a token, not for pages in a browser.
const corsMethods = "GET, HEAD, OPTIONS"

// CORS opens the API's reads to every origin: `Access-Control-Allow-Origin:
// *` and never credentials (no cookie means anything to the API). It answers
// preflight OPTIONS itself and routes HEAD to the GET handlers.
func CORS(next http.Handler) http.Handler {
	next = middleware.GetHead(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Expose-Headers", "Content-Language, ETag, Link, Location, Retry-After")
		case http.MethodOptions:
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Allow-Methods", corsMethods)
			h.Set("Access-Control-Allow-Headers", "Accept, Accept-Language, Content-Language, If-None-Match")
			h.Set("Access-Control-Max-Age", "86400")
			h.Set("Allow", corsMethods)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
