package upload

import (
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// DeleteRun is DELETE /api/v1/runs/{id}: the submitter whose token
// uploaded a run may delete it (204). Another account, or anyone for an
// anonymous run, gets 403; no token 401.
func (s *Handlers) DeleteRun(w http.ResponseWriter, r *http.Request) error {
	handle, err := s.signedIn(w, r)
	if err != nil {
		return err
	}
	id := chi.URLParam(r, "id")
	if !kit.ValidID(id) {
		return kit.ErrNotFound
	}
	err = s.store.DeleteOwnedRun(r.Context(), id, handle)
	if errors.Is(err, store.ErrNotOwner) {
		return kit.ErrNotOwner
	}
	if err != nil {
		return err
	}
	s.Log.Info("run deleted by its submitter", "run", id, "submitter", handle)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// BenchUpload is POST /api/bench/runs, lil-bench's upload: the gzip JSON
// document with its Bearer token. lil-bench accepts any 2xx JSON and prints
// its url; a resend of the same run_id answers 200 with the first run.
func (s *Handlers) BenchUpload(w http.ResponseWriter, r *http.Request) error {
	return s.CreateRun(w, r)
}

// BenchWhoami is GET /api/bench/whoami: {"login": handle} for a valid token,
// 401 without one or with an unknown one, 403 for a revoked one.
func (s *Handlers) BenchWhoami(w http.ResponseWriter, r *http.Request) error {
	handle, err := s.signedIn(w, r)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return kit.WriteJSON(w, http.StatusOK, map[string]string{"login": handle})
}

// signedIn is account for requests that need a token: without one the
// answer is 401 with the challenge that tells a client to send one.
func (s *Handlers) signedIn(w http.ResponseWriter, r *http.Request) (string, error) {
	id, _, err := s.TokenAccount(w, r)
	if err != nil {
		return "", err
	}
	if id.Handle == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="speedmatrix"`)
		return "", kit.ErrNoToken
	}
	return id.Handle, nil
}
