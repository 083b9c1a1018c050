package site_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// loadClients is how many clients the load test runs at once.
const loadClients = 200

// loadSeconds is how long the load lasts: 5 s in make test, LOAD_SECONDS
// (30 for the figures in docs/reliability.md) when set.
func loadSeconds(t *testing.T) time.Duration {
	if v := os.Getenv("LOAD_SECONDS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("LOAD_SECONDS=%q: want whole seconds", v)
		}
		return time.Duration(n) * time.Second
	}
	return 5 * time.Second
}

// loadKinds are the requests the clients mix, in turn; every third
// upload of a client sends its last stored document again.
var loadKinds = []string{"upload", "report", "upload", "uploaded run", "leaderboard", "upload", "api list"}

// loadStats is what the clients saw, per kind.
type loadStats struct {
	mu        sync.Mutex
	latencies map[string][]time.Duration
	codes     map[string]map[int]int
	failures  []string
	created   map[string]bool // ids answered 201
}

func (ls *loadStats) add(kind string, d time.Duration, code int, fail string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.latencies[kind] = append(ls.latencies[kind], d)
	if ls.codes[kind] == nil {
		ls.codes[kind] = map[int]int{}
	}
	ls.codes[kind][code]++
	if fail != "" && len(ls.failures) < 20 {
		ls.failures = append(ls.failures, fail)
	}
}

// TestLoad runs 200 clients against one server for 5 s (LOAD_SECONDS to
// change it): uploads of new runs, a third of them uploaded again, the
// seed report, the leaderboard, the API's list and a just-uploaded run.
// Every answer must be the right one (201 then 200 with the same id for a
// repeat, 200 for reads): no 5xx, no transport error; afterwards the
// database holds exactly the runs answered 201, each once.
func TestLoad(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	if _, err := demo.LoadSynthetic(context.Background(), s.Store, 1, 60, 0, nil); err != nil {
		t.Fatal(err)
	}
	before := countRuns(t, s)
	body := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	const stamp = `"timestamp": "2026-10-07T14:37:51.`
	at := bytes.Index(body, []byte(stamp)) + len(stamp)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadClients}, Timeout: time.Minute}
	t.Cleanup(client.CloseIdleConnections)
	ls := &loadStats{latencies: map[string][]time.Duration{}, codes: map[string]map[int]int{}, created: map[string]bool{}}
	deadline := time.Now().Add(loadSeconds(t))
	var wg sync.WaitGroup
	for c := range loadClients {
		wg.Go(func() { loadClient(s, client, ls, c, seed, body, at, deadline) })
	}
	wg.Wait()
	for _, f := range ls.failures {
		t.Error(f)
	}
	reportLoad(t, ls)
	if after := countRuns(t, s); after != before+len(ls.created) {
		t.Errorf("%d runs stored, want %d before + %d answered 201", after, before, len(ls.created))
	}
	ids := slices.Collect(maps.Keys(ls.created))
	conn, err := pgx.Connect(context.Background(), s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var whole int // runs answered 201 that are stored with their source and cells
	err = conn.QueryRow(context.Background(), `SELECT count(*) FROM runs r WHERE r.id = ANY($1)
		AND EXISTS (SELECT 1 FROM run_sources WHERE run_id = r.id)
		AND EXISTS (SELECT 1 FROM decode_cells WHERE run_id = r.id)`, ids).Scan(&whole)
	if err != nil || whole != len(ids) {
		t.Errorf("%d of the %d runs answered 201 are stored whole (%v)", whole, len(ids), err)
	}
}

