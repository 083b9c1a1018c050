package store

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
)

// TestEverySQLFileIsSent: in each package of the store, each file of its
// sql/ folder is loaded by a sqlFile call of its code (a file nothing
// loads is a statement nobody runs), and no file of the store's code, in
// any of its packages, builds SQL with a regular expression.
func TestEverySQLFileIsSent(t *testing.T) {
	dirs := []string{"."}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "sql" {
			dirs = append(dirs, e.Name())
		}
	}
	loads := regexp.MustCompile(`sqlFile\("([a-z_]+)"\)`)
	var statements int
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "sql", "*.sql"))
		if err != nil {
			t.Fatal(err)
		}
		statements += len(files)
		sources, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		loaded := map[string]bool{}
		for _, name := range sources {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range loads.FindAllStringSubmatch(string(src), -1) {
				loaded[m[1]] = true
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				if path, _ := strconv.Unquote(imp.Path.Value); path == "regexp" {
					t.Errorf("%s imports regexp", name)
				}
			}
		}
		for _, file := range files {
			if name := strings.TrimSuffix(filepath.Base(file), ".sql"); !loaded[name] {
				t.Errorf("%s is loaded by no sqlFile call of %s", file, dir)
			}
		}
	}
	if statements == 0 {
		t.Fatal("no sql/*.sql file in any package of the store")
	}
}

// TestUploadLocksInOrder: the statements of an upload, as queued in its
// batch, write the tables in the lock order package bests gives, each a
// statement of its own, bestLock taken between the identities and the
// bests; a batch (InsertRuns) and a bulk load (bests.FreshIndex) write the
// same tables in the same order.
func TestUploadLocksInOrder(t *testing.T) {
	v := 10.0
	r := &run.Run{Engine: run.Engine{Name: "vLLM", Version: "0.8.0"}, Model: run.Model{ID: "Qwen/Qwen3-8B"},
		Submitter: "someone", SubmitterVerified: true,
		Decode:  []run.DecodeCell{{Status: run.Valid, Metrics: run.Metrics{TotalTPS: &v}}},
		Prefill: []run.PrefillRow{{Status: run.Valid}}}
	b := &pgx.Batch{}
	queueUpload(b, "a", []byte("s"), r, time.Now(), nil)
	want := []string{"run_sources", "decode_cells", "prefill_rows", "identities", "bestLock",
		"best_cells", "version_best_cells", "submitter_best_cells",
		"browse_groups", "history_versions", "browse_count_deltas", "unpowered_run_deltas", "history_cells"}
	if got := writes(b); !slices.Equal(got, want) {
		t.Errorf("an upload writes\n%q\nwant\n%q", got, want)
	}
	x := bests.NewFreshIndex()
	x.Add("a", r, time.Now())
	b = &pgx.Batch{}
	x.Queue(b)
	if got := writes(b); !slices.Equal(got, want[5:]) {
		t.Errorf("a batch writes\n%q\nwant\n%q", got, want[5:])
	}
}

// writes is the table each statement of b writes first, or bestLock for
// the statement that takes it.
func writes(b *pgx.Batch) []string {
	into := regexp.MustCompile(`(?m)^\s*INSERT INTO (\w+)`)
	lock := &pgx.Batch{}
	bests.QueueBestLockShared(lock)
	bestLock := lock.QueuedQueries[0]
	var out []string
	for _, q := range b.QueuedQueries {
		if q.SQL == bestLock.SQL && q.Arguments[0] == bestLock.Arguments[0] {
			out = append(out, "bestLock")
			continue
		}
		if m := into.FindStringSubmatch(q.SQL); m != nil {
			out = append(out, m[1])
		} else {
			out = append(out, q.SQL)
		}
	}
	return out
}
