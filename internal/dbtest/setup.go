package dbtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/localpg"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// setup finds a server and builds the template database; on failure it
// leaves the reason in env.err.
func setup() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env.adminURL = os.Getenv(EnvURL)
	if env.adminURL != "" {
		if _, err := url.Parse(env.adminURL); err != nil {
			env.err = fmt.Errorf("%s: %w", EnvURL, err)
			return
		}
	} else if env.err = startCluster(ctx); env.err != nil {
		return
	}
	name := uniqueName("speedmatrix_tmpl")
	if err := adminExec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		env.err = fmt.Errorf("creating the template database on %s: %w", env.adminURL, err)
		return
	}
	env.template = name
	if err := store.Migrate(ctx, withDatabase(env.adminURL, env.template)); err != nil {
		env.err = fmt.Errorf("migrating the template database: %w", err)
	}
}

// startCluster starts a private cluster in a short temporary folder
// (without fsync: test data is thrown away).
func startCluster(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "smpg")
	if err != nil {
		return err
	}
	env.tmpDir = dir
	c, err := localpg.Start(ctx, dir, localpg.Options{})
	if err != nil {
		return fmt.Errorf("%s is unset, and starting a private PostgreSQL in %s failed: %w", EnvURL, dir, err)
	}
	env.cluster = c
	env.adminURL = c.AdminURL()
	return nil
}

// teardown drops the template and stops the private cluster.
func teardown() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var errs []error
	if env.template != "" && env.cluster == nil && env.adminURL != "" {
		// A shared server outlives us: leave it clean.
		errs = append(errs, dropDatabase(ctx, env.template))
	}
	if env.cluster != nil {
		errs = append(errs, env.cluster.Stop(ctx))
	}
	if env.tmpDir != "" {
		errs = append(errs, os.RemoveAll(env.tmpDir))
	}
	return errors.Join(errs...)
}
