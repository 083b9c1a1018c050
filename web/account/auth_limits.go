package account

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/ratelimit"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Failed sign-ins allowed per e-mail address and per client address in a
// window, earned back evenly across it; past them the next attempt answers
// 429 with Retry-After. Ten is plenty for a person who mistypes and far
// too few to guess a password.
const (
	loginFailures = 10
	loginWindow   = 15 * time.Minute
)

// Sign-ups and one-time links (a password reset, a sign-up or address
// confirmation) a client may try per hour: each sign-up and reset costs a
// password hash, and a household or an office shares one address.
const (
	signupsPerHourClient = 20
	linksPerHourClient   = 30
)

// authLimits guard the doors that hash a password or spend a one-time
// link. Each is checked and counted in one step (ratelimit.Limiter.Allow)
// before any hash is computed, so simultaneous requests cannot all pass a
// check that only some of them should. They are in memory, per process,
// like the upload limits.
type authLimits struct {
	// logins counts sign-ins per "email:" and "addr:" key; a right
	// password is refunded, so only failures add up.
	logins  *ratelimit.Limiter
	signups *ratelimit.Limiter
	links   *ratelimit.Limiter
}

func newAuthLimits(now func() time.Time) authLimits {
	return authLimits{logins: ratelimit.NewPer(loginFailures, loginWindow, now),
		signups: ratelimit.New(signupsPerHourClient, now), links: ratelimit.New(linksPerHourClient, now)}
}

// loginKeys are the keys a sign-in counts against: the address typed and
// the client.
func (s *Handlers) loginKeys(r *http.Request, email string) []string {
	return []string{"email:" + strings.ToLower(email), "addr:" + kit.ClientAddress(r, s.Uploads.TrustedProxies)}
}

// allowClient spends one attempt of the client's budget in l; spent, it
// sets Retry-After and reports false.
func (s *Handlers) allowClient(w http.ResponseWriter, r *http.Request, l *ratelimit.Limiter) bool {
	return allowed(w, l, kit.ClientAddress(r, s.Uploads.TrustedProxies))
}

// allowed spends one attempt of every key in l; spent, it sets
// Retry-After and reports false.
func allowed(w http.ResponseWriter, l *ratelimit.Limiter, keys ...string) bool {
	ok, wait := l.Allow(keys...)
	if !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
	}
	return ok
}

// errTooManyLinks answers a client that tried too many one-time links.
var errTooManyLinks = &kit.HTTPError{Status: http.StatusTooManyRequests, Key: "acct.error.too_many_links"}
