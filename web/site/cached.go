package site

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzip"
	"github.com/speedmatrix/speedmatrix/web/kit"
	"github.com/speedmatrix/speedmatrix/web/upload"
)

// maxCachedBody is the largest answer the cache records; a larger one is
// streamed through as it is written.
const maxCachedBody = 2 << 20

// cachePages is the page cache's one entry point: a middleware of the
// router's chain (routes.go) that runs before the router routes, after
// what every answer gets (the security headers, the metrics and the access
// log, the query without tracking parameters). A kept page is bytes, and
// a hit needs none of what routing, the language middleware and a handler
// cost per request, so the route is looked up ahead (lookAhead, as chi's
// GetHead looks up a HEAD route). A cached route's GET or HEAD has its
// query reduced to what its page reads, before anything reads it
// (pageQuery), and, unless it is a later list page (cacheable), is
// answered by cachedAnswer; anything else goes on down the chain as it
// came.
func (s *Server) cachePages(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !readOnly(r) {
			next.ServeHTTP(w, r)
			return
		}
		pattern, id := lookAhead(r)
		route, ok := cachedRoutes[pattern]
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		r.URL.RawQuery = pageQuery(route.params, r.URL.RawQuery)
		if !cacheable(r) {
			next.ServeHTTP(w, r)
			return
		}
		r.Pattern = pattern // the route of an answer the router may never see (routeOf)
		s.cachedAnswer(w, r, route.scope, id, next)
	})
}

// readOnly reports whether r is a GET or a HEAD, the requests a kept page
// answers.
func readOnly(r *http.Request) bool { return r.Method == http.MethodGet || r.Method == http.MethodHead }

// lookAheads are the route contexts lookAhead finds routes with.
var lookAheads = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// lookAhead is the pattern of the GET route r's path leads to, and the
// path's {id}, found as the router will find them (by the escaped path
// when there is one); "" when r is not routed (no router's context).
func lookAhead(r *http.Request) (pattern, id string) {
	rctx := chi.RouteContext(r.Context())
	if rctx == nil {
		return "", ""
	}
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	if path == "" {
		path = "/"
	}
	tctx := lookAheads.Get().(*chi.Context)
	tctx.Reset()
	pattern = rctx.Routes.Find(tctx, http.MethodGet, path)
	id = tctx.URLParam("id")
	lookAheads.Put(tctx)
	return pattern, id
}

// cachedAnswer answers r from the page cache, in the reader's language,
// which it picks and announces as the language middleware does. A fresh
// hit touches no database. A miss runs next, the rest of the chain, once
// for all concurrent readers of the same page, keeps a 200 answer (unless
// the handler said otherwise, NotKept) and sends it; when the handler
// fails (a 5xx: the database is down) and an older copy is kept, that
// copy is sent, marked as stale (stale.go).
func (s *Server) cachedAnswer(w http.ResponseWriter, r *http.Request, scope pageScope, id string, next http.Handler) {
	tag := s.announceLanguage(w, r)
	var kb [256]byte
	keyBytes := s.appendPageKey(kb[:0], r, tag)
	st := s.gens.stampOf(scope, id, r)
	old, ok := s.pages.getBytes(keyBytes)
	if ok && old.stamp == st {
		s.metrics.cache("hit")
		_ = s.servePage(w, r, old)
		return
	}
	// The chain below reads the language chosen here (language).
	r = r.WithContext(s.withLanguage(r.Context(), tag))
	key := string(keyBytes)
	s.metrics.cache("miss")
	v, _, _ := s.flight.Do(key+" "+strconv.FormatUint(st.epoch, 10)+"."+strconv.FormatUint(st.gen, 10), func() (any, error) {
		return s.fill(w, r, next, key, st, old != nil), nil
	})
	res := v.(fillResult)
	switch {
	case res.page != nil:
		_ = s.servePage(w, r, res.page)
	case res.failed && old != nil:
		s.metrics.cache("stale")
		s.serveStale(w, r, old)
	// An answer not kept (an error, a page for a made-up filter value) is
	// compressed as the other routes' answers are (compressUncached).
	case res.leader == r:
		if !res.rec.spilled { // else it is sent already
			s.compressor.Handler(res.rec).ServeHTTP(w, r)
		}
	default:
		s.compressor.Handler(next).ServeHTTP(w, r) // another reader's answer could not be kept: make our own
	}
}

// fillResult is what one run of a missed page's handler gave.
type fillResult struct {
	page   *cachedPage // kept, for everyone waiting
	failed bool        // the handler answered 5xx
	rec    *recorder   // the answer, for the reader whose request ran it
	leader *http.Request
}

// staleAfter bounds how long a reader of a page with an older copy waits
// for the fresh one: a database that does not answer at all (no refusal)
// would otherwise hold every reader until their client gives up.
const staleAfter = 3 * time.Second

