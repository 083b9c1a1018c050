// Package localpg runs a private PostgreSQL cluster from the machine's own
// server binaries, so that development and tests need no database set up by
// hand. The cluster listens on 127.0.0.1 only, on a free port, with trust
// authentication: it is for one developer's machine, never for production.
package localpg

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
)

// Options tune a cluster.
type Options struct {
	// Fsync keeps fsync on. Tests turn it off: their data is thrown away,
	// and commits are then several times faster.
	Fsync bool
	// Logf, when set, receives progress messages (initdb, start, stop).
	Logf func(format string, args ...any)
}

// Cluster is a running private PostgreSQL server.
type Cluster struct {
	dir  string
	bin  string
	port int
	as   runAs
	logf func(string, ...any)
	// adopted is set when Start found the server already running (another
	// speedmatrix process, or one that died without Stop).
	adopted bool
}

// Database is the database Start creates for the application.
const Database = "speedmatrix"

// Start initialises dir as a cluster when it holds none yet, starts the
// server and creates the speedmatrix database if missing. A server already
// running on dir (left by a process that died without Stop) is adopted
// rather than started twice; a stale postmaster.pid left by a killed server
// is handled by PostgreSQL itself, which checks whether its pid still lives.
func Start(ctx context.Context, dir string, opts Options) (*Cluster, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	as, err := currentRunAs()
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: bin, as: as, logf: opts.Logf}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	if err := c.initdb(ctx, opts.Fsync); err != nil {
		return nil, err
	}
	if port, ok := c.runningPort(ctx); ok {
		c.port, c.adopted = port, true
		c.logf("localpg: adopting the server already running in %s on port %d", dir, port)
	} else if err := c.start(ctx, opts.Fsync); err != nil {
		return nil, err
	}
	if err := c.createDatabase(ctx); err != nil {
		return nil, errors.Join(err, c.Stop(context.WithoutCancel(ctx)))
	}
	return c, nil
}

// Stop shuts the server down, cancelling running queries ("fast" mode).
// Stopping a server that is not running is not an error.
func (c *Cluster) Stop(ctx context.Context) error {
	if _, ok := c.runningPort(ctx); !ok {
		return nil
	}
	c.logf("localpg: stopping %s", c.dir)
	err := run(c.as.command(ctx, c.dir, filepath.Join(c.bin, "pg_ctl"), "stop", "-D", c.dir, "-m", "fast", "-w"))
	if err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	return nil
}

// Adopted reports whether Start found the server already running rather
// than starting it. A short-lived command (`speedmatrix import` beside a
// running `serve`) must then leave it running.
func (c *Cluster) Adopted() bool { return c.adopted }

// Dir returns the data folder.
func (c *Cluster) Dir() string { return c.dir }

// Port returns the TCP port the server listens on.
func (c *Cluster) Port() int { return c.port }

// URL returns the connection URL of the speedmatrix database.
func (c *Cluster) URL() string { return c.url(Database) }

// AdminURL returns the connection URL of the postgres maintenance database,
// for creating and dropping databases.
func (c *Cluster) AdminURL() string { return c.url("postgres") }

func (c *Cluster) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}
