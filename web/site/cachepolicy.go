package site

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// This file is the page cache's policy, in one place: which pages are
// kept as bytes and which query parameters each reads (cachedRoutes), what
// names one (appendPageKey), and what makes a kept page stale
// (generations, renewed from store.Change).

// pageScope says which changes make a cached page stale.
type pageScope int

const (
	// scopeRun: a page of the run in {id} (exports, images); only
	// a change of that run renews it.
	scopeRun pageScope = iota + 1
	// scopeSite: lists, leaderboards, entity pages, home: any change.
	scopeSite
	// scopeCompare: /compare?runs=a,b: a change of one of its runs.
	scopeCompare
)

// cachedRoute is the policy of one cached route: what makes its pages
// stale, and the query parameters its page reads. Only those reach the
// handler and name the page (pageQuery, in cachePages), so a parameter no
// page reads (?x=1, ?x=2, …) is no new miss and no new entry, and a
// handler cannot read one its key does not name: a list left short makes
// a filter stop working, never one filter's page served for another.
type cachedRoute struct {
	scope pageScope
	// params are sorted, which is the order url.Values.Encode writes, so
	// the site's own links are in the order pages are kept under.
	params []string
}

// The query parameters of the cached pages. Every page reads ?lang=: the
// language middleware picks the language by it, and the page's canonical
// and language links say whether it was given (templates.NewBase).
var (
	langOnly = []string{langParam}
	// runImageParams: ?v= pins the revision an image shows (imageCache).
	runImageParams = []string{langParam, "v"}
	// runsParams: readRunsQuery (readFilter, sort, the cursor after).
	runsParams = []string{"after", "engine", "hardware", langParam, "model", "quant", "sort", "submitter", "version"}
	// leaderboardParams: readLeaderQuery (readFilter, metric, the grid
	// point, flagged) and the queued toggle.
	leaderboardParams = []string{"conc", "ctx", "engine", "flagged", "hardware", langParam, "metric", "model", "quant", "queued", "submitter", "version"}
	compareParams     = []string{langParam, "runs"}
	// reportParams: the grid's metric and the price per kWh (RunPage).
	reportParams = []string{"kwh", langParam, "metric"}
	// historyParams: readHistoryQuery.
	historyParams = []string{"cell", "engine", "hardware", langParam, "model", "quant"}
	// planParams: plan.ParseRequest's. Only the page is kept: a route
	// under /api/v1 is compressed by the router's mount whatever this
	// table says, so a kept answer would be compressed twice.
	planParams = sortedParams(append([]string{langParam}, plan.Params...))
	// regressionsParams: the filters of /regressions; its feed reads
	// engine alone.
	regressionsParams = []string{"engine", "hardware", langParam}
	feedParams        = []string{"engine", langParam}
)

// sortedParams is params in the order cachedRoute keeps them.
func sortedParams(params []string) []string {
	slices.Sort(params)
	return params
}

// The report's "What differs" and its links to regressions read other
// runs (the fastest other run of its setup, the changes of its engine
// version), which a change names no run of: an upload that becomes the
// setup's fastest names only itself. So the report is renewed on any
// change, not only of its run. The cost: each upload or fold makes every
// kept report a miss once, on its next read (a report's miss is a few
// reads by key); its ETag is of its bytes, so a browser revalidating a
// report that came out the same still gets a 304. Its exports and images
// show none of that and stay per run.

// cachedRoutes are the public pages that change only when data changes,
// by route pattern (routes.go). Everything else is answered fresh.
var cachedRoutes = map[string]cachedRoute{
	"/":                    {scopeSite, langOnly},
	"/runs/{id}":           {scopeSite, reportParams},
	"/runs/{id}.json":      {scopeRun, langOnly},
	"/runs/{id}.csv":       {scopeRun, langOnly},
	"/runs/{id}.md":        {scopeRun, langOnly},
	"/runs/{id}.txt":       {scopeRun, langOnly},
	"/runs/{id}.bbcode":    {scopeRun, langOnly},
	"/runs/{id}/card.png":  {scopeRun, langOnly},
	"/runs/{id}/grid.svg":  {scopeRun, runImageParams},
	"/runs/{id}/badge.svg": {scopeRun, runImageParams},
	"/runs/{id}/embed":     {scopeRun, langOnly},
	"/runs":                {scopeSite, runsParams},
	"/leaderboard":         {scopeSite, leaderboardParams},
	"/hardware/{slug}":     {scopeSite, langOnly},
	"/engines/{slug}":      {scopeSite, langOnly},
	"/models/{slug}":       {scopeSite, langOnly},
	"/submitters/{slug}":   {scopeSite, langOnly},
	"/orgs/{slug}":         {scopeSite, langOnly},
	"/compare":             {scopeCompare, compareParams},
	"/compare/with/{id}":   {scopeSite, langOnly},
	"/sitemap.xml":         {scopeSite, langOnly},
	"/sitemap-{lang}.xml":  {scopeSite, langOnly},
	"/history":             {scopeSite, historyParams},
	"/plan":                {scopeSite, planParams},
	"/regressions":         {scopeSite, regressionsParams},
	"/regressions.atom":    {scopeSite, feedParams},
}

