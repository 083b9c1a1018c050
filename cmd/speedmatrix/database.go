package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/speedmatrix/speedmatrix/internal/localpg"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// database is an open, migrated store and, in the private default, the
// cluster behind it.
type database struct {
	Store   *store.Store
	cluster *localpg.Cluster
	// Private is set when the database is the private default cluster.
	Private bool
}

// openDatabase connects to DATABASE_URL or, without one, starts the private
// cluster under DATA_DIR; then it migrates under the migrator's lock. It
// refuses a schema newer than this build knows.
func openDatabase(ctx context.Context, cfg config, log io.Writer) (*database, error) {
	db := &database{}
	url := cfg.DatabaseURL
	if url == "" {
		c, err := startPrivate(ctx, cfg.DataDir, log)
		if err != nil {
			return nil, fmt.Errorf("private database: %w", err)
		}
		db.cluster, db.Private, url = c, true, c.URL()
	}
	if err := store.Migrate(ctx, url); err != nil {
		if errors.Is(err, store.ErrSchemaTooNew) {
			err = fmt.Errorf("%w: this build is older than the database; run a newer speedmatrix", err)
		}
		return nil, errors.Join(err, db.Close(context.WithoutCancel(ctx)))
	}
	st, err := store.OpenWithReplica(ctx, url, cfg.DatabaseReadURL)
	if err != nil {
		return nil, errors.Join(err, db.Close(context.WithoutCancel(ctx)))
	}
	db.Store = st
	return db, nil
}

// Close closes the store and stops the private cluster if this process
// started it; a cluster another process runs is left running.
func (db *database) Close(ctx context.Context) error {
	if db.Store != nil {
		db.Store.Close()
	}
	if db.cluster != nil && !db.cluster.Adopted() {
		return db.cluster.Stop(ctx)
	}
	return nil
}

// startPrivate starts the private cluster in DATA_DIR/postgres. As root, the
// server runs as the postgres user, which cannot reach a checkout under a
// private home (/root); the cluster then lives in a folder it can reach,
// named after DATA_DIR so each checkout keeps its own, and the log says so.
func startPrivate(ctx context.Context, dataDir string, log io.Writer) (*localpg.Cluster, error) {
	dir, err := filepath.Abs(filepath.Join(dataDir, "postgres"))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "speedmatrix: no DATABASE_URL; using the private PostgreSQL cluster in %s\n", dir)
	c, err := localpg.Start(ctx, dir, localpg.Options{Fsync: true})
	if !errors.Is(err, localpg.ErrNotTraversable) {
		return c, err
	}
	sum := sha256.Sum256([]byte(dir))
	alt := filepath.Join(os.TempDir(), "speedmatrix-"+hex.EncodeToString(sum[:6]), "postgres")
	fmt.Fprintf(log, "speedmatrix: %v\nspeedmatrix: using %s instead (set DATA_DIR to a folder the postgres user can reach to choose)\n", err, alt)
	return localpg.Start(ctx, alt, localpg.Options{Fsync: true})
}

func migrateOnly(ctx context.Context, cfg config, out io.Writer) error {
	db, err := openDatabase(ctx, cfg, out)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "speedmatrix: database schema is current")
	return db.Close(context.WithoutCancel(ctx))
}
