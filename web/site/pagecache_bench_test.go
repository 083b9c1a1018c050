package site_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// discard is a ResponseWriter that keeps nothing, so the benchmarks time
// the handler alone, not a network or a recorder's buffer.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// benchHandler is the site's handler over a database holding the seed
// run, and the store that tells it the run changed (a miss next).
func benchHandler(b testing.TB) (http.Handler, string, *changingStore) {
	s := webtest.NewSite(b)
	id := s.Seed(b)
	bundle, _ := i18n.Default()
	st := &changingStore{Store: s.Store}
	return site.New(site.Config{Store: st, Bundle: bundle, Version: "bench", Logger: slog.New(slog.DiscardHandler)}), id, st
}

// BenchmarkCachedReportWarm is a warm hit of the seed report, gzip
// accepted, through every middleware: what each of wrk's requests costs
// the server beyond the network.
func BenchmarkCachedReportWarm(b *testing.B) {
	h, id, _ := benchHandler(b)
	benchWarm(b, h, "/runs/"+id)
}

// BenchmarkCachedReportWarmQuery is a warm hit of the seed report's
// badge as the report links it (?lang=&v=, the parameters its page
// reads, in their order): the query is kept as it is, no copy made.
func BenchmarkCachedReportWarmQuery(b *testing.B) {
	h, id, _ := benchHandler(b)
	benchWarm(b, h, "/runs/"+id+"/badge.svg?lang=en&v=1", "Cookie: lang=en")
}

// BenchmarkCachedReportWarmJunk is a warm hit of the seed report asked
// with a parameter no page reads, which the hit drops (a copy of the query).
func BenchmarkCachedReportWarmJunk(b *testing.B) {
	h, id, _ := benchHandler(b)
	benchWarm(b, h, "/runs/"+id+"?x=1")
}

// benchWarm times warm hits of path, gzip accepted, through every
// middleware: what each of wrk's requests costs the server beyond the
// network.
func benchWarm(b *testing.B, h http.Handler, path string, headers ...string) {
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ": ")
		req.Header.Set(k, v)
	}
	raw := req.URL.RawQuery
	h.ServeHTTP(&discard{h: http.Header{}}, req)
	b.ReportAllocs()
	for b.Loop() {
		req.URL.RawQuery = raw // a hit reduces it in place
		h.ServeHTTP(&discard{h: http.Header{}}, req)
	}
}

