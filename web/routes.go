package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// routes is the site's address book: every path, and the handler behind it.
// Addresses are part of the product (forum links must work for years), so
// they change only by adding.
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.Recoverer, s.accessLog, securityHeaders)

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Handle("/static/*", staticFiles())

	r.Group(func(r chi.Router) {
		r.Use(s.language)
		// Pages and JSON are compressed on the fly; the report page brings
		// its own cached gzip, which the compressor leaves alone.
		r.Use(middleware.Compress(5, "text/html", "application/json"))
		r.Get("/", s.wrap(s.home, false))
		r.Get("/runs/{id}", s.wrap(s.runPage, false)) // also /runs/{id}.json
		r.Get("/runs/{id}/source", s.wrap(s.runSource, false))
		r.Get("/docs/formats", s.wrap(s.docsFormats, false))
		r.Route("/upload", func(r chi.Router) {
			// Browsers send Sec-Fetch-Site/Origin; a cross-site form post is
			// refused before it reaches the handler (CSRF).
			r.Use(s.csrf)
			r.Get("/", s.wrap(s.uploadForm, false))
			r.Post("/", s.wrap(s.uploadSubmit, false))
		})
		r.Route("/api/v1", func(api chi.Router) {
			api.Use(apiCORS) // reads open to every origin (api_docs_cors.go)
			api.Post("/runs", s.wrap(s.apiCreateRun, true))
			api.Get("/runs/{id}", s.wrap(s.apiGetRun, true))
			s.browseAPI(api)
			s.accountAPI(api)
			api.NotFound(s.wrap(func(http.ResponseWriter, *http.Request) error { return errNotFound }, true))
		})
		// Each area mounts its own pages (files browse.go, compare.go,
		// share.go, accounts.go).
		s.browseRoutes(r)
		s.compareRoutes(r)
		s.shareRoutes(r)
		s.accountRoutes(r)
		r.NotFound(s.wrap(func(http.ResponseWriter, *http.Request) error { return errNotFound }, false))
		r.MethodNotAllowed(s.wrap(func(http.ResponseWriter, *http.Request) error {
			return &httpError{status: http.StatusMethodNotAllowed, key: "error.method"}
		}, false))
	})
	return r
}

// csrf refuses cross-origin, state-changing browser requests using the
// Fetch metadata headers every current browser sends (net/http's
// CrossOriginProtection), so the form needs no token. Non-browser clients
// (curl, lil-bench) send neither header and use the API anyway.
func (s *Server) csrf(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeErrorPage(w, r, http.StatusForbidden, "error.cross_origin")
	}))
	return p.Handler(next)
}
