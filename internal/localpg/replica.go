package localpg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// StartReplica makes dir a streaming replica of primary and starts it: a
// base backup of the primary (pg_basebackup -R, which writes the standby
// signal and the primary's address), then the server on a free port of its
// own, answering read-only queries while it replays. The primary needs no
// setup: initdb's defaults (wal_level=replica, max_wal_senders, trusted
// replication from 127.0.0.1) allow it. dir must not exist or be empty.
func StartReplica(ctx context.Context, dir string, primary *Cluster, opts Options) (*Cluster, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, bin: primary.bin, as: primary.as, logf: opts.Logf}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	if err := c.baseBackup(ctx, primary, opts.Fsync); err != nil {
		return nil, err
	}
	if err := c.start(ctx, opts.Fsync); err != nil {
		return nil, err
	}
	return c, nil
}

// baseBackup copies the primary into c.dir, streaming the WAL written
// meanwhile, and configures c.dir to follow it.
func (c *Cluster) baseBackup(ctx context.Context, primary *Cluster, fsync bool) error {
	if _, err := os.Stat(filepath.Join(c.dir, "PG_VERSION")); err == nil {
		return fmt.Errorf("localpg: %s holds a cluster already", c.dir)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("localpg: %w", err)
	}
	if err := c.makeDataDir(); err != nil {
		return err
	}
	args := []string{"-D", c.dir, "-h", "127.0.0.1", "-p", strconv.Itoa(primary.port), "-U", "postgres",
		"-R", "-X", "stream", "-c", "fast"}
	if !fsync {
		args = append(args, "--no-sync")
	}
	c.logf("localpg: pg_basebackup of port %d into %s", primary.port, c.dir)
	if err := run(c.as.command(ctx, c.dir, c.tool("pg_basebackup"), args...)); err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	return nil
}

// tool finds a client program of the server's version: beside pg_ctl, or
// where pg_ctl links to (PATH may hold links to initdb and pg_ctl alone).
func (c *Cluster) tool(name string) string {
	p := filepath.Join(c.bin, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if ctl, err := filepath.EvalSymlinks(filepath.Join(c.bin, "pg_ctl")); err == nil {
		return filepath.Join(filepath.Dir(ctl), name)
	}
	return p
}
