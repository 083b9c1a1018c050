package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
		dir := filepath.Join(cfg.DataDir, "postgres")
		fmt.Fprintf(log, "speedmatrix: no DATABASE_URL; using the private PostgreSQL cluster in %s\n", dir)
		c, err := localpg.Start(ctx, dir, localpg.Options{Fsync: true})
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
	st, err := store.Open(ctx, url)
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

func migrateOnly(ctx context.Context, cfg config, out io.Writer) error {
	db, err := openDatabase(ctx, cfg, out)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "speedmatrix: database schema is current")
	return db.Close(context.WithoutCancel(ctx))
}
