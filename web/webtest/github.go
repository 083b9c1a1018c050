package webtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// GitHub is an OAuth server and API that signs in whoever user is,
// checking the code, the client secret and the PKCE verifier.
type GitHub struct {
	*httptest.Server
	mu        sync.Mutex
	challenge string // of the last authorize URL the site made
	user      map[string]any
	emails    []map[string]any
}

// NewGitHub starts a fake GitHub, closed with t.
func NewGitHub(t *testing.T) *GitHub {
	f := &GitHub{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		f.mu.Lock()
		ok := r.PostForm.Get("code") == "good-code" && r.PostForm.Get("client_secret") == "gh-secret" &&
			base64.RawURLEncoding.EncodeToString(sum[:]) == f.challenge
		f.mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"bad_verification_code"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"gho_fake","token_type":"bearer","scope":"read:user,user:email"}`))
	})
	api := func(get func() any) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer gho_fake" {
				http.Error(w, "no token", http.StatusUnauthorized)
				return
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			_ = json.NewEncoder(w).Encode(get())
		}
	}
	mux.HandleFunc("GET /api/user", api(func() any { return f.user }))
	mux.HandleFunc("GET /api/user/emails", api(func() any { return f.emails }))
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// As makes the fake sign in GitHub user id with login and, when email is
// not empty, that verified primary address.
func (f *GitHub) As(id int, login, email string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user = map[string]any{"id": id, "login": login}
	f.emails = []map[string]any{{"email": "other@example.org", "primary": false, "verified": true}}
	if email != "" {
		f.emails = append(f.emails, map[string]any{"email": email, "primary": true, "verified": true})
	}
}

// Start posts to a GitHub button and returns the state the site sent to
// the authorize URL, after checking that URL.
func (f *GitHub) Start(t *testing.T, v *Visitor, path string, form url.Values) string {
	t.Helper()
	resp, body := v.Post(path, form)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || loc == nil || !strings.HasPrefix(loc.String(), f.URL+"/login/oauth/authorize?") {
		t.Fatalf("POST %s = %d %s: %.300s", path, resp.StatusCode, resp.Header.Get("Location"), body)
	}
	q := loc.Query()
	if q.Get("client_id") != "gh-id" || q.Get("code_challenge_method") != "S256" || q.Get("redirect_uri") != v.s.URL+"/login/github/callback" || q.Get("state") == "" {
		t.Fatalf("authorize URL = %s", loc)
	}
	f.mu.Lock()
	f.challenge = q.Get("code_challenge")
	f.mu.Unlock()
	return q.Get("state")
}

// SetChallenge makes the fake expect the PKCE challenge of another
// verifier, as if the site had sent it, for tests that forge a flow.
func (f *GitHub) SetChallenge(challenge string) {
	f.mu.Lock()
	f.challenge = challenge
	f.mu.Unlock()
}
