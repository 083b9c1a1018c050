package dbtest_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

func TestNewGivesSeparateMigratedDatabases(t *testing.T) {
	ctx := context.Background()
	var first string
	t.Run("first", func(t *testing.T) {
		s, u := dbtest.New(t)
		first = u
		if err := s.SchemaCurrent(ctx); err != nil {
			t.Fatalf("fresh database not migrated: %v", err)
		}
		exec(t, u, "INSERT INTO runs (id, dedupe_key, provenance) VALUES ('a', 'a', 'measured')")
	})
	if first == "" {
		t.Skip("no database")
	}
	s, second := dbtest.New(t)
	if second == first {
		t.Fatalf("two New calls returned the same database %s", first)
	}
	if n, err := s.CountRuns(ctx); err != nil || n != 0 {
		t.Errorf("second database holds %d runs (%v); want 0: databases leak into each other", n, err)
	}
	// The first test's cleanup has run: its database must be gone.
	u, _ := url.Parse(first)
	name := strings.TrimPrefix(u.Path, "/")
	var exists bool
	conn, err := pgx.Connect(ctx, dbtest.AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Errorf("database %s still exists after its test ended", name)
	}
}

func TestNoDatabase(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Run(fmt.Sprintf("CI=%q", ci), func(t *testing.T) {
			t.Setenv("CI", ci)
			tb := &recorder{TB: t}
			dbtest.NoDatabase(tb, errors.New("nothing listens on 5432"))
			got, want := tb.skipped, ci == ""
			if got != want || tb.failed == want {
				t.Errorf("skipped=%v failed=%v; want skipped=%v failed=%v", tb.skipped, tb.failed, want, !want)
			}
			if !strings.Contains(tb.msg, "nothing listens on 5432") {
				t.Errorf("message %q does not say what was tried", tb.msg)
			}
		})
	}
}

// recorder notes Skipf and Fatalf instead of stopping the test.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}

func exec(t *testing.T, url, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatal(err)
	}
}
