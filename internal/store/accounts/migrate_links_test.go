package accounts_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/source/iofs"

	rules "github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
	"github.com/speedmatrix/speedmatrix/migrations"
)

// TestMigrationForgetsMailedLinks: links mailed before migration 25 (when
// their host could be the request's) stop working once it runs: a reset, an
// address confirmation and an e-mail sign-up made at version 24 are all
// refused after it, while a GitHub sign-up waiting for its handle (a
// browser's cookie, never mailed) stays, and new links work.
func TestMigrationForgetsMailedLinks(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, "pgx5"+strings.TrimPrefix(url, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Migrate(24); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		t.Fatal(err)
	}
	m.Close()
	// Rows as version 24 wrote them, by plain SQL: the store's own writes
	// follow the newest schema.
	reset, confirm, signup, github := secretHash(t), secretHash(t), secretHash(t), secretHash(t)
	storetest.MustExec(t, url, `INSERT INTO submitters (handle, email, password_hash) VALUES ('victim', 'victim@example.org', 'x')`)
	exp := time.Now().Add(time.Hour)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO password_resets (hash, submitter_id, expires_at) SELECT $1, id, $2 FROM submitters WHERE handle = 'victim'`, []any{reset, exp}},
		{`INSERT INTO email_confirmations (hash, submitter_id, email, expires_at) SELECT $1, id, email, $2 FROM submitters WHERE handle = 'victim'`, []any{confirm, exp}},
		{`INSERT INTO pending_signups (hash, handle, email, password_hash, expires_at) VALUES ($1, 'newbie', 'victim@example.org', 'x', $2)`, []any{signup, exp}},
		{`INSERT INTO pending_signups (hash, handle, provider, provider_user_id, expires_at) VALUES ($1, 'octo', 'github', '4242', $2)`, []any{github, exp}},
	} {
		if n := storetest.MustQueryInt(t, url, "WITH i AS ("+q.sql+" RETURNING 1) SELECT count(*) FROM i", q.args...); n != 1 {
			t.Fatalf("%s: %d rows", q.sql, n)
		}
	}
	if _, err := s.ResetAccount(ctx, reset); err != nil {
		t.Fatalf("the reset before the migration: %v", err)
	}
	if err := store.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResetAccount(ctx, reset); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a reset link from before the migration: %v, want ErrNotFound", err)
	}
	if err := s.UseReset(ctx, reset, "new-hash"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("using a reset link from before the migration: %v, want ErrNotFound", err)
	}
	if err := s.ConfirmEmail(ctx, confirm); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an address link from before the migration: %v, want ErrNotFound", err)
	}
	if _, err := s.TakePendingSignup(ctx, signup); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a sign-up link from before the migration: %v, want ErrNotFound", err)
	}
	if p, err := s.PendingSignupByHash(ctx, github); err != nil || p.Provider != "github" {
		t.Errorf("the GitHub sign-up waiting for its handle: %+v, %v; want it kept", p, err)
	}
	fresh := secretHash(t)
	if err := s.CreateReset(ctx, "victim", fresh, exp); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResetAccount(ctx, fresh); err != nil {
		t.Errorf("a reset link made after the migration: %v", err)
	}
}

// secretHash is the stored hash of a new secret.
func secretHash(t *testing.T) []byte {
	t.Helper()
	secret, err := rules.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return rules.Hash(secret)
}
