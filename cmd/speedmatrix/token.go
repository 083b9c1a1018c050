package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

const tokenUsage = `usage: speedmatrix token create HANDLE
       speedmatrix token revoke TOKEN-OR-PREFIX`

// tokenCommand is `speedmatrix token create HANDLE` (prints the new token,
// the only time it is ever shown) and `speedmatrix token revoke
// TOKEN-OR-PREFIX` (a whole token, or the 11-character prefix printed at
// creation).
func tokenCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, tokenUsage)
		return 2
	}
	switch args[0] {
	case "create":
		handle := args[1]
		return withStore(ctx, cfg, stderr, func(st *store.Store) error {
			tok, err := accounts.NewToken()
			if err != nil {
				return err
			}
			err = st.CreateToken(ctx, handle, tok.Hash, tok.Prefix)
			if errors.Is(err, store.ErrNotFound) {
				return fmt.Errorf("no submitter %q (speedmatrix submitter create %s)", handle, handle)
			}
			if err != nil {
				return err
			}
			// The token on stdout alone, so scripts can take it; the
			// advice beside it on stderr.
			fmt.Fprintln(stdout, tok.Secret)
			fmt.Fprintf(stderr, "token %s… for %s: shown this once, keep it safe. Revoke: speedmatrix token revoke %s\n",
				tok.Prefix, handle, tok.Prefix)
			return nil
		})
	case "revoke":
		arg := args[1]
		var hash []byte
		prefix := arg
		if accounts.IsToken(arg) {
			hash, prefix = accounts.Hash(arg), accounts.ShownPrefix(arg)
		} else if len(arg) != len(accounts.ShownPrefix(arg)) || len(arg) <= len(accounts.TokenPrefix) {
			fmt.Fprintf(stderr, "speedmatrix: give a whole token or its %d-character prefix (lilb_ and 6 more)\n",
				len(accounts.TokenPrefix)+6)
			return 2
		}
		return withStore(ctx, cfg, stderr, func(st *store.Store) error {
			handle, err := st.RevokeToken(ctx, hash, prefix)
			switch {
			case errors.Is(err, store.ErrNotFound):
				return fmt.Errorf("no token %s…", prefix)
			case errors.Is(err, store.ErrAmbiguous):
				return fmt.Errorf("several tokens start with %s: give the whole token", prefix)
			case err != nil:
				return err
			}
			fmt.Fprintf(stdout, "token %s… of %s revoked\n", prefix, handle)
			return nil
		})
	}
	fmt.Fprintln(stderr, tokenUsage)
	return 2
}
