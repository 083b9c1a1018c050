// Command uploadload posts distinct copies of a result file to a running
// speedmatrix from several clients at once and counts the answers: the
// load that showed two uploads sharing new identities could deadlock.
//
//	go run ./scripts/uploadload -url http://127.0.0.1:18080 -clients 4 -uploads 400 \
//	    -file internal/demo/runs/seed-rtx3060.bench.json -new-identity-every 8
//
// Each copy differs in one number of the document (so each is a new run);
// with -new-identity-every N, every N consecutive copies also name a GPU,
// engine version and model no run had before, so concurrent uploads race
// to create the same identities. It prints the count of each status and
// exits 1 when any answer was not 201. Loopback only. With -token, every
// upload carries that upload token (`speedmatrix token create HANDLE`), so
// each names its account's proven submitter, as an upload by a client
// with a token does; without it, uploads are anonymous. Every request body
// is built before the clock starts, and the tool's own CPU per upload while
// timed is printed: it shares the machine with the server.
//
// With -baseline it also stores the same kind of documents, parsed and
// derived beforehand, by raw pgx inserts (baseline.go: the run row by INSERT
// and its cells by CopyFrom, one transaction per run, the same number of
// clients, each its own connection) into scratch tables on DATABASE_URL, the
// server's database; baseline and API alternate -rounds times, the best
// rate of each is kept, and the API's rate as a fraction of the baseline's
// is printed last (docs/performance.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"sync"
	"syscall"
	"time"
)

// load is one measurement's settings, shared by the API and the baseline.
type load struct {
	base    string
	clients int
	uploads int
	doc     []byte
	every   int
	stamp   int64
	token   string
}

// number is a number every llm-inference-bench document has, made unique per copy.
var number = regexp.MustCompile(`"aggregate_tps": [0-9.]+`)

func main() {
	base := flag.String("url", "http://127.0.0.1:18080", "the site's origin (loopback only)")
	clients := flag.Int("clients", 4, "clients posting at once")
	uploads := flag.Int("uploads", 400, "uploads per client")
	file := flag.String("file", "internal/demo/runs/seed-rtx3060.bench.json", "the document to copy")
	every := flag.Int("new-identity-every", 0, "name new identities every N copies (0: never)")
	baseline := flag.Bool("baseline", false, "also measure raw pgx inserts of the same documents (DATABASE_URL)")
	token := flag.String("token", "", "send every upload with this upload token (a proven submitter); empty: anonymous")
	rounds := flag.Int("rounds", 2, "with -baseline: alternate baseline and API this many times, keep the best of each")
	flag.Parse()
	if u, err := url.Parse(*base); err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost") {
		fail("only loopback origins")
	}
	doc, err := os.ReadFile(*file)
	if err != nil {
		fail(err.Error())
	}
	if !number.Match(doc) {
		fail("the document has no aggregate_tps to vary")
	}
	l := load{base: *base, clients: *clients, uploads: *uploads, doc: doc, every: *every, stamp: time.Now().UnixNano(),
		token: *token}
	if !*baseline {
		*rounds = 1
	}
	var raw *rawLoad
	if *baseline {
		if raw, err = openRaw(context.Background(), os.Getenv("DATABASE_URL")); err != nil {
			fail(err.Error())
		}
		defer raw.close()
	}
	var bestAPI, bestRaw float64
	ok := true
	for round := range *rounds {
		if raw != nil {
			rate, err := raw.run(l, round)
			if err != nil {
				raw.close()
				fail(err.Error())
			}
			bestRaw = max(bestRaw, rate)
		}
		rate, good := l.api(round)
		bestAPI, ok = max(bestAPI, rate), ok && good
	}
	if raw != nil {
		fmt.Printf("raw pgx baseline: %.0f runs/s; API: %.0f uploads/s; API ÷ baseline: %.2f\n",
			bestRaw, bestAPI, bestAPI/bestRaw)
	}
	if !ok {
		if raw != nil {
			raw.close()
		}
		os.Exit(1)
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "uploadload:", msg)
	os.Exit(2)
}

// copyOf is the document of upload n of a round: its own number, hence its
// own SHA-256 and dedupe key.
func (l load) copyOf(round, n int) []byte {
	n += round * l.clients * l.uploads
	return number.ReplaceAll(l.doc, fmt.Appendf(nil, `"aggregate_tps": %d.%06d`, 1000+n, l.stamp%1000000))
}

// each runs f(c, n) for every upload n of every client c, the clients at
// once, and returns the elapsed time.
func (l load) each(f func(c, n int)) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for c := range l.clients {
		wg.Go(func() {
			for i := range l.uploads {
				f(c, c*l.uploads+i)
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// api posts one round of uploads and prints what came back; it reports
// the rate and whether every answer was 201. Every request body is built
// first, as the baseline parses its documents first: the clock times the
// posts only.
func (l load) api(round int) (float64, bool) {
	bodies := make([]body, l.clients*l.uploads)
	for n := range bodies {
		bodies[n] = newBody(l.copyOf(round, n), identity(l.stamp, round, n%l.uploads, l.every))
	}
	// One idle connection kept per client: net/http's default keeps two,
	// so with more clients some posts would pay for a new connection.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: l.clients}}
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	counts := map[string]int{}
	cpu := ownCPU()
	elapsed := l.each(func(_, n int) {
		status := post(client, l.base, l.token, bodies[n])
		mu.Lock()
		counts[status]++
		mu.Unlock()
	})
	total := l.clients * l.uploads
	rate := float64(total) / elapsed.Seconds()
	cpu = ownCPU() - cpu
	fmt.Printf("%d uploads from %d clients in %.1f s (%.0f uploads/s; this client's CPU %.3f ms per upload)\n",
		total, l.clients, elapsed.Seconds(), rate, float64(cpu.Microseconds())/1000/float64(total))
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("  %s: %d\n", k, counts[k])
	}
	return rate, counts["201"] == total
}

// ownCPU is this process's user and system CPU time so far: the share of
// the two cores the load itself takes from the server while it is timed.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// identity is the metadata of a client's i-th upload: new names for every
// every uploads, shared by all clients, whose i-th uploads are in flight at
// about the same time.
func identity(stamp int64, round, i, every int) map[string]string {
	if every <= 0 {
		return nil
	}
	g := fmt.Sprintf("%d-%d-%d", stamp%100000, round, i/every)
	return map[string]string{
		"gpu_name":       "Load GPU " + g,
		"engine_version": "0.0." + g,
		"model_id":       "load/model-" + g,
	}
}
