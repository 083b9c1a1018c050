package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

// TestMain is also the server the fault tests start as a process of its
// own (faults_test.go): with runMainEnv set the test binary runs main, the
// program itself, signals and exit included.
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) != "" {
		main()
		return
	}
	dbtest.Main(m)
}

// TestServeLifecycle is `make run` on a fresh machine: no DATABASE_URL, so a
// private cluster is created under DATA_DIR, migrated and filled with the
// demo; the home page links the seed report; SIGINT (a cancelled context)
// finishes and stops the cluster cleanly.
func TestServeLifecycle(t *testing.T) {
	dataDir, err := os.MkdirTemp("", "smserve")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dataDir) })
	if err := os.Chmod(dataDir, 0o755); err != nil { // the postgres user must reach it
		t.Fatal(err)
	}
	t.Setenv("DATABASE_URL", "")
	t.Setenv("DATA_DIR", dataDir)
	t.Setenv("ADDR", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"serve"}, outW, io.Discard)
		outW.Close()
		done <- code
	}()
	var base, seedPath string
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		line := sc.Text()
		if m := regexp.MustCompile(`the seed run is (/runs/\w+)`).FindStringSubmatch(line); m != nil {
			seedPath = m[1]
		}
		if m := regexp.MustCompile(`serving (http://\S+)/`).FindStringSubmatch(line); m != nil {
			base = m[1]
			break
		}
	}
	go io.Copy(io.Discard, outR)
	if base == "" || seedPath == "" {
		t.Fatalf("serve printed no URL or seed run (base %q, seed %q)", base, seedPath)
	}
	for path, want := range map[string]string{"/readyz": "ready", "/": seedPath, seedPath: "RTX 3060 12GB"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d, want 200 containing %q", path, resp.StatusCode, want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exited %d after the signal, want 0", code)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve did not stop within 60 s of the signal")
	}
	if _, err := os.Stat(filepath.Join(dataDir, "postgres", "postmaster.pid")); !os.IsNotExist(err) {
		t.Errorf("the private cluster is still running after shutdown (postmaster.pid: %v)", err)
	}
}

// TestImport is `speedmatrix import`: each file's URL on stdout, every
// refused file named on stderr with its problem, and exit status 1.
func TestImport(t *testing.T) {
	_, url := dbtest.New(t)
	t.Setenv("DATABASE_URL", url)
	t.Setenv("BASE_URL", "https://sm.example")
	meta := filepath.Join(t.TempDir(), "meta.json")
	if err := os.WriteFile(meta, []byte(`{"gpu_name": "H100 80GB", "gpu_count": 1, "engine_version": "0.11.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"metadata": {"version": "0.7.8", "mode": "completion_stats"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	good := "../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"import", good, bad, "--meta", meta}, &stdout, &stderr)
	if code != 1 {
		t.Errorf("exit %d with a refused file, want 1", code)
	}
	if !regexp.MustCompile(`^https://sm\.example/runs/[a-z2-7]{10}\n$`).MatchString(stdout.String()) {
		t.Errorf("stdout = %q, want the one run's URL", stdout.String())
	}
	if !strings.Contains(stderr.String(), "bad.json") || !strings.Contains(stderr.String(), "$.metadata.mode") {
		t.Errorf("stderr = %q, want the refused file and its problem", stderr.String())
	}
	stdout.Reset()
	if code := run(context.Background(), []string{"import", good}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "already imported") {
		t.Errorf("re-import = %d %q, want 0 and the first run", code, stdout.String())
	}
}
