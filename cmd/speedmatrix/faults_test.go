package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

// runMainEnv makes the test binary run main (TestMain).
const runMainEnv = "SPEEDMATRIX_TEST_RUN_MAIN"

// server is `speedmatrix serve` running as a process of its own.
type server struct {
	cmd  *exec.Cmd
	base string // http://127.0.0.1:port
	log  *bytes.Buffer
}

// startServer starts `speedmatrix serve` on databaseURL and waits until it
// prints its address.
func startServer(t *testing.T, databaseURL string) *server {
	t.Helper()
	cmd := exec.Command(os.Args[0], "serve")
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "DATABASE_URL="+databaseURL, "ADDR=127.0.0.1:0",
		"UPLOADS_PER_HOUR_ADDRESS=-1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, log: &bytes.Buffer{}}
	cmd.Stderr = &lockedWriter{w: s.log}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := regexp.MustCompile(`serving (http://\S+)/`).FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case s.base = <-found:
	case <-time.After(90 * time.Second):
		t.Fatalf("serve did not start within 90 s: %s", s.log)
	}
	return s
}

// lockedWriter lets the process's stderr be read while it is written.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// String is what was written, when w is a bytes.Buffer or a
// strings.Builder.
func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.(fmt.Stringer).String()
}

// uploadDoc is the 0.7.8 sample made unique by n (its timestamp's fraction).
func uploadDoc(t *testing.T, n int) []byte {
	t.Helper()
	body, err := os.ReadFile("../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	if err != nil {
		t.Fatal(err)
	}
	const stamp = `"timestamp": "2026-10-07T14:37:51.`
	at := bytes.Index(body, []byte(stamp)) + len(stamp)
	copy(body[at:at+6], fmt.Sprintf("%06d", n))
	return body
}

// postRun posts doc and returns the status and run id (0, "" when the
// connection broke).
func postRun(base string, doc []byte) (int, string) {
	resp, err := http.Post(base+"/api/v1/runs", "application/json", bytes.NewReader(doc))
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	var out struct{ ID string }
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out.ID
}

// TestKillDuringUploads kills the server with SIGKILL while 16 clients
// upload, starts it again on the same database and checks that nothing is
// half stored: every run answered 201 is there whole, no run lacks its
// source or cells, and each document sent, answered or not, is either
// stored once (200 again) or not at all (201 now).
func TestKillDuringUploads(t *testing.T) {
	_, url := dbtest.New(t)
	srv := startServer(t, url)
	const clients, perClient = 16, 1000
	var mu sync.Mutex
	created := map[int]string{} // document → id answered 201
	cut := map[int]bool{}       // documents whose answer the kill cut off
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := range perClient {
				n := c*perClient + i
				code, id := postRun(srv.base, uploadDoc(t, n))
				mu.Lock()
				if code == 0 {
					cut[n] = true // the server is gone
					mu.Unlock()
					return
				}
				if code == http.StatusCreated {
					created[n] = id
				}
				mu.Unlock()
			}
		})
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n := len(created)
		mu.Unlock()
		if n >= 40 || time.Now().After(deadline) {
			break
		}
	}
	if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	_ = srv.cmd.Wait()
	if len(created) == 0 {
		t.Fatalf("no upload succeeded before the kill: %s", srv.log)
	}
	checkWhole(t, url, len(created))
	again := startServer(t, url)
	for n, id := range created {
		if code, got := postRun(again.base, uploadDoc(t, n)); code != http.StatusOK || got != id {
			t.Errorf("document %d answered 201 as %s before the kill; now %d %s, want 200 %s", n, id, code, got, id)
		}
	}
	// A document in flight at the kill is stored whole (its commit beat
	// the kill: 200 now) or not at all (201 now).
	outcome := map[int]int{}
	for n := range cut {
		code, _ := postRun(again.base, uploadDoc(t, n))
		outcome[code]++
		if code != http.StatusOK && code != http.StatusCreated {
			t.Errorf("document %d, in flight at the kill, now answers %d", n, code)
		}
	}
	checkWhole(t, url, len(created)+outcome[http.StatusCreated])
	t.Logf("%d runs answered 201 before the kill; of %d in flight, now %v", len(created), len(cut), outcome)
}

// checkWhole fails when a run lacks its source or cells, or when fewer
// runs are stored than were answered 201.
func checkWhole(t *testing.T, url string, answered int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var runs, partial, shapes int
	err = conn.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM runs),
		(SELECT count(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM run_sources WHERE run_id = r.id)
			OR NOT EXISTS (SELECT 1 FROM decode_cells WHERE run_id = r.id)
			OR NOT EXISTS (SELECT 1 FROM prefill_rows WHERE run_id = r.id)),
		(SELECT count(DISTINCT n) FROM (SELECT count(*) AS n FROM decode_cells GROUP BY run_id) c)`).Scan(&runs, &partial, &shapes)
	if err != nil {
		t.Fatal(err)
	}
	// Runs committed whose answer the kill cut off may be more than those
	// answered; never fewer.
	if runs < answered || partial != 0 || shapes != 1 {
		t.Errorf("after SIGKILL: %d runs (%d answered 201), %d without source or cells, %d grid sizes (want 1)",
			runs, answered, partial, shapes)
	}
}

// TestTwoInstancesOnEmptyDatabase starts two servers at once on a database
// with no schema: migrate's advisory lock lets one apply the migrations
// (were both to run them, the second's CREATE TABLE would fail and that
// server would not start) and both serve, ready, on the current schema.
func TestTwoInstancesOnEmptyDatabase(t *testing.T) {
	_, url := dbtest.New(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, `DROP SCHEMA public CASCADE; CREATE SCHEMA public`)
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var servers [2]*server
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() { servers[i] = startServer(t, url) })
	}
	wg.Wait()
	if t.Failed() { // a server did not start; its goroutine said why
		return
	}
	for i, s := range servers {
		resp, err := http.Get(s.base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("server %d /readyz = %d: %s", i, resp.StatusCode, s.log)
		}
		if code, _ := postRun(s.base, uploadDoc(t, 500+i)); code != http.StatusCreated {
			t.Errorf("server %d upload = %d: %s", i, code, s.log)
		}
	}
}
