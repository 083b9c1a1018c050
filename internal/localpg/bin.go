package localpg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// binDir returns the folder holding initdb and pg_ctl: PATH first, so that a
// developer's chosen version wins, else the newest Debian install.
func binDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestVer := "", -1
	for _, d := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err != nil || v <= bestVer {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			best, bestVer = d, v
		}
	}
	if best == "" {
		return "", errors.New("localpg: no PostgreSQL server binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin; install them with: apt-get install -y postgresql")
	}
	return best, nil
}

// runAs says which user runs the server. PostgreSQL refuses to run as root,
// so when we are root the work is done as the Debian "postgres" user.
type runAs struct {
	cred *syscall.Credential // nil: the current user
	uid  int
	gid  int
}

func currentRunAs() (runAs, error) {
	if os.Geteuid() != 0 {
		return runAs{uid: os.Geteuid(), gid: os.Getegid()}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return runAs{}, fmt.Errorf("localpg: running as root, and PostgreSQL refuses root: need the \"postgres\" user (apt-get install -y postgresql creates it): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return runAs{
		cred: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}},
		uid:  uid,
		gid:  gid,
	}, nil
}

// command builds a command run as ra in dir. The new process group keeps a
// Ctrl-C aimed at our process from reaching the server directly; Stop shuts
// it down in order instead.
func (ra runAs) command(ctx context.Context, dir, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C.UTF-8")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: ra.cred, Setpgid: true}
	return cmd
}

// run runs the command and folds its output into the error.
func run(cmd *exec.Cmd) error {
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// ErrNotTraversable is returned when the server's user (postgres, when we run
// as root) cannot reach the data folder, e.g. a checkout under /root.
var ErrNotTraversable = errors.New("localpg: data folder not reachable by the server's user")

// checkTraversable returns an error naming the first ancestor of dir that
// the server's user cannot enter: initdb would fail there with a message
// about the data folder that hides the real cause.
func (ra runAs) checkTraversable(dir string) error {
	if ra.cred == nil {
		return nil
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("localpg: %w", err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		mode := fi.Mode().Perm()
		var ok bool
		switch {
		case int(st.Uid) == ra.uid:
			ok = mode&0o100 != 0
		case int(st.Gid) == ra.gid:
			ok = mode&0o010 != 0
		default:
			ok = mode&0o001 != 0
		}
		if !ok {
			return fmt.Errorf("%w: the server runs as user postgres, which cannot enter %s (mode %v); put the data folder under a path it can traverse (e.g. /tmp or /var/lib), or chmod o+x %s", ErrNotTraversable, p, mode, p)
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}