// loadClient is one client: it goes round loadKinds until the deadline,
// and at least once whole, so that on a slow machine every client still
// makes three uploads, one of them a repeat.
// Its uploads are its own documents (client and count in the timestamp's
// fraction), so it knows which answer each deserves.
func loadClient(s *webtest.Site, client *http.Client, ls *loadStats, c int, seed string, sample []byte, at int, deadline time.Time) {
	body := slices.Clone(sample)
	var mine []string    // ids of this client's runs, oldest first
	var last, doc []byte // the last document stored, the one being sent
	uploads := 0
	for i := 0; i < len(loadKinds) || time.Now().Before(deadline); i++ {
		kind := loadKinds[(i+c)%len(loadKinds)]
		if kind == "upload" {
			if uploads++; uploads%3 == 2 {
				kind = "upload again"
			}
		}
		var req *http.Request
		switch kind {
		case "upload":
			copy(body[at:at+6], fmt.Sprintf("%03d%03d", c, len(mine)%1000))
			doc = slices.Clone(body)
			req = post(s, doc)
		case "upload again":
			if last == nil {
				continue
			}
			req = post(s, last)
		case "report":
			req, _ = http.NewRequest("GET", s.URL+"/runs/"+seed, nil)
		case "leaderboard":
			req, _ = http.NewRequest("GET", s.URL+"/leaderboard", nil)
		case "api list":
			req, _ = http.NewRequest("GET", s.URL+"/api/v1/runs?limit=20", nil)
		case "uploaded run":
			if len(mine) == 0 {
				continue
			}
			req, _ = http.NewRequest("GET", s.URL+"/runs/"+mine[len(mine)-1]+".json", nil)
		}
		start := time.Now()
		code, id, err := loadDo(client, req)
		d := time.Since(start)
		fail := ""
		switch {
		case err != nil:
			fail = fmt.Sprintf("client %d %s: %v", c, kind, err)
		case kind == "upload" && code != http.StatusCreated:
			fail = fmt.Sprintf("client %d upload = %d, want 201", c, code)
		case kind == "upload again" && (code != http.StatusOK || id != mine[len(mine)-1]):
			fail = fmt.Sprintf("client %d repeat = %d %q, want 200 %q", c, code, id, mine[len(mine)-1])
		case kind != "upload" && kind != "upload again" && code != http.StatusOK:
			fail = fmt.Sprintf("client %d %s = %d", c, kind, code)
		}
		if kind == "upload" && code == http.StatusCreated {
			ls.mu.Lock()
			if ls.created[id] {
				fail = fmt.Sprintf("client %d: id %s answered 201 twice", c, id)
			}
			ls.created[id] = true
			ls.mu.Unlock()
			mine, last = append(mine, id), doc
		}
		ls.add(kind, d, code, fail)
	}
}

func post(s *webtest.Site, doc []byte) *http.Request {
	req, _ := http.NewRequest("POST", s.URL+"/api/v1/runs", bytes.NewReader(doc))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// loadDo sends req and returns the status and, for an upload, the run id.
func loadDo(client *http.Client, req *http.Request) (int, string, error) {
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || req.Method != "POST" {
		return resp.StatusCode, "", err
	}
	var out struct{ ID string }
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out.ID, nil
}

// reportLoad logs count, answers and p50/p99 per kind, the figures
// docs/reliability.md records, and fails on any 5xx.
func reportLoad(t *testing.T, ls *loadStats) {
	total := 0
	for _, kind := range []string{"upload", "upload again", "report", "leaderboard", "api list", "uploaded run"} {
		l := ls.latencies[kind]
		slices.Sort(l)
		total += len(l)
		if len(l) == 0 {
			t.Errorf("no %s request was made", kind)
			continue
		}
		for code, n := range ls.codes[kind] {
			if code >= 500 {
				t.Errorf("%s: %d answers of %d", kind, n, code)
			}
		}
		t.Logf("%-13s %6d requests %v  p50 %v  p99 %v  max %v", kind, len(l), ls.codes[kind],
			l[len(l)/2].Round(time.Millisecond), l[len(l)*99/100].Round(time.Millisecond), l[len(l)-1].Round(time.Millisecond))
	}
	up, again := len(ls.latencies["upload"]), len(ls.latencies["upload again"])
	t.Logf("%d clients, %d requests, %d runs created, %d of %d uploads repeats", loadClients, total, len(ls.created), again, up+again)
	if again*4 < up+again {
		t.Errorf("only %d of %d uploads were repeats, want about a third", again, up+again)
	}
}

// countRuns counts every stored run, hidden ones included.
func countRuns(t *testing.T, s *webtest.Site) int {
	t.Helper()
	n, err := s.Store.CountRuns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}
