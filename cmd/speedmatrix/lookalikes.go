package main

import (
	"context"
	"fmt"
	"io"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// lookalikesCommand is `speedmatrix account lookalikes`: the handles,
// organisation slugs and recently retired handles that look alike
// (names.Skeleton), one group a line, as "kind:name" separated by spaces.
// Names are compared by skeleton only since migration 0027: those taken
// before are kept as they are, and the operator decides what, if
// anything, to do about them. Nothing new can join a group. It prints
// nothing and exits 0 when no names look alike.
func lookalikesCommand(ctx context.Context, cfg config, stdout, stderr io.Writer) int {
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		groups, err := st.Lookalikes(ctx)
		if err != nil {
			return err
		}
		for _, g := range groups {
			for i, n := range g {
				if i > 0 {
					fmt.Fprint(stdout, " ")
				}
				fmt.Fprintf(stdout, "%s:%s", n.Kind, n.Name)
			}
			fmt.Fprintln(stdout)
		}
		if len(groups) > 0 {
			fmt.Fprintf(stderr, "groups of names that look alike: %d (none is renamed; no new name can join one)\n", len(groups))
		}
		return nil
	})
}
