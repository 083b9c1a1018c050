package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/speedmatrix/speedmatrix/internal/backup"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// backupCommand is `speedmatrix backup FILE.tar.zst`: every run's file as
// uploaded with its facts and standing, and the accounts, in the portable
// format of internal/backup. It writes FILE.partial and renames it when
// complete, so a FILE that exists is whole.
func backupCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: speedmatrix backup FILE.tar.zst")
		return 2
	}
	file := args[0]
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		tmp := file + ".partial"
		f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		n, err := backup.Write(ctx, f, st, buildVersion())
		if err == nil {
			err = f.Sync()
		}
		err = errors.Join(err, f.Close())
		if err == nil {
			err = os.Rename(tmp, file)
		}
		if err != nil {
			_ = os.Remove(tmp)
			return err
		}
		fmt.Fprintf(stdout, "%d runs and the accounts written to %s\n", n, filepath.Clean(file))
		return nil
	})
}

// restoreCommand is `speedmatrix restore FILE`: it fills an empty database
// (DATABASE_URL, or the private cluster) from a backup, deriving every run
// again from its file through the ingest. A database with runs or accounts
// is refused untouched, and so is a damaged file; a restore that fails part
// way leaves the database empty again.
func restoreCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: speedmatrix restore FILE.tar.zst")
		return 2
	}
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := backup.Restore(ctx, f, st)
		if err != nil {
			return err // it says whether anything is left stored
		}
		fmt.Fprintf(stdout, "%d runs and the accounts restored from %s\n", n, args[0])
		return nil
	})
}
