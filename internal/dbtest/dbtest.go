// Package dbtest gives tests a fresh, migrated PostgreSQL database each.
//
// A test binary calls Main from TestMain; each test calls New. The server is
// TEST_DATABASE_URL when set (an admin URL, e.g.
// postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable), else a
// private cluster started with localpg on first use. Once per test binary
// the migrations run into a template database; each New copies it, which
// takes milliseconds where migrating would take far longer. Every name has
// a random suffix because `go test ./...` runs packages in parallel against
// the same server.
//
// Without a database, tests skip; with the CI variable set they fail, so a
// broken CI database can never pass as green.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/speedmatrix/speedmatrix/internal/localpg"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// EnvURL names the variable holding the admin URL of a test server.
const EnvURL = "TEST_DATABASE_URL"

var (
	mainCalled bool
	once       sync.Once
	env        struct {
		adminURL string
		template string
		cluster  *localpg.Cluster
		tmpDir   string
		err      error // why there is no database
	}
)

// Main runs the tests of a package that uses New, then drops the template
// database and stops the private cluster, if any. Call it from TestMain:
//
//	func TestMain(m *testing.M) { dbtest.Main(m) }
//
// It returns m.Run's code by way of the testing package, which exits with it
// once TestMain returns.
func Main(m *testing.M) {
	mainCalled = true
	m.Run()
	if err := teardown(); err != nil {
		fmt.Fprintln(os.Stderr, "dbtest:", err)
	}
}

// New returns a Store on a fresh migrated database, and that database's URL
// for tests that need a connection of their own. The database is dropped
// when the test ends.
func New(t testing.TB) (*store.Store, string) {
	t.Helper()
	if !mainCalled {
		t.Fatal("dbtest.New: call dbtest.Main(m) from TestMain first (it stops the test server)")
	}
	once.Do(setup)
	if env.err != nil {
		noDatabase(t, env.err)
		return nil, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := uniqueName("speedmatrix_test")
	if err := createFromTemplate(ctx, name, env.template); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	dbURL := withDatabase(env.adminURL, name)
	s, err := store.Open(ctx, dbURL)
	if err != nil {
		_ = dropDatabase(ctx, name)
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() {
		s.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := dropDatabase(ctx, name); err != nil {
			t.Errorf("dbtest: %v", err)
		}
	})
	return s, dbURL
}

// noDatabase fails the test under CI, where a database must exist, and skips
// it elsewhere.
func noDatabase(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("dbtest: no test database (CI is set, so this fails): %v", err)
	} else {
		t.Skipf("dbtest: no test database, skipping: %v", err)
	}
}

// adminExec runs one statement on the admin database.
func adminExec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, env.adminURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// createFromTemplate copies the template. PostgreSQL refuses while another
// session is connected to the template (SQLSTATE 55006); migrate's last
// connection can take a moment to go, so that case is retried.
func createFromTemplate(ctx context.Context, name, template string) error {
	sql := fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s",
		pgx.Identifier{name}.Sanitize(), pgx.Identifier{template}.Sanitize())
	for i := 0; ; i++ {
		err := adminExec(ctx, sql)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "55006" && i < 20 {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			return fmt.Errorf("creating database %s: %w", name, err)
		}
		return nil
	}
}

// dropDatabase drops a database, closing any session still on it.
func dropDatabase(ctx context.Context, name string) error {
	err := adminExec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", pgx.Identifier{name}.Sanitize()))
	if err != nil {
		return fmt.Errorf("dropping database %s: %w", name, err)
	}
	return nil
}

// uniqueName returns prefix_<pid>_<random>: unique across test binaries
// running at once, and traceable to its process when one is left behind.
func uniqueName(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s_%d_%s", prefix, os.Getpid(), hex.EncodeToString(b))
}

// withDatabase returns the URL with its database replaced.
func withDatabase(adminURL, name string) string {
	u, err := url.Parse(adminURL)
	if err != nil {
		return adminURL // validated in setup
	}
	u.Path = "/" + name
	return u.String()
}