// BenchmarkCachedReportCold is a miss of the seed report each time (its
// run changed, as after an edit): load, build, render, gzip, keep.
func BenchmarkCachedReportCold(b *testing.B) {
	h, id, st := benchHandler(b)
	b.ReportAllocs()
	for b.Loop() {
		st.touch(id)
		req := httptest.NewRequest("GET", "/runs/"+id, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		h.ServeHTTP(&discard{h: http.Header{}}, req)
	}
}

// warmPerCold is how many warm hits BenchmarkCachedReportRatio times per
// miss, so both sides get enough of each iteration's time.
const warmPerCold = 20

// BenchmarkCachedReportRatio interleaves warm hits and misses of the seed
// report in one run, so other work on the machine weighs on both alike,
// and reports their cost side by side: warm-ns and cold-ns per request
// and cold/warm, the miss's throughput as a share of a hit's (the figure
// scripts/perf.sh measures over the network, where a hit also pays for
// the connection, so its ratio there is higher).
func BenchmarkCachedReportRatio(b *testing.B) {
	h, id, st := benchHandler(b)
	warm := httptest.NewRequest("GET", "/runs/"+id, nil)
	warm.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(&discard{h: http.Header{}}, warm)
	var warmTime, coldTime time.Duration
	n := 0
	for b.Loop() {
		n++
		start := time.Now()
		for range warmPerCold {
			h.ServeHTTP(&discard{h: http.Header{}}, warm)
		}
		st.touch(id) // the next request is a miss, the one after a hit again
		mid := time.Now()
		cold := httptest.NewRequest("GET", "/runs/"+id, nil)
		cold.Header.Set("Accept-Encoding", "gzip")
		h.ServeHTTP(&discard{h: http.Header{}}, cold)
		warmTime += mid.Sub(start)
		coldTime += time.Since(mid)
	}
	warmNs := float64(warmTime.Nanoseconds()) / float64(n*warmPerCold)
	coldNs := float64(coldTime.Nanoseconds()) / float64(n)
	b.ReportMetric(warmNs, "warm-ns")
	b.ReportMetric(coldNs, "cold-ns")
	b.ReportMetric(warmNs/coldNs, "cold/warm")
}

// BenchmarkWarmReportVsBare serves the seed report's warm hit through the
// site's handler (every middleware, the access log formatted as the binary
// formats it) and, beside it, a bare net/http handler writing the same
// headers and bytes from memory, each on a net/http server of its own over
// real TCP, barePerSite kept-alive connections per side, the sides in turn
// so other work on the machine weighs on both alike. It reports each
// side's wall and CPU time per request (the process's CPU, client
// included: the client's share is the same on both sides) and the site's
// throughput as a share of the bare handler's, by wall time (site/bare)
// and by CPU (cpu-site/bare: on a machine other work keeps busy the wall
// time moves with it, the CPU much less; with every core busy, the CPU a
// request takes is what bounds the requests a second). The goal is at
// least 0.9. The client is a few lines of raw HTTP/1.1, so that its own
// cost, which both sides share, dilutes the ratio as little as it can.
func BenchmarkWarmReportVsBare(b *testing.B) {
	s := webtest.NewSite(b)
	id := s.Seed(b)
	bundle, _ := i18n.Default()
	site := site.New(site.Config{Store: s.Store, Bundle: bundle, Version: "bench",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	siteAddr := serveTCP(b, "site", site)
	path := "/runs/" + id
	header, body := rawGet(b, siteAddr, path)
	bare := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		_, _ = w.Write(body)
	})
	bareAddr := serveTCP(b, "bare", bare)
	if h2, body2 := rawGet(b, bareAddr, path); !bytes.Equal(body, body2) || len(h2) != len(header) {
		b.Fatalf("the bare handler answers otherwise:\n%v\n%v", header, h2)
	}
	var siteTime, bareTime loadTime
	n := 0
	for b.Loop() {
		n++
		siteTime.add(rawLoad(b, siteAddr, path))
		bareTime.add(rawLoad(b, bareAddr, path))
	}
	per := float64(n * barePerSite * bareRequests)
	b.ReportMetric(float64(siteTime.wall.Nanoseconds())/per, "site-ns/req")
	b.ReportMetric(float64(bareTime.wall.Nanoseconds())/per, "bare-ns/req")
	b.ReportMetric(float64(siteTime.cpu.Nanoseconds())/per, "site-cpu-ns/req")
	b.ReportMetric(float64(bareTime.cpu.Nanoseconds())/per, "bare-cpu-ns/req")
	b.ReportMetric(float64(bareTime.wall)/float64(siteTime.wall), "site/bare")
	b.ReportMetric(float64(bareTime.cpu)/float64(siteTime.cpu), "cpu-site/bare")
}

// loadTime is what loads took: wall time, and the process's CPU time.
type loadTime struct{ wall, cpu time.Duration }

func (t *loadTime) add(u loadTime) { t.wall += u.wall; t.cpu += u.cpu }

// processCPU is the CPU time (user and system) the process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// barePerSite is how many connections each side's load keeps open, and
// bareRequests how many requests each sends in one round.
const (
	barePerSite  = 8
	bareRequests = 250
)

// serveTCP serves h on a fresh loopback listener as the binary does (a
// net/http server), and returns its address. A CPU profile tells the
// servers apart by the label "server" (go tool pprof -tagfocus
// server=site), which the connections' goroutines inherit.
func serveTCP(b *testing.B, name string, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	go pprof.Do(context.Background(), pprof.Labels("server", name), func(context.Context) { srv.Serve(ln) })
	b.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// rawRequest is the warm GET every connection of rawLoad sends.
func rawRequest(addr, path string) []byte {
	return []byte("GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nAccept-Encoding: gzip\r\nUser-Agent: bench\r\n\r\n")
}

// rawGet asks addr for path once, and returns the answer's header (but
// its Date) and body.
func rawGet(b *testing.B, addr, path string) (http.Header, []byte) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	c.Write(rawRequest(addr, path))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		b.Fatalf("GET %s: %d %v", path, resp.StatusCode, resp.Header)
	}
	resp.Header.Del("Date")
	return resp.Header, body
}

// rawLoad sends bareRequests requests of path down each of barePerSite
// kept-alive connections at once, and returns how long they took.
func rawLoad(b *testing.B, addr, path string) loadTime {
	req := rawRequest(addr, path)
	conns := make([]net.Conn, barePerSite)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	runtime.GC() // the other side's garbage is not this side's to collect
	start, cpu := time.Now(), processCPU(b)
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() {
			br := bufio.NewReaderSize(c, 64<<10)
			for range bareRequests {
				if _, err := c.Write(req); err != nil {
					b.Error(err)
					return
				}
				if err := skipResponse(br); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return loadTime{wall: time.Since(start), cpu: processCPU(b) - cpu}
}

// skipResponse reads one answer (a 200 framed by its Content-Length) off br.
func skipResponse(br *bufio.Reader) error {
	length := -1
	for first := true; ; first = false {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if first && !bytes.HasPrefix(line, []byte("HTTP/1.1 200 ")) {
			return fmt.Errorf("answer %q", line)
		}
		if len(line) <= 2 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("Content-Length: ")); ok {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if length < 0 {
		return fmt.Errorf("no Content-Length")
	}
	_, err := br.Discard(length)
	return err
}
