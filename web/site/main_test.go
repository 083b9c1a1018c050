package site_test

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// tsv reads a table typed from the seed page (testdata/seed/*.tsv).
func tsv(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open(webtest.Path("testdata/seed/" + name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// changingStore is a store that can tell the server a run changed
// without writing anything: a page cached before is stale after it, so
// the next request is a real miss (the page rebuilt, as after an edit).
// Tests and benchmarks make their misses so; a new query string no longer
// does (the cache keeps only the parameters a page reads).
type changingStore struct {
	*store.Store
	hooks []func(store.Change)
}

// OnChange is store.Store's, and keeps f for touch.
func (c *changingStore) OnChange(f func(store.Change)) {
	c.Store.OnChange(f)
	c.hooks = append(c.hooks, f)
}

// touch tells the server that run id changed (and so the site).
func (c *changingStore) touch(id string) {
	for _, f := range c.hooks {
		f(store.Change{Runs: []string{id}, Site: true})
	}
}
