package store

import (
	"go/parser"
	"go/token"
	"io/fs"
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
)

// TestEverySQLFileIsSent: each file of sql/ is loaded by a sqlFile call
// of the store's code (a file nothing loads is a statement nobody runs),
// and no file of the store's code builds SQL with a regular expression.
func TestEverySQLFileIsSent(t *testing.T) {
	files, err := fs.Glob(queryFiles, "sql/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("%v files (%v)", files, err)
	}
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	loads := regexp.MustCompile(`sqlFile\("([a-z_]+)"\)`)
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
			t.Errorf("%s is loaded by no sqlFile call", file)
		}
	}
}

// TestSQLFilesSpellHistoryRankable: the statements that count or offer a
// run to a history pick its runs by historyRankable, word for word, as
// freshHistoryRankable mirrors it.
func TestSQLFilesSpellHistoryRankable(t *testing.T) {
	for _, name := range []string{"count_run_versions", "count_run_deltas", "offer_run_history"} {
		if !strings.Contains(sqlFile(name), historyRankable) {
			t.Errorf("sql/%s.sql does not say %s", name, historyRankable)
		}
	}
}

// TestUploadLocksInOrder: the statements of an upload, as queued in its
// batch, write the tables in the lock order queueUpload gives, each a
// statement of its own, bestLock taken between the identities and the
// bests; a batch (InsertRuns) and a bulk load (freshIndex) write the same
// tables in the same order.
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
		"browse_groups", "history_versions", "browse_count_deltas", "history_cells"}
	if got := writes(b); !slices.Equal(got, want) {
		t.Errorf("an upload writes\n%q\nwant\n%q", got, want)
	}
	x := newFreshIndex()
	x.add("a", r, time.Now())
	b = &pgx.Batch{}
	x.queue(b)
	if got := writes(b); !slices.Equal(got, want[5:]) {
		t.Errorf("a batch writes\n%q\nwant\n%q", got, want[5:])
	}
}

// writes is the table each statement of b writes first, or bestLock for
// the statement that takes it.
func writes(b *pgx.Batch) []string {
	into := regexp.MustCompile(`(?m)^\s*INSERT INTO (\w+)`)
	var out []string
	for _, q := range b.QueuedQueries {
		if q.SQL == lockBestSharedSQL && q.Arguments[0] == bestLock {
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
