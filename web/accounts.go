package web

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"net/netip"
	"strconv"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/ratelimit"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// accountStore is what the account area needs of the database.
type accountStore interface {
	TokenUploader(ctx context.Context, hash []byte) (handle, org string, err error)
	DeleteOwnedRun(ctx context.Context, id, handle string) error
	orgStore
}

// UploadPolicy says who may upload and how often.
type UploadPolicy struct {
	// RefuseAnonymous makes an upload without a token a 401
	// (ALLOW_ANONYMOUS=false).
	RefuseAnonymous bool
	// PerHourAddress limits anonymous uploads per client address, and
	// PerHourToken uploads per token; 0 means the default, a negative
	// number no limit.
	PerHourAddress, PerHourToken int
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (TRUSTED_PROXIES); without them every client behind a
	// proxy shares the proxy's allowance.
	TrustedProxies []netip.Prefix
	// Now is the limiters' clock; nil means time.Now.
	Now func() time.Time
}

// Default upload rates: enough for a person re-running a sweep, few enough
// that a script gone wrong cannot fill the database.
const (
	DefaultUploadsPerHourAddress = 30
	DefaultUploadsPerHourToken   = 120
)

// uploadGate decides, before a body is read, whether an upload may proceed.
type uploadGate struct {
	refuseAnonymous bool
	// The hourly limits in force, for /docs/api.
	perHourAddress, perHourToken int
	trustedProxies               []netip.Prefix
	byAddress                    *ratelimit.Limiter
	byToken                      *ratelimit.Limiter
}

func newUploadGate(p UploadPolicy) *uploadGate {
	rate := func(n, def int) int {
		if n == 0 {
			return def
		}
		return n // negative: ratelimit allows everything
	}
	g := &uploadGate{refuseAnonymous: p.RefuseAnonymous, trustedProxies: p.TrustedProxies,
		perHourAddress: rate(p.PerHourAddress, DefaultUploadsPerHourAddress),
		perHourToken:   rate(p.PerHourToken, DefaultUploadsPerHourToken)}
	g.byAddress = ratelimit.New(g.perHourAddress, p.Now)
	g.byToken = ratelimit.New(g.perHourToken, p.Now)
	return g
}

var (
	errBadToken  = &httpError{status: http.StatusUnauthorized, key: "account.error.bad_token"}
	errNoToken   = &httpError{status: http.StatusUnauthorized, key: "account.error.no_token"}
	errRevoked   = &httpError{status: http.StatusForbidden, key: "account.error.revoked"}
	errAnonymous = &httpError{status: http.StatusUnauthorized, key: "account.error.anonymous"}
	errNotOwner  = &httpError{status: http.StatusForbidden, key: "account.error.not_owner"}
	errTooMany   = &httpError{status: http.StatusTooManyRequests, key: "account.error.rate_limited"}
	// errNotMember answers an upload, a token or a page for an
	// organisation the account does not belong to.
	errNotMember = &httpError{status: http.StatusForbidden, key: "acct.error.not_member"}
	// errNotOrgOwner answers a member trying what only owners may.
	errNotOrgOwner = &httpError{status: http.StatusForbidden, key: "acct.error.not_org_owner"}
)

// uploaderID is who an upload comes from: the submitter's handle (""
// for an anonymous upload), the organisation's slug when it is uploaded
// for one, and the signed-in account's id (0 for a token or nobody).
type uploaderID struct {
	handle, org string
	accountID   int64
}

// account returns who the request's token uploads as (the zero
// uploaderID without an Authorization header): its submitter and, for an
// organisation's token, the organisation. A malformed or unknown token is
// 401, a revoked one 403: lil-bench stops on either. The token itself
// never reaches a log or an error message.
func (s *Server) account(w http.ResponseWriter, r *http.Request) (id uploaderID, hash []byte, err error) {
	token, present := accounts.BearerToken(r.Header.Get("Authorization"))
	if !present {
		return uploaderID{}, nil, nil
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="speedmatrix"`)
	if !accounts.IsToken(token) {
		return uploaderID{}, nil, errBadToken
	}
	hash = accounts.Hash(token)
	id.handle, id.org, err = s.store.TokenUploader(r.Context(), hash)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return uploaderID{}, nil, errBadToken
	case errors.Is(err, store.ErrRevoked):
		return uploaderID{}, nil, errRevoked
	case err != nil:
		return uploaderID{}, nil, err
	}
	w.Header().Del("WWW-Authenticate")
	return id, hash, nil
}

// uploader is the gate every upload door passes first: it names the
// token's submitter, refuses anonymous uploads when the site says so, and
// spends one upload of the token's (or, anonymous, the address's) budget,
// answering 429 with Retry-After when it is spent.
func (s *Server) uploader(w http.ResponseWriter, r *http.Request) (uploaderID, error) {
	id, hash, err := s.account(w, r)
	if err != nil {
		return uploaderID{}, err
	}
	limiter, key := s.uploads.byToken, hex.EncodeToString(hash)
	if id.handle == "" {
		if s.uploads.refuseAnonymous {
			w.Header().Set("WWW-Authenticate", `Bearer realm="speedmatrix"`)
			return uploaderID{}, errAnonymous
		}
		// The client's address; behind a reverse proxy only with the
		// proxy among TrustedProxies (clientaddr.go).
		limiter, key = s.uploads.byAddress, clientAddress(r, s.uploads.trustedProxies)
	}
	if ok, wait := limiter.Allow(key); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return uploaderID{}, errTooMany
	}
	return id, nil
}

// formUploader is uploader for the upload form: a signed-in browser
// uploads as its account (verified), spending the account's hourly budget;
// otherwise the form is an anonymous upload (or, with a Bearer header, a
// token's) like any other door.
func (s *Server) formUploader(w http.ResponseWriter, r *http.Request) (uploaderID, error) {
	a, err := s.signedInAccount(r)
	if err != nil {
		return uploaderID{}, err
	}
	if a == nil {
		return s.uploader(w, r)
	}
	if ok, wait := s.uploads.byToken.Allow("account:" + strconv.FormatInt(a.ID, 10)); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return uploaderID{}, errTooMany
	}
	return uploaderID{handle: a.Handle, accountID: a.ID}, nil
}
