package site

import (
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/api"
	"github.com/speedmatrix/speedmatrix/web/kit"
	"github.com/speedmatrix/speedmatrix/web/report"
)

// routes is the site's address book: every address, suffixes included, and
// the handler behind it, so one table can be audited. Addresses are part
// of the product (forum links must work for years), so they change only by
// adding. Pages answer errors with an error page (s.page), the API with
// JSON (s.json).
func (s *Server) routes() *chi.Mux {
	s.compressor = newCompressor()
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
		get := func(pattern string, h kit.HandlerFunc) { r.Get(pattern, s.page(h)) }
		get("/", s.browse.Home)

		// A run: the report and its twins (web/report).
		get("/runs/{id}", s.report.RunPage)
		get("/runs/{id}.json", s.report.RunJSON)
		get("/runs/{id}.csv", s.report.RunExport(".csv"))
		get("/runs/{id}.md", s.report.RunExport(".md"))
		get("/runs/{id}.txt", s.report.RunExport(".txt"))
		get("/runs/{id}.bbcode", s.report.RunExport(".bbcode"))
		get("/runs/{id}/source", s.report.RunSource)
		get("/runs/{id}/card.png", s.report.RunCard)
		get("/runs/{id}/grid.svg", s.report.RunImage(report.GridSVG))
		get("/runs/{id}/badge.svg", s.report.RunImage(report.BadgeSVG))
		get("/runs/{id}/embed", s.report.RunEmbed)

		// Browse, compare and history (web/browse); an organisation's
		// public page is the account area's (web/account).
		get("/runs", s.browse.RunsPage)
		get("/leaderboard", s.browse.LeaderboardPage)
		get("/search", s.browse.SearchPage)
		get("/hardware/{slug}", s.browse.EntityPage(store.KindHardware))
		get("/engines/{slug}", s.browse.EntityPage(store.KindEngine))
		get("/models/{slug}", s.browse.EntityPage(store.KindModel))
		get("/submitters/{slug}", s.browse.EntityPage(store.KindSubmitter))
		get("/orgs/{slug}", s.account.OrgPage)
		get("/compare", s.browse.ComparePage)
		get("/compare/with/{id}", s.browse.CompareWithPage)
		get("/history", s.browse.HistoryPage)

		// Regressions and speedups between engine versions, and their
		// feed (web/regressions).
		get("/regressions", s.regressions.Page)
		get("/regressions.atom", s.regressions.Feed)

		// Upload (web/upload). Browsers send Sec-Fetch-Site/Origin; a
		// cross-site form post is refused before it reaches the handler.
		r.With(s.csrf).Get("/upload", s.page(s.upload.Form))
		r.With(s.csrf).Post("/upload", s.page(s.upload.Submit))
		// Step 2 and 3 of an upload: a draft's preview, publish, discard
		// (web/upload/upload_draft.go); only the browser that made it sees it.
		r.With(s.csrf).Get("/upload/drafts/{id}", s.page(s.upload.DraftPage))
		r.With(s.csrf).Post("/upload/drafts/{id}", s.page(s.upload.DraftSubmit))
		r.With(s.csrf).Post("/upload/drafts/{id}/discard", s.page(s.upload.DraftDiscard))

		// Accounts (web/account): every form behind the cross-origin check.
		r.Group(s.accountRoutes)
		// Getting started and what the benchmark measures (web/docs).
		r.Get("/start", s.page(s.docs.StartPage))
		r.Get("/bench", s.page(s.docs.BenchPage))
		// lil-bench prints this address when it has no token or a refused one.
		r.Get("/bench/token", s.page(s.account.BenchToken))

		// The decode calculator and its documentation (web/docs).
		get("/calculator", s.docs.CalculatorPage)
		get("/docs/calculator", s.docs.CalculatorDocs)
		// The planner: what to run on a hardware (web/plan).
		get("/plan", s.plan.PlanPage)

		// Documentation (web/docs, web/api) and site files (web/report).
		get("/docs/formats", s.docs.Formats)
		get("/docs/api", s.api.DocsPage)
		r.Get("/api/openapi.json", s.api.OpenAPI)
		get("/sitemap.xml", s.report.Sitemap)
		get("/sitemap-{lang}.xml", s.report.SitemapLang)
		r.Get("/robots.txt", s.report.Robots)

		r.Route("/api/v1", s.apiRoutes)
		r.Route("/api/bench", s.benchRoutes)

		r.NotFound(s.page(notFound))
		r.MethodNotAllowed(s.page(func(http.ResponseWriter, *http.Request) error {
			return &kit.HTTPError{Status: http.StatusMethodNotAllowed, Key: "error.method"}
		}))
	})
	return r
}

