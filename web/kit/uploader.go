package kit

import (
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

// UploadGate decides, before a body is read, whether an upload may proceed.
type UploadGate struct {
	RefuseAnonymous bool
	// The hourly limits in force, for /docs/api.
	PerHourAddress, PerHourToken int
	TrustedProxies               []netip.Prefix
	byAddress                    *ratelimit.Limiter
	byToken                      *ratelimit.Limiter
}

func NewUploadGate(p UploadPolicy) *UploadGate {
	rate := func(n, def int) int {
		if n == 0 {
			return def
		}
		return n // negative: ratelimit allows everything
	}
	g := &UploadGate{RefuseAnonymous: p.RefuseAnonymous, TrustedProxies: p.TrustedProxies,
		PerHourAddress: rate(p.PerHourAddress, DefaultUploadsPerHourAddress),
		PerHourToken:   rate(p.PerHourToken, DefaultUploadsPerHourToken)}
	g.byAddress = ratelimit.New(g.PerHourAddress, p.Now)
	g.byToken = ratelimit.New(g.PerHourToken, p.Now)
	return g
}

var (
	ErrBadToken  = &HTTPError{Status: http.StatusUnauthorized, Key: "account.error.bad_token"}
	ErrNoToken   = &HTTPError{Status: http.StatusUnauthorized, Key: "account.error.no_token"}
	ErrRevoked   = &HTTPError{Status: http.StatusForbidden, Key: "account.error.revoked"}
	ErrAnonymous = &HTTPError{Status: http.StatusUnauthorized, Key: "account.error.anonymous"}
	ErrNotOwner  = &HTTPError{Status: http.StatusForbidden, Key: "account.error.not_owner"}
	ErrTooMany   = &HTTPError{Status: http.StatusTooManyRequests, Key: "account.error.rate_limited"}
	// ErrNotMember answers an upload, a token or a page for an
	// organisation the account does not belong to.
	ErrNotMember = &HTTPError{Status: http.StatusForbidden, Key: "acct.error.not_member"}
	// ErrNotOrgOwner answers a member trying what only owners may.
	ErrNotOrgOwner = &HTTPError{Status: http.StatusForbidden, Key: "acct.error.not_org_owner"}
)

// UploaderID is who an upload comes from: the submitter's handle (""
// for an anonymous upload), the organisation's slug when it is uploaded
// for one, and the signed-in account's id (0 for a token or nobody).
type UploaderID struct {
	Handle, Org string
	AccountID   int64
}

// TokenAccount returns who the request's token uploads as (the zero
// UploaderID without an Authorization header): its submitter and, for an
// organisation's token, the organisation. A malformed or unknown token is
// 401, a revoked one 403: lil-bench stops on either. The token itself
// never reaches a log or an error message.
func (s *Server) TokenAccount(w http.ResponseWriter, r *http.Request) (id UploaderID, hash []byte, err error) {
	token, present := accounts.BearerToken(r.Header.Get("Authorization"))
	if !present {
		return UploaderID{}, nil, nil
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="speedmatrix"`)
	if !accounts.IsToken(token) {
		return UploaderID{}, nil, ErrBadToken
	}
	hash = accounts.Hash(token)
	id.Handle, id.Org, err = s.store.TokenUploader(r.Context(), hash)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return UploaderID{}, nil, ErrBadToken
	case errors.Is(err, store.ErrRevoked):
		return UploaderID{}, nil, ErrRevoked
	case err != nil:
		return UploaderID{}, nil, err
	}
	w.Header().Del("WWW-Authenticate")
	return id, hash, nil
}

// Uploader is the gate every upload door passes first: it names the
// token's submitter, refuses anonymous uploads when the site says so, and
// spends one upload of the token's (or, anonymous, the address's) budget,
// answering 429 with Retry-After when it is spent.
func (s *Server) Uploader(w http.ResponseWriter, r *http.Request) (UploaderID, error) {
	id, hash, err := s.TokenAccount(w, r)
	if err != nil {
		return UploaderID{}, err
	}
	limiter, key := s.Uploads.byToken, hex.EncodeToString(hash)
	if id.Handle == "" {
		if s.Uploads.RefuseAnonymous {
			w.Header().Set("WWW-Authenticate", `Bearer realm="speedmatrix"`)
			return UploaderID{}, ErrAnonymous
		}
		// The client's address; behind a reverse proxy only with the
		// proxy among TrustedProxies (clientaddr.go).
		limiter, key = s.Uploads.byAddress, ClientAddress(r, s.Uploads.TrustedProxies)
	}
	if ok, wait := limiter.Allow(key); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return UploaderID{}, ErrTooMany
	}
	return id, nil
}

// FormUploader is uploader for the upload form: a signed-in browser
// uploads as its account (verified), spending the account's hourly budget;
// otherwise the form is an anonymous upload (or, with a Bearer header, a
// token's) like any other door.
func (s *Server) FormUploader(w http.ResponseWriter, r *http.Request) (UploaderID, error) {
	a, err := s.SignedInAccount(r)
	if err != nil {
		return UploaderID{}, err
	}
	if a == nil {
		return s.Uploader(w, r)
	}
	if ok, wait := s.Uploads.byToken.Allow("account:" + strconv.FormatInt(a.ID, 10)); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)))
		return UploaderID{}, ErrTooMany
	}
	return UploaderID{Handle: a.Handle, AccountID: a.ID}, nil
}
