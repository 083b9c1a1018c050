package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// routes is the site's address book: every address, suffixes included, and
// the handler behind it, so one table can be audited. Addresses are part
// of the product (forum links must work for years), so they change only by
// adding. Pages answer errors with an error page (s.page), the API with
// JSON (s.api).
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	// GetHead answers HEAD with the GET handler (the server drops the
	// body), so link checkers and monitors get the page's status, not 405.
	r.Use(middleware.Recoverer, s.accessLog, securityHeaders, middleware.GetHead)

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Handle("/static/*", staticFiles())
	r.Get("/favicon.ico", favicon) // for clients that ask the root, not the page's <link rel=icon>

	r.Group(func(r chi.Router) {
		r.Use(s.language)
		// Pages and JSON are compressed on the fly; the report page brings
		// its own cached gzip, which the compressor leaves alone.
		r.Use(middleware.Compress(5, "text/html", "application/json"))
		r.Get("/", s.page(s.home))

		// A run: the report and its twins (run_page.go, share*.go).
		r.Get("/runs/{id}", s.page(s.runPage))
		r.Get("/runs/{id}.json", s.page(s.runJSON))
		r.Get("/runs/{id}.csv", s.page(s.runExport(".csv")))
		r.Get("/runs/{id}.md", s.page(s.runExport(".md")))
		r.Get("/runs/{id}.txt", s.page(s.runExport(".txt")))
		r.Get("/runs/{id}.bbcode", s.page(s.runExport(".bbcode")))
		r.Get("/runs/{id}/source", s.page(s.runSource))
		r.Get("/runs/{id}/card.png", s.page(s.runCard))
		r.Get("/runs/{id}/grid.svg", s.page(s.runImage(gridSVG)))
		r.Get("/runs/{id}/badge.svg", s.page(s.runImage(badgeSVG)))
		r.Get("/runs/{id}/embed", s.page(s.runEmbed))

		// Browse (browse*.go) and compare (compare.go).
		r.Get("/runs", s.page(s.runsPage))
		r.Get("/leaderboard", s.page(s.leaderboardPage))
		r.Get("/search", s.page(s.searchPage))
		r.Get("/hardware/{slug}", s.page(s.entityPage(store.KindHardware)))
		r.Get("/engines/{slug}", s.page(s.entityPage(store.KindEngine)))
		r.Get("/models/{slug}", s.page(s.entityPage(store.KindModel)))
		r.Get("/submitters/{slug}", s.page(s.entityPage(store.KindSubmitter)))
		r.Get("/orgs/{slug}", s.page(s.orgPage))
		r.Get("/compare", s.page(s.comparePage))
		r.Get("/compare/with/{id}", s.page(s.compareWithPage))

		// Upload (upload*.go). Browsers send Sec-Fetch-Site/Origin; a
		// cross-site form post is refused before it reaches the handler.
		r.With(s.csrf).Get("/upload", s.page(s.uploadForm))
		r.With(s.csrf).Post("/upload", s.page(s.uploadSubmit))

		// Browser accounts (accounts_browser.go, accounts_tokens.go,
		// accounts_reset.go): every form behind the cross-origin check.
		r.Group(s.accountRoutes)
		// Getting started and what the benchmark measures (start.go).
		r.Get("/start", s.page(s.startPage))
		r.Get("/bench", s.page(s.benchPage))
		// lil-bench prints this address when it has no token or a refused one.
		r.Get("/bench/token", s.page(s.benchToken))

		// The decode calculator (calculator.go) and its documentation.
		r.Get("/calculator", s.page(s.calculatorPage))
		r.Get("/docs/calculator", s.page(s.docsCalculator))

		// Documentation and site files.
		r.Get("/docs/formats", s.page(s.docsFormats))
		r.Get("/docs/api", s.page(s.apiDocsPage))
		r.Get("/api/openapi.json", s.openAPI)
		r.Get("/sitemap.xml", s.page(s.sitemap))
		r.Get("/robots.txt", s.robots)

		r.Route("/api/v1", s.apiRoutes)
		r.Route("/api/bench", s.benchRoutes)

		r.NotFound(s.page(notFound))
		r.MethodNotAllowed(s.page(func(http.ResponseWriter, *http.Request) error {
			return &httpError{status: http.StatusMethodNotAllowed, key: "error.method"}
		}))
	})
	return r
}

// apiRoutes are the API's addresses under /api/v1, reads open to every
// origin (api_docs_cors.go).
func (s *Server) apiRoutes(api chi.Router) {
	api.Use(apiCORS)
	api.Post("/runs", s.api(s.apiCreateRun))
	api.Get("/runs", s.api(s.apiListRuns))
	api.Get("/runs/{id}", s.api(s.runJSON))
	api.Delete("/runs/{id}", s.api(s.apiDeleteRun))
	api.Get("/hardware", s.api(s.apiIdentities(hardwareList)))
	api.Get("/engines", s.api(s.apiIdentities(engineList)))
	api.Get("/models", s.api(s.apiIdentities(modelList)))
	api.Get("/calculator", s.api(s.apiCalculator))
	api.NotFound(s.api(notFound))
}

// accountRoutes are the sign-up, sign-in and account pages. Every one of
// them, reads too, passes the cross-origin check, so no other site can post
// a form to them or frame a sign-in.
func (s *Server) accountRoutes(r chi.Router) {
	r.Use(s.csrf)
	r.Get("/signup", s.page(s.signupForm))
	r.Post("/signup", s.page(s.signupSubmit))
	r.Get("/login", s.page(s.loginForm))
	r.Post("/login", s.page(s.loginSubmit))
	r.Post("/logout", s.page(s.logout))
	r.Get("/account", s.page(s.accountPage))
	r.Post("/account/sessions/revoke", s.page(s.logoutEverywhere))
	r.Get("/account/reset", s.page(s.resetForm))
	r.Post("/account/reset", s.page(s.resetSubmit))
	r.Get("/account/tokens", s.page(s.tokensPage))
	r.Post("/account/tokens", s.page(s.tokenCreate))
	r.Post("/account/tokens/revoke", s.page(s.tokenRevoke))
	r.Get("/account/runs", s.page(s.myRunsPage))
	r.Get("/account/runs/{id}/edit", s.page(s.editRunForm))
	r.Post("/account/runs/{id}/edit", s.page(s.editRunSubmit))
	r.Post("/account/runs/{id}/{action}", s.page(s.myRunAction))
	// Moderation (admin.go): admins only.
	r.Get("/admin/audit", s.page(s.auditPage))
	r.Post("/admin/hide-run", s.page(s.adminAct("hide-run")))
	r.Post("/admin/suspend", s.page(s.adminAct("suspend")))
}

// benchRoutes are lil-bench's upload protocol under /api/bench
// (accounts_runs.go).
func (s *Server) benchRoutes(api chi.Router) {
	api.Use(apiCORS)
	api.Post("/runs", s.api(s.benchUpload))
	api.Get("/whoami", s.api(s.benchWhoami))
	api.NotFound(s.api(notFound))
}

func notFound(http.ResponseWriter, *http.Request) error { return errNotFound }

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