// apiRoutes are the API's addresses under /api/v1, reads open to every
// origin (web/api/api_docs_cors.go).
func (s *Server) apiRoutes(r chi.Router) {
	r.Use(api.CORS)
	r.Post("/runs", s.json(s.upload.CreateRun))
	r.Get("/runs", s.json(s.browse.RunsJSON))
	r.Get("/leaderboard", s.json(s.browse.LeaderboardJSON))
	r.Get("/runs/{id}", s.json(s.report.RunJSON))
	r.Delete("/runs/{id}", s.json(s.upload.DeleteRun))
	r.Get("/hardware", s.json(s.api.Identities(api.HardwareList)))
	r.Get("/engines", s.json(s.api.Identities(api.EngineList)))
	r.Get("/models", s.json(s.api.Identities(api.ModelList)))
	r.Get("/calculator", s.json(s.api.Calculator))
	r.Get("/plan", s.json(s.plan.PlanJSON))
	r.Get("/regressions", s.json(s.regressions.API))
	r.NotFound(s.json(notFound))
}

// accountRoutes are the sign-up, sign-in and account pages. Every one of
// them, reads too, passes the cross-origin check, so no other site can post
// a form to them or frame a sign-in.
func (s *Server) accountRoutes(r chi.Router) {
	r.Use(s.csrf, onPrimary)
	r.Get("/signup", s.page(s.account.SignupForm))
	r.Post("/signup", s.page(s.account.SignupSubmit))
	r.Get("/login", s.page(s.account.LoginForm))
	r.Post("/login", s.page(s.account.LoginSubmit))
	r.Get("/login/forgot", s.page(s.account.ForgotForm))
	r.Post("/login/forgot", s.page(s.account.ForgotSubmit))
	r.Get("/signup/confirm", s.page(s.account.SignupConfirmForm))
	r.Post("/signup/confirm", s.page(s.account.SignupConfirmSubmit))
	r.Post("/account/email/confirm", s.page(s.account.EmailConfirmRequest))
	r.Get("/account/email/verify", s.page(s.account.EmailVerifyForm))
	r.Post("/account/email/verify", s.page(s.account.EmailVerifySubmit))
	// GitHub (web/account/github*.go); the callback is a top-level
	// navigation from GitHub, which the cross-origin check lets through
	// as a GET, and its state cookie ties it to this browser.
	r.Post("/login/github", s.page(s.account.GithubLogin))
	r.Get("/login/github/callback", s.page(s.account.GithubCallback))
	r.Get("/login/github/handle", s.page(s.account.GithubHandleForm))
	r.Post("/login/github/handle", s.page(s.account.GithubHandleSubmit))
	r.Post("/account/github/link", s.page(s.account.GithubLink))
	r.Post("/account/github/unlink", s.page(s.account.GithubUnlink))
	r.Post("/logout", s.page(s.account.Logout))
	r.Get("/account", s.page(s.account.AccountPage))
	r.Post("/account/sessions/revoke", s.page(s.account.LogoutEverywhere))
	r.Get("/account/reset", s.page(s.account.ResetForm))
	r.Post("/account/reset", s.page(s.account.ResetSubmit))
	r.Get("/account/tokens", s.page(s.account.TokensPage))
	r.Post("/account/tokens", s.page(s.account.TokenCreate))
	r.Post("/account/tokens/revoke", s.page(s.account.TokenRevoke))
	r.Get("/account/runs", s.page(s.account.MyRunsPage))
	r.Get("/account/runs/{id}/edit", s.page(s.account.EditRunForm))
	r.Post("/account/runs/{id}/edit", s.page(s.account.EditRunSubmit))
	r.Post("/account/runs/{id}/{action}", s.page(s.account.MyRunAction))
	// Organisations (web/account/accounts_org*.go).
	r.Get("/account/orgs", s.page(s.account.OrgsPage))
	r.Post("/account/orgs", s.page(s.account.OrgCreate))
	r.Get("/account/orgs/{slug}", s.page(s.account.OrgManagePage))
	r.Post("/account/orgs/{slug}/{action}", s.page(s.account.OrgAction))
	// Moderation (web/account/admin.go): admins only.
	r.Get("/admin/audit", s.page(s.account.AuditPage))
	r.Post("/admin/hide-run", s.page(s.account.AdminAct("hide-run")))
	r.Post("/admin/unhide-run", s.page(s.account.AdminAct("unhide-run")))
	r.Post("/admin/suspend", s.page(s.account.AdminAct("suspend")))
}

// benchRoutes are lil-bench's upload protocol under /api/bench
// (web/upload/bench.go).
func (s *Server) benchRoutes(r chi.Router) {
	r.Use(api.CORS)
	r.Post("/runs", s.json(s.upload.BenchUpload))
	r.Get("/whoami", s.json(s.upload.BenchWhoami))
	r.NotFound(s.json(notFound))
}

func notFound(http.ResponseWriter, *http.Request) error { return kit.ErrNotFound }

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
