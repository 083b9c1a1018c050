package web

import (
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// hits answers a fresh hit of the page cache before the router's
// middleware chain, and sends every other request to mux as it is. A hit
// needs none of what the chain makes per request (a wrapped writer for the
// metrics and another for the access log, the route context, the
// request's localizer in a new context and a copy of the request for
// each), only what the chain would say: the same headers (security, the
// language and what chose it, the page's own), the same metrics labels and
// access log line, and the same ETag, 304 and Vary. A request the chain
// might answer otherwise is never taken: a HEAD, an escaped path, a
// ?lang= that sets the language cookie, a later list page, a miss, a
// stale copy. Sessions play no part in a cached page (cachepolicy.go), so
// a signed-in reader's hit is anyone's, as in the chain.
//
// The handler is still the router's route table (chi.Routes), for what
// walks it.
func (s *Server) hits(mux *chi.Mux) http.Handler {
	h := &hitFirst{Mux: mux, s: s, security: securitySet(s.baseURL), chain: middleware.Recoverer(mux)}
	h.serve = middleware.Recoverer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !h.AnswerHit(w, r) {
			mux.ServeHTTP(w, r)
		}
	}))
	return h
}

// HitAnswerer is what New's handler also is: AnswerHit answers a fresh
// hit of the page cache and reports whether it did, writing nothing when
// it did not, so that a server in front of the handler (httpfront) can
// answer hits without net/http and send the rest to the handler.
type HitAnswerer interface {
	AnswerHit(w http.ResponseWriter, r *http.Request) bool
}

// FrontAnswerer is what New's handler also is, for a server in front of
// it that keeps a connection as long as it answers each request
// (httpfront): AnswerFront answers a fresh hit as AnswerHit does, and a
// plain GET of a cached route that is not one (a miss, a stale page, a
// later list page) through the whole middleware chain into w, reporting
// false, having written nothing, for anything else.
//
// Through AnswerHit alone, a connection's first miss handed it to
// net/http for the rest of its life; behind a reverse proxy, which keeps a
// few connections open and sends every reader's request down them, each
// miss took one more of them, until every hit went through net/http. A
// cached route's answer is a page in memory either way (the page cache
// records it whole), so answering it into the front's buffer streams
// nothing that net/http would have sent sooner.
type FrontAnswerer interface {
	AnswerFront(w http.ResponseWriter, r *http.Request) bool
}

// hitFirst is the router with hits answered first (hits).
type hitFirst struct {
	*chi.Mux
	s        *Server
	security headerSet
	serve    http.Handler // hits first, then the router
	chain    http.Handler // the router alone
}

// AnswerFront answers a hit, or a cached route's plain GET through the
// chain (FrontAnswerer).
func (h *hitFirst) AnswerFront(w http.ResponseWriter, r *http.Request) bool {
	if h.AnswerHit(w, r) {
		return true
	}
	if r.Method != http.MethodGet || r.URL.RawPath != "" || !h.cachedRoute(r.URL.Path) {
		return false
	}
	h.chain.ServeHTTP(w, r)
	return true
}

// cachedRoute reports whether path is one of a cached route's.
func (h *hitFirst) cachedRoute(path string) bool {
	rctx := routeContexts.Get().(*chi.Context)
	defer func() {
		rctx.Reset()
		routeContexts.Put(rctx)
	}()
	if path == "" {
		path = "/"
	}
	_, ok := cachedRoutes[h.Mux.Find(rctx, http.MethodGet, path)]
	return ok
}

func (h *hitFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.serve.ServeHTTP(w, r) }

// AnswerHit answers r when it is a fresh hit (HitAnswerer).
func (h *hitFirst) AnswerHit(w http.ResponseWriter, r *http.Request) bool {
	// Before anything reads the query: pages are built from the query
	// without its tracking parameters (a cached route's is then reduced
	// to what its page reads, serveHit and pageParams).
	r.URL.RawQuery = withoutTracking(r.URL.RawQuery)
	return h.s.serveHit(w, r, h.Mux, h.security) || h.s.serveStaticHit(w, r, h.security)
}

// routeContexts are the route contexts hits looks routes up with.
var routeContexts = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// serveHit answers r when it is a fresh hit of a cached route, and
// reports whether it did; when it did not, nothing is written.
func (s *Server) serveHit(w http.ResponseWriter, r *http.Request, mux *chi.Mux, security headerSet) bool {
	start := time.Now()
	if r.Method != http.MethodGet || r.URL.RawPath != "" {
		return false
	}
	rctx := routeContexts.Get().(*chi.Context)
	defer func() {
		rctx.Reset()
		routeContexts.Put(rctx)
	}()
	path := r.URL.Path
	if path == "" {
		path = "/"
	}
	pattern := mux.Find(rctx, http.MethodGet, path)
	route, ok := cachedRoutes[pattern]
	if !ok {
		return false
	}
	// As pageParams does for the chain, before the language or the key
	// reads the query.
	r.URL.RawQuery = pageQuery(route.params, r.URL.RawQuery)
	if !cacheable(r) {
		return false
	}
	tag, cookie := pickLanguage(r)
	if _, sets := remember(r, cookie); sets {
		return false
	}
	var kb [256]byte
	key := s.appendPageKey(kb[:0], r, tag)
	st := s.gens.stampOf(route.scope, rctx.URLParam("id"), r)
	p, ok := s.pages.getBytes(key)
	if !ok || p.stamp != st {
		return false
	}
	s.metrics.cache("hit")
	h := w.Header()
	security.apply(h)
	languageHeaders(h, tag)
	status, n, _ := s.writePage(w, r, p)
	s.logRequest(r, status, n, start)
	s.metrics.observe(pattern, r.Method, status, start)
	return true
}