// fill runs h for the page key and keeps a 200 answer. With an older copy
// to fall back on, h gets staleAfter.
func (s *Server) fill(w http.ResponseWriter, r *http.Request, h http.Handler, key string, st stamp, hasOld bool) fillResult {
	rec := newRecorder(w)
	ctx := kit.WithKeepNote(r.Context(), &rec.keep) // for kit.NotKept
	if hasOld {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, staleAfter)
		defer cancel()
	}
	inner := r.Clone(ctx)
	inner.Header.Del("If-None-Match") // the cache answers revalidations itself
	inner.Header.Del("If-Modified-Since")
	h.ServeHTTP(rec, inner)
	res := fillResult{rec: rec, leader: r, failed: rec.status >= 500 || (hasOld && ctx.Err() != nil && r.Context().Err() == nil)}
	if rec.spilled || rec.status != http.StatusOK {
		return res
	}
	header, ok := rec.changedHeader()
	if !ok {
		return res
	}
	p, err := newCachedPage(key, header, rec.buf.Bytes(), st)
	if err != nil {
		return res
	}
	s.pages.put(key, p)
	res.page = p
	// Everyone is sent the page, which holds its own bytes: the recorded
	// answer is not read again.
	kit.PutBuffer(rec.buf)
	rec.buf = nil
	return res
}

// newCompressor is the on-the-fly compression of the answers the page
// cache does not keep (compressUncached): the API's JSON and the pages
// asked with questions of their own. Every one is a miss, so it takes
// the cold path's level and compressor (gzipLevel): chi's default,
// compress/gzip at level 5, was half the CPU of a 100-row leaderboard
// answer, twice what the encoding of its JSON cost.
func newCompressor() *middleware.Compressor {
	c := middleware.NewCompressor(gzipLevel, "text/html", "application/json")
	c.SetEncoder("gzip", func(w io.Writer, level int) io.Writer {
		zw, _ := gzip.NewWriterLevel(w, level) // gzipLevel is a valid level
		return zw
	})
	return c
}

// compressUncached compresses answers on the fly, except those of cached
// routes, kept compressed already (cachePages; its misses come through
// here, and what it keeps must be the page as written). It runs after
// routing (a group's middleware), so the route's pattern is known.
func (s *Server) compressUncached(next http.Handler) http.Handler {
	compressed := s.compressor.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := cachedRoutes[r.Pattern]; (ok && readOnly(r) && cacheable(r)) || smallAnswer(r) {
			next.ServeHTTP(w, r)
			return
		}
		compressed.ServeHTTP(w, r)
	})
}

// smallAnswer reports whether r is an upload by the API whose answer is
// the run's id and address (apiCreateRun, benchUpload; not a dry run,
// which answers the whole run): about 100 bytes of JSON, no smaller for
// gzip, where the compressor's reset of its pooled writer alone was 3.5 %
// of the server's CPU per upload.
func smallAnswer(r *http.Request) bool {
	return r.Method == http.MethodPost && (r.URL.Path == "/api/v1/runs" || r.URL.Path == "/api/bench/runs") && !upload.DryRun(r)
}

// recorder keeps a handler's answer to send or cache it; past
// maxCachedBody it sends what it has and streams the rest.
type recorder struct {
	outer   http.ResponseWriter
	before  http.Header // the outer headers when the handler started
	header  http.Header
	status  int
	buf     *bytes.Buffer // pooled (web/kit/render.go): a miss's page is tens of KB
	spilled bool
	keep    kit.KeepNote // the handler said not to keep it (kit.NotKept)
}

func newRecorder(w http.ResponseWriter) *recorder {
	return &recorder{outer: w, before: w.Header().Clone(), header: w.Header().Clone(), buf: kit.GetBuffer()}
}

func (rc *recorder) Header() http.Header {
	if rc.spilled {
		return rc.outer.Header()
	}
	return rc.header
}

func (rc *recorder) WriteHeader(code int) {
	if rc.status == 0 {
		rc.status = code
	}
}

func (rc *recorder) Write(b []byte) (int, error) {
	if rc.status == 0 {
		rc.status = http.StatusOK
	}
	if !rc.spilled && rc.buf.Len()+len(b) > maxCachedBody {
		rc.replay(rc.outer)
		rc.spilled = true
	}
	if rc.spilled {
		return rc.outer.Write(b)
	}
	return rc.buf.Write(b)
}

// ServeHTTP sends the recorded answer on w, as replay does, so that a
// middleware (the compressor) can wrap it.
func (rc *recorder) ServeHTTP(w http.ResponseWriter, _ *http.Request) { rc.replay(w) }

// replay sends the recorded answer on w.
func (rc *recorder) replay(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range rc.header {
		h[k] = v
	}
	if rc.status == 0 {
		rc.status = http.StatusOK
	}
	w.WriteHeader(rc.status)
	_, _ = w.Write(rc.buf.Bytes())
}

// changedHeader is what the handler set beyond the headers every request
// gets anyway, to send again with the cached body, and (as nil values)
// what it removed of them; ok is false when the handler said the answer
// is not to be kept (NotKept) or set a cookie, which no other reader may
// receive.
func (rc *recorder) changedHeader() (h http.Header, ok bool) {
	h = http.Header{}
	for k, v := range rc.header {
		switch k {
		case "Content-Length", "Etag", "Content-Encoding", "Set-Cookie":
			continue
		}
		if !equalValues(rc.before[k], v) {
			h[k] = v
		}
	}
	for k := range rc.before {
		if _, kept := rc.header[k]; !kept {
			h[k] = nil // the handler removed it (the embed page's X-Frame-Options): servePage removes it too
		}
	}
	if rc.keep.NotKept || !equalValues(rc.before["Set-Cookie"], rc.header["Set-Cookie"]) {
		return nil, false
	}
	return h, true
}

func equalValues(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// age is how long ago p was built, in whole seconds, for the Age header.
func age(p *cachedPage) string {
	return strconv.Itoa(int(time.Since(p.built) / time.Second))
}
