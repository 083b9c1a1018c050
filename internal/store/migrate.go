package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/database/pgx/v5" // registers pgx5://
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/speedmatrix/speedmatrix/internal/store/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
	"github.com/speedmatrix/speedmatrix/migrations"
)

// ErrSchemaTooNew means the database was migrated by a newer build. This
// build does not know that schema, so the server must not serve on it.
var ErrSchemaTooNew = errors.New("database schema is newer than this build")

// ErrSchemaDirty means a migration failed part-way. Someone must repair the
// schema by hand and then set the version with `migrate force`.
var ErrSchemaDirty = errors.New("database schema is dirty (a migration failed part-way)")

// migrateLockKey names the advisory lock that serialises Migrate across
// processes ("smmigrat" in ASCII); migrate's own lock uses another key.
const migrateLockKey = 0x736d6d6967726174

// Migrate brings the database at databaseURL up to the newest embedded
// migration. Concurrent callers (instances starting together) are
// serialised by an advisory lock held for the whole call: migrate's own
// lock covers only Up, and the version check before it would otherwise read
// the dirty flag another instance sets while it applies a file.
func Migrate(ctx context.Context, databaseURL string) (err error) {
	defer db.Wrap(&err, "Migrate")
	unlock, err := lockMigrations(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer unlock()
	latest, err := latestVersion()
	if err != nil {
		return err
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return err
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, pgx5URL(databaseURL))
	if err != nil {
		return err
	}
	defer func() {
		srcErr, dbErr := m.Close()
		err = errors.Join(err, srcErr, dbErr)
	}()

	v, dirty, err := m.Version()
	switch {
	case errors.Is(err, migrate.ErrNilVersion): // a fresh database
	case err != nil:
		return err
	case dirty:
		return fmt.Errorf("%w: at version %d; fix it by hand, then run migrate force", ErrSchemaDirty, v)
	case v > latest:
		return fmt.Errorf("%w: database at version %d, this build knows up to %d", ErrSchemaTooNew, v, latest)
	}

	// Let a cancelled context stop migrate between two files.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			m.GracefulStop <- true
		case <-done:
		}
	}()
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return err
	}
	if err := bests.Backfill(ctx, databaseURL); err != nil {
		return err
	}
	return accounts.BackfillSkeletons(ctx, databaseURL)
}

// lockMigrations waits for the migration lock on a connection of its own
// and returns the function that releases it (closing the connection
// releases it too, should the unlock fail).
func lockMigrations(ctx context.Context, databaseURL string) (func(), error) {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrateLockKey)); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("waiting for the migration lock: %w", err)
	}
	return func() {
		ctx := context.Background()
		_, _ = conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", int64(migrateLockKey))
		conn.Close(ctx)
	}, nil
}

// SchemaCurrent returns nil when the database is at the newest embedded
// migration and not dirty: the readiness check of the server.
func (s *Store) SchemaCurrent(ctx context.Context) (err error) {
	defer db.Wrap(&err, "SchemaCurrent")
	latest, err := latestVersion()
	if err != nil {
		return err
	}
	var v uint
	var dirty bool
	err = s.db.Pool().QueryRow(ctx, "SELECT version, dirty FROM schema_migrations").Scan(&v, &dirty)
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, pgx.ErrNoRows), errors.As(err, &pgErr) && pgErr.Code == "42P01":
		return errors.New("database not migrated")
	case err != nil:
		return err
	case dirty:
		return fmt.Errorf("%w: at version %d", ErrSchemaDirty, v)
	case v > latest:
		return fmt.Errorf("%w: database at version %d, this build knows up to %d", ErrSchemaTooNew, v, latest)
	case v < latest:
		return fmt.Errorf("database at version %d, want %d: run the migrations", v, latest)
	}
	return nil
}

// latestVersion is the version of the newest embedded migration.
var latestVersion = sync.OnceValues(func() (uint, error) {
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		return 0, err
	}
	defer src.Close()
	v, err := src.First()
	if err != nil {
		return 0, fmt.Errorf("no embedded migrations: %w", err)
	}
	for {
		next, err := src.Next(v)
		if errors.Is(err, fs.ErrNotExist) {
			return v, nil
		}
		if err != nil {
			return 0, err
		}
		v = next
	}
})

// pgx5URL turns a postgres:// URL into the pgx5:// form that selects
// migrate's pgx v5 driver.
func pgx5URL(url string) string {
	for _, scheme := range []string{"postgres://", "postgresql://"} {
		if rest, ok := strings.CutPrefix(url, scheme); ok {
			return "pgx5://" + rest
		}
	}
	return url
}
