package kit

import (
	"net/http"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// ClaimCookiePrefix names the claim cookie of one run ("claim-k3x9q2"):
// proof that this browser uploaded it anonymously. Only its hash is kept.
const ClaimCookiePrefix = "claim-"

// claimLife is how long a run can be claimed after its upload.
const claimLife = store.ClaimWindow * time.Second

// GiveClaim sets the claim cookie of anonymous run id, sent back only to
// the account pages.
func (s *Server) GiveClaim(w http.ResponseWriter, r *http.Request, id string) error {
	secret, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	if err := s.store.SetClaim(r.Context(), id, accounts.Hash(secret)); err != nil {
		return err
	}
	s.PutCookie(w, r, &http.Cookie{Name: ClaimCookiePrefix + id, Value: secret, Path: "/account", MaxAge: int(claimLife / time.Second)})
	return nil
}

// Claimable lists the runs whose claim cookies the browser sent.
func Claimable(r *http.Request) []string {
	var ids []string
	for _, c := range r.Cookies() {
		if id, ok := strings.CutPrefix(c.Name, ClaimCookiePrefix); ok && ValidID(id) && c.Value != "" {
			ids = append(ids, id)
		}
	}
	return ids
}
