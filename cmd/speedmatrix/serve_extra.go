package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime/debug"
	"time"

	"github.com/speedmatrix/speedmatrix/web/site"
)

// defaultMemoryLimit is the Go heap's soft limit when GOMEMLIMIT is unset:
// the page cache (a quarter of it, cacheBytesFor) and the requests in
// flight fit under it; the binary's code and the stacks come on top, about
// 30 MiB, which keeps the process's RSS under 100 MiB with the cache full.
const defaultMemoryLimit = 64 << 20

// gcPercent is the collector's GOGC when GOGC is unset. With the default
// of 100 the collector ran whenever the heap doubled a live heap of about
// 8 MiB (the page cache nearly empty): every 20 uploads or so, 50 cycles
// of ~6 ms of CPU per 1,000 uploads (GODEBUG=gctrace=1). The memory limit
// bounds the heap anyway, so it need not also stay at twice what is live:
// at 400 the collector runs a fifth as often until the heap nears the
// limit, and from there (the cache full) the limit paces it.
const gcPercent = 400

// setMemoryLimit applies defaultMemoryLimit and gcPercent unless GOMEMLIMIT
// and GOGC say otherwise (the runtime reads those itself), and returns the
// limit in force.
func setMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	return debug.SetMemoryLimit(-1) // -1 reads it
}

// cacheBytesFor is the page cache's bound when PAGE_CACHE_MB is unset: a
// quarter of the Go memory limit, site.DefaultCacheBytes when there is none.
// Once the cache is full the limit paces the collector, which needs room
// under it for what misses allocate. With the cache at half of it (32 of
// 64 MiB), the heap sat a few megabytes under its goal: the collector ran
// every few misses and took 38 % of a miss's CPU. At a quarter it runs a
// fifth as often (0.007 collections a miss against 0.037). A page cache's
// bytes are not scanned, so its size does not make a collection dearer,
// only more frequent.
func cacheBytesFor(limit int64) int {
	if limit <= 0 || limit >= math.MaxInt64/2 {
		return site.DefaultCacheBytes
	}
	return int(limit / 4)
}

// listenForChanges hears the changes every instance announces, so this
// one's page cache renews what they affect; the returned function stops it
// and waits.
func listenForChanges(ctx context.Context, db *database, m *site.Metrics) (stop func()) {
	m.WatchPool(db.Store.PoolStat)
	m.WatchReads(db.Store.ReadStats)
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.Store.Listen(ctx, m.Notified)
	}()
	return func() { cancel(); <-done }
}

// serveMetrics serves /metrics on addr, a listener of its own, when addr
// is set, and Go's profiler under /debug/pprof/ beside it: the operator's
// listener is where a profile of the live server is taken (a CPU profile
// under load shows what a page costs), never the site's. The returned
// function stops it.
func serveMetrics(addr string, m *site.Metrics, out io.Writer) (stop func(), err error) {
	if addr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("METRICS_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	mux.HandleFunc("GET /debug/pprof/", pprof.Index) // heap, goroutine, allocs, … by name
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintf(out, "speedmatrix: metrics on http://%s/metrics\n", ln.Addr())
	return func() { _ = srv.Close() }, nil
}
