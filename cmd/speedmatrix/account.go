package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

const accountUsage = `usage: speedmatrix account reset HANDLE
       speedmatrix account lookalikes
       speedmatrix admin grant HANDLE`

// resetLife is how long a password reset link works.
const resetLife = 24 * time.Hour

// accountCommand is `speedmatrix account reset HANDLE`: it prints a
// one-time link (valid resetLife) that sets a new password, for the
// operator to pass on to the account's owner. Only its hash is stored.
// `speedmatrix account lookalikes` is lookalikesCommand.
func accountCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "lookalikes" {
		return lookalikesCommand(ctx, cfg, stdout, stderr)
	}
	if len(args) != 2 || args[0] != "reset" {
		fmt.Fprintln(stderr, accountUsage)
		return 2
	}
	handle := args[1]
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		secret, err := accounts.NewSecret()
		if err != nil {
			return err
		}
		err = st.CreateReset(ctx, handle, accounts.Hash(secret), time.Now().Add(resetLife))
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no account %q", handle)
		}
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, siteOrigin(cfg)+"/account/reset?"+url.Values{"token": {secret}}.Encode())
		fmt.Fprintf(stderr, "one-time link for %s, valid for %v: pass it on privately\n", handle, resetLife)
		return nil
	})
}

// adminCommand is `speedmatrix admin grant HANDLE`: the account may hide
// any run and suspend accounts. The grant is in the audit log.
func adminCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "grant" {
		fmt.Fprintln(stderr, accountUsage)
		return 2
	}
	handle := args[1]
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		err := st.GrantAdmin(ctx, handle, "operator (speedmatrix admin grant)")
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("no account %q", handle)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is an admin\n", handle)
		return nil
	})
}

// siteOrigin is BASE_URL, or the listen address as an http origin.
func siteOrigin(cfg config) string {
	if cfg.BaseURL != "" {
		return strings.TrimSuffix(cfg.BaseURL, "/")
	}
	return "http://" + cfg.Addr
}