// noStore is the Cache-Control of an answer no cache may keep.
const noStore = "no-store"

// cacheable reports whether this request of a cached route may be kept:
// later pages of a list (?after=) are many and seldom read twice.
func cacheable(r *http.Request) bool {
	return queryValue(r, "after") == ""
}

// queryValue is r.URL.Query().Get(key) without parsing the query into a
// map: a warm hit asks for ?after= and ?lang=. A query that cannot hold
// key (no "key" and no %-escape that could spell it) has none; one without
// escapes ('%', '+') or ';' (which url.ParseQuery refuses) is read part by
// part as ParseQuery reads it, the first value counting; any other is
// parsed.
func queryValue(r *http.Request, key string) string {
	q := r.URL.RawQuery
	if q == "" || (!strings.Contains(q, key) && !strings.Contains(q, "%")) {
		return ""
	}
	if strings.ContainsAny(q, "%+;") {
		return r.URL.Query().Get(key)
	}
	for part := range strings.SplitSeq(q, "&") {
		if k, v, _ := strings.Cut(part, "="); k == key {
			return v
		}
	}
	return ""
}

// appendPageKey names one cached answer: everything the bytes depend on. Pages
// are built from the path and query alone (the query reduced to what the
// page reads, pageQuery), in the reader's language, with
// links on the site's origin (part of the key, so a forged Host cannot
// poison what others get). The build is not in it: a process serves one.
//
// It appends the key to b: a hit looks its page up with the key in a
// buffer on the stack and makes no string of it.
func (s *Server) appendPageKey(b []byte, r *http.Request, lang string) []byte {
	if s.BaseURL != "" {
		b = append(b, s.BaseURL...)
	} else {
		// As origin writes it, without making the string.
		if r.TLS != nil {
			b = append(b, "https://"...)
		} else {
			b = append(b, "http://"...)
		}
		b = append(b, r.Host...)
	}
	b = append(b, ' ')
	b = append(b, lang...)
	b = append(b, ' ')
	b = append(b, r.URL.Path...)
	b = append(b, '?')
	return append(b, r.URL.RawQuery...)
}

// stamp is what a cached page was built from; the page is fresh while the
// generations still give the same stamp.
type stamp struct {
	epoch, gen uint64
}

// maxRunGens bounds the per-run generations kept: past it a full reset
// (every page stale once) is cheaper than remembering more.
const maxRunGens = 100_000

// generations are the process's idea of what changed, kept in memory so a
// warm hit asks the database nothing. Every hit reads them and only a
// change writes them, so readers share the lock.
type generations struct {
	mu    sync.RWMutex
	epoch uint64            // bumped by a reset: every page is stale
	site  uint64            // bumped by any change
	runs  map[string]uint64 // bumped by a change of that run
}

func newGenerations() *generations { return &generations{runs: map[string]uint64{}} }

// apply renews the generations after a change.
func (g *generations) apply(c store.Change) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c.Reset || len(g.runs)+len(c.Runs) > maxRunGens {
		g.epoch++
		clear(g.runs)
		return
	}
	g.site++
	for _, id := range c.Runs {
		g.runs[id]++
	}
}

// stampOf is the current stamp of the page r asks for, of the run id in
// its path when it has one. Generations only grow, so a sum changes
// whenever one of its terms does.
func (g *generations) stampOf(scope pageScope, id string, r *http.Request) stamp {
	g.mu.RLock()
	defer g.mu.RUnlock()
	st := stamp{epoch: g.epoch}
	switch scope {
	case scopeRun:
		st.gen = g.runs[id]
	case scopeCompare:
		for _, id := range strings.Split(r.URL.Query().Get("runs"), ",") {
			st.gen += g.runs[strings.TrimSpace(id)]
		}
	default:
		st.gen = g.site
	}
	return st
}
