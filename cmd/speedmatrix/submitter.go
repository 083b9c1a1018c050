package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// submitterCommand is `speedmatrix submitter create HANDLE [--org ORG]`.
func submitterCommand(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("submitter create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	org := fs.String("org", "", "organisation `slug` to put the submitter in (created when new)")
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprintln(stderr, "usage: speedmatrix submitter create HANDLE [--org ORG]")
		return 2
	}
	rest, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return 2
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "usage: speedmatrix submitter create HANDLE [--org ORG]")
		return 2
	}
	handle := rest[0]
	if !accounts.ValidHandle(handle) {
		fmt.Fprintf(stderr, "speedmatrix: %q is not a handle: 1–39 letters, digits, '_', '.' or '-', starting with a letter or digit\n", handle)
		return 2
	}
	if *org != "" && !accounts.ValidSlug(*org) {
		fmt.Fprintf(stderr, "speedmatrix: %q is not an organisation slug: lower-case letters, digits and '-'\n", *org)
		return 2
	}
	return withStore(ctx, cfg, stderr, func(st *store.Store) error {
		err := st.CreateSubmitter(ctx, handle, *org)
		if errors.Is(err, store.ErrLookalike) {
			name := fmt.Sprintf("the handle %q", handle)
			if *org != "" {
				name += fmt.Sprintf(" or the organisation slug %q", *org)
			}
			return fmt.Errorf("%s looks like a handle or organisation slug in use "+
				"(speedmatrix account lookalikes lists the names that already look alike)", name)
		}
		if errors.Is(err, store.ErrExists) {
			return fmt.Errorf("the handle %q is taken (by a submitter or an organisation)", handle)
		}
		if errors.Is(err, store.ErrSlugIsHandle) {
			return fmt.Errorf("the organisation slug %q is a submitter's handle", *org)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "submitter %s created", handle)
		if *org != "" {
			fmt.Fprintf(stdout, " in %s (%s/orgs/%s)", *org, baseURL(cfg), *org)
		}
		fmt.Fprintln(stdout)
		return nil
	})
}

// withStore opens the database, runs fn and closes it; an error is printed
// and exits 1.
func withStore(ctx context.Context, cfg config, stderr io.Writer, fn func(*store.Store) error) int {
	db, err := openDatabase(ctx, cfg, stderr)
	if err == nil {
		err = fn(db.Store)
		err = errors.Join(err, db.Close(context.WithoutCancel(ctx)))
	}
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix:", err)
		return 1
	}
	return 0
}

// baseURL is the site's origin for printed links.
func baseURL(cfg config) string {
	if cfg.BaseURL != "" {
		return cfg.BaseURL
	}
	return "http://" + cfg.Addr
}
