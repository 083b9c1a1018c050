package localpg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// initdb creates the cluster unless dir already holds one.
func (c *Cluster) initdb(ctx context.Context, fsync bool) error {
	if _, err := os.Stat(filepath.Join(c.dir, "PG_VERSION")); err == nil {
		return nil
	}
	if err := c.makeDataDir(); err != nil {
		return err
	}
	args := []string{"-D", c.dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"}
	if !fsync {
		args = append(args, "--no-sync")
	}
	c.logf("localpg: initdb %s", c.dir)
	if err := run(c.as.command(ctx, c.dir, filepath.Join(c.bin, "initdb"), args...)); err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	return nil
}

// makeDataDir creates the data folder, owned by the server's user.
func (c *Cluster) makeDataDir() error {
	// The parents are created open (0755) so the server's user can reach
	// the data folder; the folder itself is private.
	if err := os.MkdirAll(filepath.Dir(c.dir), 0o755); err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	if err := c.as.checkTraversable(c.dir); err != nil {
		return err
	}
	// PostgreSQL demands that only its user can read the data folder.
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	if err := os.Chown(c.dir, c.as.uid, c.as.gid); err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	return nil
}

// start starts the server on a free port. The port can be taken between
// our probe and the server's bind, and a killed server's children can hold
// its shared memory for a moment; both pass, so start tries a few times.
func (c *Cluster) start(ctx context.Context, fsync bool) error {
	if err := c.as.checkTraversable(c.dir); err != nil {
		return err
	}
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			c.logf("localpg: start failed, retrying: %v", err)
			select {
			case <-ctx.Done():
				return errors.Join(err, ctx.Err())
			case <-time.After(time.Duration(attempt) * 500 * time.Millisecond):
			}
		}
		if c.port, err = freePort(); err != nil {
			return err
		}
		opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=''", c.port)
		if !fsync {
			opts += " -c fsync=off"
		}
		logFile := filepath.Join(c.dir, "server.log")
		c.logf("localpg: starting %s on port %d (log %s)", c.dir, c.port, logFile)
		err = run(c.as.command(ctx, c.dir, filepath.Join(c.bin, "pg_ctl"),
			"start", "-D", c.dir, "-w", "-l", logFile, "-o", opts))
		if err == nil {
			return nil
		}
		log := tail(logFile, 5)
		err = fmt.Errorf("localpg: %w\n%s", err, log)
		// "Address already in use" or "pre-existing shared memory block
		// ... is still in use": passing troubles. Anything else is not.
		if !strings.Contains(log, "in use") {
			return err
		}
	}
	return err
}

// runningPort reports whether a server runs on the cluster, and its port,
// read from the fourth line of postmaster.pid.
func (c *Cluster) runningPort(ctx context.Context) (int, bool) {
	cmd := c.as.command(ctx, c.dir, filepath.Join(c.bin, "pg_ctl"), "status", "-D", c.dir)
	if cmd.Run() != nil { // exit status 3: not running
		return 0, false
	}
	b, err := os.ReadFile(filepath.Join(c.dir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	port, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	return port, err == nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("localpg: finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// tail returns the last n lines of a file, for error messages.
func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
