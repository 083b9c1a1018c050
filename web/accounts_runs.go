package web

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// apiDeleteRun is DELETE /api/v1/runs/{id}: the submitter whose token
// uploaded a run may delete it (204). Another account, or anyone for an
// anonymous run, gets 403; no token 401.
func (s *Server) apiDeleteRun(w http.ResponseWriter, r *http.Request) error {
	handle, err := s.signedIn(w, r)
	if err != nil {
		return err
	}
	id := chi.URLParam(r, "id")
	if !validID(id) {
		return errNotFound
	}
	err = s.store.DeleteOwnedRun(r.Context(), id, handle)
	if errors.Is(err, store.ErrNotOwner) {
		return errNotOwner
	}
	if err != nil {
		return err
	}
	s.log.Info("run deleted by its submitter", "run", id, "submitter", handle)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// benchUpload is POST /api/bench/runs, lil-bench's upload: the gzip JSON
// document with its Bearer token. lil-bench accepts any 2xx JSON and prints
// its url; a resend of the same run_id answers 200 with the first run.
func (s *Server) benchUpload(w http.ResponseWriter, r *http.Request) error {
	return s.apiCreateRun(w, r)
}

// benchWhoami is GET /api/bench/whoami: {"login": handle} for a valid token,
// 401 without one or with an unknown one, 403 for a revoked one.
func (s *Server) benchWhoami(w http.ResponseWriter, r *http.Request) error {
	handle, err := s.signedIn(w, r)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, map[string]string{"login": handle})
}

// signedIn is account for requests that need a token: without one the
// answer is 401 with the challenge that tells a client to send one.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request) (string, error) {
	id, _, err := s.account(w, r)
	if err != nil {
		return "", err
	}
	if id.handle == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="speedmatrix"`)
		return "", errNoToken
	}
	return id.handle, nil
}
