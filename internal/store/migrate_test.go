package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/source/iofs"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
	"github.com/speedmatrix/speedmatrix/migrations"
)

func TestMigrateTwice(t *testing.T) {
	s, url := dbtest.New(t) // migrated once already, through the template
	ctx := context.Background()
	for range 2 {
		if err := store.Migrate(ctx, url); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SchemaCurrent(ctx); err != nil {
		t.Errorf("SchemaCurrent: %v", err)
	}
}

// TestDownUp runs every down migration, then Migrate from nothing.
func TestDownUp(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, "pgx5"+strings.TrimPrefix(url, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Down(); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if n := storetest.MustQueryInt(t, url, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'"); n != 0 {
		t.Errorf("%d tables left after down migrations", n)
	}
	if err := s.SchemaCurrent(ctx); err == nil {
		t.Error("SchemaCurrent = nil on an empty database")
	}
	if err := store.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if err := s.SchemaCurrent(ctx); err != nil {
		t.Errorf("SchemaCurrent after Migrate: %v", err)
	}
	storetest.MustInsertRun(t, s, storetest.FullRun(), "after down and up")
}

func TestSchemaStates(t *testing.T) {
	for _, tc := range []struct {
		name, sql string
		want      error  // from Migrate and SchemaCurrent
		mention   string // in both errors
	}{
		{"too new", "DELETE FROM schema_migrations; INSERT INTO schema_migrations VALUES (9999, false)",
			store.ErrSchemaTooNew, "9999"},
		{"dirty", "DELETE FROM schema_migrations; INSERT INTO schema_migrations VALUES (1, true)", store.ErrSchemaDirty, "version 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, url := dbtest.New(t)
			ctx := context.Background()
			storetest.MustExec(t, url, tc.sql)
			for name, err := range map[string]error{
				"Migrate":       store.Migrate(ctx, url),
				"SchemaCurrent": s.SchemaCurrent(ctx),
			} {
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.mention) {
					t.Errorf("%s: %v; want %v mentioning %q", name, err, tc.want, tc.mention)
				}
			}
		})
	}
}

func TestSchemaCurrentBehind(t *testing.T) {
	s, url := dbtest.New(t)
	storetest.MustExec(t, url, "UPDATE schema_migrations SET version = 0")
	if err := s.SchemaCurrent(context.Background()); err == nil || !strings.Contains(err.Error(), "run the migrations") {
		t.Errorf("SchemaCurrent on an old schema: %v, want an error asking for migrations", err)
	}
}
