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
func (s *Server) routes() *chi.Mux {
	s.compressor = middleware.NewCompressor(5, "text/html", "application/json")
	r := chi.NewRouter()
	// GetHead answers HEAD with the GET handler (the server drops the
	// body), so link checkers and monitors get the page's status, not 405.
	// Every request takes this one chain; tracking parameters are off the
	// query before anything reads it (tracking.go). The page cache answers
	// the pages cachedRoutes (cachepolicy.go) lists before the router
	// routes them (cached.go).
	r.Use(middleware.Recoverer, s.observe, s.securityHeaders, dropTracking, s.cachePages,
		middleware.GetHead, writesOnPrimary)

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz)
	r.Handle(staticPattern, staticFiles())
	r.Get("/favicon.ico", favicon) // for clients that ask the root, not the page's <link rel=icon>

	r.Group(func(r chi.Router) {
		// Pages and JSON are compressed on the fly, but for the cached
		// ones, which bring their own gzip or brotli (cached.go).
		r.Use(s.language, s.compressUncached)
		get := func(pattern string, h handlerFunc) { r.Get(pattern, s.page(h)) }
		get("/", s.home)

		// A run: the report and its twins (run_page.go, share*.go).
		get("/runs/{id}", s.runPage)
		get("/runs/{id}.json", s.runJSON)
		get("/runs/{id}.csv", s.runExport(".csv"))
		get("/runs/{id}.md", s.runExport(".md"))
		get("/runs/{id}.txt", s.runExport(".txt"))
		get("/runs/{id}.bbcode", s.runExport(".bbcode"))
		get("/runs/{id}/source", s.runSource)
		get("/runs/{id}/card.png", s.runCard)
		get("/runs/{id}/grid.svg", s.runImage(gridSVG))
		get("/runs/{id}/badge.svg", s.runImage(badgeSVG))
		get("/runs/{id}/embed", s.runEmbed)

		// Browse (browse*.go) and compare (compare.go).
		get("/runs", s.runsPage)
		get("/leaderboard", s.leaderboardPage)
		get("/search", s.searchPage)
		get("/hardware/{slug}", s.entityPage(store.KindHardware))
		get("/engines/{slug}", s.entityPage(store.KindEngine))
		get("/models/{slug}", s.entityPage(store.KindModel))
		get("/submitters/{slug}", s.entityPage(store.KindSubmitter))
		get("/orgs/{slug}", s.orgPage)
		get("/compare", s.comparePage)
		get("/compare/with/{id}", s.compareWithPage)
		get("/history", s.historyPage) // history.go

		// Upload (upload*.go). Browsers send Sec-Fetch-Site/Origin; a
		// cross-site form post is refused before it reaches the handler.
		r.With(s.csrf).Get("/upload", s.page(s.uploadForm))
		r.With(s.csrf).Post("/upload", s.page(s.uploadSubmit))
		// Step 2 and 3 of an upload: a draft's preview, publish, discard
		// (upload_draft.go); only the browser that made it sees it.
		r.With(s.csrf).Get("/upload/drafts/{id}", s.page(s.draftPage))
		r.With(s.csrf).Post("/upload/drafts/{id}", s.page(s.draftSubmit))
		r.With(s.csrf).Post("/upload/drafts/{id}/discard", s.page(s.draftDiscard))

		// Browser accounts (accounts_browser.go, accounts_tokens.go,
		// accounts_reset.go): every form behind the cross-origin check.
		r.Group(s.accountRoutes)
		// Getting started and what the benchmark measures (start.go).
		r.Get("/start", s.page(s.startPage))
		r.Get("/bench", s.page(s.benchPage))
		// lil-bench prints this address when it has no token or a refused one.
		r.Get("/bench/token", s.page(s.benchToken))

		// The decode calculator (calculator.go) and its documentation.
		get("/calculator", s.calculatorPage)
		get("/docs/calculator", s.docsCalculator)

		// Documentation and site files.
		get("/docs/formats", s.docsFormats)
		get("/docs/api", s.apiDocsPage)
		r.Get("/api/openapi.json", s.openAPI)
		get("/sitemap.xml", s.sitemap)
		get("/sitemap-{lang}.xml", s.sitemapLang)
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
	r.Use(s.csrf, onPrimary)
	r.Get("/signup", s.page(s.signupForm))
	r.Post("/signup", s.page(s.signupSubmit))
	r.Get("/login", s.page(s.loginForm))
	r.Post("/login", s.page(s.loginSubmit))
	r.Get("/login/forgot", s.page(s.forgotForm))
	r.Post("/login/forgot", s.page(s.forgotSubmit))
	r.Get("/signup/confirm", s.page(s.signupConfirmForm))
	r.Post("/signup/confirm", s.page(s.signupConfirmSubmit))
	r.Post("/account/email/confirm", s.page(s.emailConfirmRequest))
	r.Get("/account/email/verify", s.page(s.emailVerifyForm))
	r.Post("/account/email/verify", s.page(s.emailVerifySubmit))
	// GitHub (github.go, github_account.go); the callback is a top-level
	// navigation from GitHub, which the cross-origin check lets through
	// as a GET, and its state cookie ties it to this browser.
	r.Post("/login/github", s.page(s.githubLogin))
	r.Get("/login/github/callback", s.page(s.githubCallback))
	r.Get("/login/github/handle", s.page(s.githubHandleForm))
	r.Post("/login/github/handle", s.page(s.githubHandleSubmit))
	r.Post("/account/github/link", s.page(s.githubLink))
	r.Post("/account/github/unlink", s.page(s.githubUnlink))
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
	// Organisations (accounts_orgs.go, accounts_org_manage.go).
	r.Get("/account/orgs", s.page(s.orgsPage))
	r.Post("/account/orgs", s.page(s.orgCreate))
	r.Get("/account/orgs/{slug}", s.page(s.orgManagePage))
	r.Post("/account/orgs/{slug}/{action}", s.page(s.orgAction))
	// Moderation (admin.go): admins only.
	r.Get("/admin/audit", s.page(s.auditPage))
	r.Post("/admin/hide-run", s.page(s.adminAct("hide-run")))
	r.Post("/admin/unhide-run", s.page(s.adminAct("unhide-run")))
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

// onPrimary sends every read of the request to the primary database, never
// to a replica (store.OnPrimary): account pages show what their reader
// just did, and their reads lead to writes.
func onPrimary(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(store.OnPrimary(r.Context())))
	})
}

// writesOnPrimary is onPrimary for every request that may write (any
// method but GET and HEAD): what it reads decides what it writes.
func writesOnPrimary(next http.Handler) http.Handler {
	primary := onPrimary(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		primary.ServeHTTP(w, r)
	})
}

// csrf refuses cross-origin, state-changing browser requests using the
// Fetch metadata headers every current browser sends (net/http's
// CrossOriginProtection), so the form needs no token. Non-browser clients
// (curl, lil-bench) send neither header and use the API anyway.
func (s *Server) csrf(next http.Handler) http.Handler {
	p := http.NewCrossOriginProtection()
	p.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeErrorPage(w, r, http.StatusForbidden, "error.cross_origin", nil)
	}))
	return p.Handler(next)
}
