package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// runCommand is `speedmatrix run hide ID`: the run answers 404 and leaves
// every list and leaderboard, but stays in the database.
func runCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "hide" {
		fmt.Fprintln(stderr, "usage: speedmatrix run hide ID")
		return 2
	}
	id := args[1]
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		err := st.HideRun(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no run %q", id)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "run %s hidden (kept in the database)\n", id)
		return nil
	})
}
