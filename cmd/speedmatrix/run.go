package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// runCommand is `speedmatrix run hide ID [REASON]`: the run answers 404
// and leaves every list and leaderboard, but stays in the database. It
// is a moderator's hide, logged with the reason: its owner cannot show it
// again, only an admin can (/admin/audit).
func runCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 || args[0] != "hide" {
		fmt.Fprintln(stderr, "usage: speedmatrix run hide ID [REASON]")
		return 2
	}
	id, reason := args[1], strings.Join(args[2:], " ")
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		err := st.ModerateHideRun(ctx, id, operatorActor, reason)
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

// operatorActor names the operator's command line in the audit log: no
// account has it (a handle has no space), so the moderation names no
// account either.
const operatorActor = "operator (speedmatrix run hide)"
