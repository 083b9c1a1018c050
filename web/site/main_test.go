package site_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

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
