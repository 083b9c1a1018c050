// Package account serves signing up and in (by password, mail link or
// GitHub), an account's own pages (its runs, tokens, organisations), the
// public organisation pages, and moderation for admins. Every form here is
// behind the cross-origin check (web/site's route table). It must not
// import web/site or another area.
package account

import (
	"context"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the account area needs of the database.
type Store interface {
	kit.SessionStore
	orgStore
	myRunsStore
	adminStore
	GetRun(ctx context.Context, id string) (*run.Run, error)
}

// Config is what the account area is built from beside the shared kit.
type Config struct {
	// Mailer, when set (SMTP_URL), mails password resets and address
	// confirmations (mail.go); without it the operator makes reset links.
	Mailer Mailer
	// GitHub, with its client id and secret set, offers "Sign in with
	// GitHub" (github.go).
	GitHub GitHubApp
	// GitHubEndpoints replace GitHub's addresses, in tests only.
	GitHubEndpoints *GitHubEndpoints
	// Now is the limiters' clock; nil is time.Now.
	Now func() time.Time
}

// Handlers serve the account area's addresses.
type Handlers struct {
	*kit.Server
	store  Store
	auth   authLimits // sign-ins, sign-ups and one-time links (auth_limits.go)
	mailer Mailer     // nil: no mail (mail.go)
	mails  mailLimits
	github *githubAuth // nil: no GitHub sign-in (github.go)
}

// New returns the account area's handlers.
func New(k *kit.Server, st Store, cfg Config) *Handlers {
	return &Handlers{Server: k, store: st, auth: newAuthLimits(cfg.Now), mailer: cfg.Mailer,
		mails: newMailLimits(cfg.Now), github: newGitHubAuth(cfg.GitHub, k.BaseURL, cfg.GitHubEndpoints)}
}
