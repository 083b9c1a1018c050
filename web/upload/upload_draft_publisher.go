package upload

import (
	"errors"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// errNotPublisher says the account a draft was uploaded as cannot publish
// it from this request (draftPublisher).
var errNotPublisher = errors.New("the draft's account is not signed in")

// draftPublisher is the handle a draft is published under, decided when it
// is published, never kept from the upload: "" for an anonymous draft; for
// an account's, that account as it is now: signed in in this browser with
// a current session (a suspended account has none), or its token with
// the request, as the upload may have come (a suspended account's token
// is refused). The
// draft keeps only whose it is. Anyone else gets errNotPublisher: a
// browser whose account was suspended or signed out cannot publish under
// that name with the drafts cookie alone.
func (s *Handlers) draftPublisher(w http.ResponseWriter, r *http.Request, d *store.Draft) (string, error) {
	if d.Account == "" {
		return "", nil
	}
	a, err := s.SignedInAccount(r)
	if err != nil {
		return "", err
	}
	if a != nil && a.Handle == d.Account {
		return a.Handle, nil
	}
	token, _, err := s.TokenAccount(w, r) // the zero kit.UploaderID without a token
	if err != nil {
		return "", err
	}
	if token.Handle != d.Account {
		return "", errNotPublisher
	}
	return token.Handle, nil
}

// signInToPublish is the preview of a draft its account must sign in to
// publish: 403, the fields as typed, what to do, and a link to sign in
// that returns to the preview. The draft stays as it is.
func signInToPublish(d *store.Draft, fields map[string]string) draftAnswer {
	return draftAnswer{status: http.StatusForbidden, fields: fields, signInAs: d.Account,
		refused: problem.New(problem.Invalid, "", "draft.error.sign_in", map[string]any{"Handle": d.Account})}
}
