package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// workers is how many addresses are asked at once (of each server): the
// machine is shared, and the order of the answers does not matter.
const workers = 3

// crawlPages asks both servers for the seeds, then for the addresses their
// answers link to, level by level, until n addresses were asked.
func crawlPages(c *config, n int, runsFile string) error {
	var runs []string
	if runsFile != "" {
		b, err := os.ReadFile(runsFile)
		if err != nil {
			return err
		}
		runs = strings.Fields(string(b))
	}
	rec, err := newRecorder(c.out, "pages")
	if err != nil {
		return err
	}
	cl := newClient(nil)
	seen := map[string]bool{}
	level := fresh(seeds(runs), seen, n)
	asked := map[string]int{} // by pattern, the seeds' too
	for _, a := range level {
		asked[pattern(a)]++
	}
	done := 0
	for len(level) > 0 {
		pairs := askAll(c, cl, level, done)
		found := map[string]bool{}
		for _, p := range pairs {
			if err := rec.add(p); err != nil {
				return err
			}
			for _, a := range []answer{p.Old, p.New} {
				for _, l := range links(c.host, p.Name, a.Header["Content-Type"], a.raw) {
					found[l] = true
				}
				if loc, ok := local(pageURL(c.host, p.Name), a.Header["Location"]); ok {
					found[loc] = true
				}
			}
		}
		done += len(pairs)
		fmt.Fprintf(os.Stderr, "crawl: %d addresses asked, %d links found\n", done, len(found))
		level = fairShare(slices.Sorted(maps.Keys(found)), seen, asked, n-done, max(n/perPatternShare, 1))
	}
	if err := askForeignHost(c, cl, rec, runs, done); err != nil {
		return err
	}
	return rec.summary(os.Stdout)
}

// askForeignHost asks foreignHostPages (and the first run's report and
// JSON) under foreignHost, after the crawl; first numbers them.
func askForeignHost(c *config, cl *http.Client, rec *recorder, runs []string, first int) error {
	pages := foreignHostPages
	if len(runs) > 0 {
		pages = append(slices.Clone(pages), "/runs/"+runs[0], "/runs/"+runs[0]+".json")
	}
	foreign := *c
	foreign.host = foreignHost
	for i, p := range askAll(&foreign, cl, pages, first) {
		p.Name = "Host: " + foreignHost + " " + pages[i]
		p.Pattern = "Host: " + foreignHost + " " + p.Pattern
		if err := rec.add(p); err != nil {
			return err
		}
	}
	return nil
}

// fresh is the addresses not seen yet, in their order, at most n; they
// are marked seen.
func fresh(addrs []string, seen map[string]bool, n int) []string {
	var out []string
	for _, a := range addrs {
		if len(out) == n {
			break
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// perPatternShare: one route pattern takes at most 1/perPatternShare of
// a crawl's addresses, so that the links every report has to each of its
// cells leave room for other runs, and the crawl goes a level deeper.
const perPatternShare = 25

// fairShare picks at most n of the new addresses, one of each route
// pattern in turn, so that a level of a thousand reports leaves room for
// the pages linked once, and no more of a pattern than makes its count in
// asked reach most. The result is sorted.
func fairShare(addrs []string, seen map[string]bool, asked map[string]int, n, most int) []string {
	byPattern := map[string][]string{}
	for _, a := range addrs {
		if p := pattern(a); !seen[a] && asked[p] < most {
			byPattern[p] = append(byPattern[p], a)
		}
	}
	for p, list := range byPattern {
		byPattern[p] = list[:min(len(list), most-asked[p])]
	}
	patterns := slices.Sorted(maps.Keys(byPattern))
	var out []string
	for len(out) < n {
		took := false
		for _, p := range patterns {
			if list := byPattern[p]; len(list) > 0 && len(out) < n {
				out = append(out, list[0])
				byPattern[p] = list[1:]
				took = true
			}
		}
		if !took {
			break
		}
	}
	for _, a := range out {
		seen[a] = true
		asked[pattern(a)]++
	}
	slices.Sort(out)
	return out
}

// askAll asks both servers for every address, workers at a time, and
// returns the pairs in the addresses' order, numbered from first.
func askAll(c *config, cl *http.Client, addrs []string, first int) []*pair {
	pairs := make([]*pair, len(addrs))
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for i, a := range addrs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			pairs[i] = ask(c, cl, a, first+i+1)
		})
	}
	wg.Wait()
	return pairs
}

// ask is one address of both servers, at the same time; a sampled address
// is also asked with gzip, with brotli, in German, with If-None-Match and
// with HEAD.
func ask(c *config, cl *http.Client, addr string, n int) *pair {
	p := &pair{N: n, Name: addr, Pattern: pattern(addr)}
	rq := request{method: http.MethodGet, path: addr}
	var wg sync.WaitGroup
	wg.Go(func() { p.Old = do(cl, c.old, c.host, rq) })
	wg.Go(func() { p.New = do(cl, c.new, c.host, rq) })
	wg.Wait()
	if sampled(addr) {
		wg.Go(func() { p.Old.Extra = extra(cl, c.old, c.host, addr, p.Old) })
		wg.Go(func() { p.New.Extra = extra(cl, c.new, c.host, addr, p.New) })
		wg.Wait()
	}
	return p
}

// sampled is one address in eight, chosen by its text.
func sampled(addr string) bool {
	h := fnv.New32a()
	h.Write([]byte(addr))
	return h.Sum32()%8 == 0
}

// extra asks s for addr again with gzip, then brotli accepted, in German
// by Accept-Language (the body's hash, compared with the other server's),
// with the ETag of plain, and with HEAD, and says how each compared with
// plain.
func extra(cl *http.Client, s side, host, addr string, plain answer) string {
	var out []string
	for _, enc := range []string{"gzip", "br"} {
		a := do(cl, s, host, request{method: http.MethodGet, path: addr, header: http.Header{"Accept-Encoding": {enc}}})
		same := "same body"
		if body, err := decode(a.Header["Content-Encoding"], a.raw); err != nil {
			same = err.Error()
		} else if !bytes.Equal(normalise(s, body), plain.body) {
			same = "other body"
		}
		out = append(out, fmt.Sprintf("%s %d %s %s vary=%q", enc, a.Status, orNone(a.Header["Content-Encoding"]), same, a.Header["Vary"]))
	}
	de := do(cl, s, host, request{method: http.MethodGet, path: addr, header: http.Header{"Accept-Language": {"de-DE,de;q=0.9"}}})
	out = append(out, fmt.Sprintf("accept-language de %d %s %s", de.Status, de.Header["Content-Language"], de.Hash))
	if plain.Header["Etag"] != "" {
		rq := request{method: http.MethodGet, path: addr, header: http.Header{"If-None-Match": {plain.etag}}}
		inm := do(cl, s, host, rq)
		out = append(out, fmt.Sprintf("if-none-match %d %dB", inm.Status, inm.Len))
	}
	head := do(cl, s, host, request{method: http.MethodHead, path: addr})
	length := "length " + orNone(head.Header["Content-Length"])
	if head.Header["Content-Length"] == fmt.Sprint(plain.Len) {
		length = "length as GET"
	}
	out = append(out, fmt.Sprintf("head %d %dB %s", head.Status, head.Len, length))
	return strings.Join(out, "; ")
}

// decode undoes a Content-Encoding.
func decode(encoding string, b []byte) ([]byte, error) {
	var r io.Reader
	switch encoding {
	case "":
		return b, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	default:
		return nil, fmt.Errorf("unknown encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", encoding, err)
	}
	return out, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
