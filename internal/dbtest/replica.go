package dbtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/localpg"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Replicated is a migrated primary and a streaming replica of it, private
// to one test.
type Replicated struct {
	Primary, Replica *localpg.Cluster
	// URL is the speedmatrix database on the primary, ReadURL the same
	// database on the replica.
	URL, ReadURL string
}

// NewReplicated starts a primary cluster of its own (TEST_DATABASE_URL's
// server cannot be made to stream), migrates it, and starts a replica from
// a base backup; both stop when the test ends. It takes a few seconds.
// Without server binaries it skips, unless CI is set.
func NewReplicated(t testing.TB) *Replicated {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Not t.TempDir: its parent is private to the test's user, which a
	// server run as postgres (when the test runs as root) could not enter.
	dir, err := os.MkdirTemp("", "smrep")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })      // last: after both servers stop
	if err := os.Chmod(dir, 0o755); err != nil { // the two data folders inside are private
		t.Fatal(err)
	}
	opts := localpg.Options{Logf: t.Logf}
	primary, err := localpg.Start(ctx, filepath.Join(dir, "p"), opts)
	if err != nil {
		noDatabase(t, err)
		return nil
	}
	stopAtEnd(t, primary)
	if err := store.Migrate(ctx, primary.URL()); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	replica, err := localpg.StartReplica(ctx, filepath.Join(dir, "r"), primary, opts)
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	stopAtEnd(t, replica)
	return &Replicated{Primary: primary, Replica: replica, URL: primary.URL(), ReadURL: replica.URL()}
}

func stopAtEnd(t testing.TB, c *localpg.Cluster) {
	t.Cleanup(func() {
		if err := c.Stop(context.Background()); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
}
