package account

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/endpoints"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// GitHubApp is the site's OAuth app on GitHub (GITHUB_CLIENT_ID,
// GITHUB_CLIENT_SECRET); both set offer "Sign in with GitHub".
type GitHubApp struct {
	ClientID, ClientSecret string
}

// On says whether the app is set: both its id and its secret.
func (app GitHubApp) On() bool { return app.ClientID != "" && app.ClientSecret != "" }

// GitHubEndpoints are GitHub's addresses; tests put a fake server there.
type GitHubEndpoints struct {
	AuthURL, TokenURL, APIURL string
}

// githubAuth signs in with GitHub.
type githubAuth struct {
	app       GitHubApp
	endpoints GitHubEndpoints
	client    *http.Client
	// callback is BASE_URL/login/github/callback, fixed at start: GitHub
	// sends the code there, so it never comes from a request's Host.
	callback string
}

// newGitHubAuth is GitHub sign-in for app, its callback under baseURL;
// nil when app is not set.
func newGitHubAuth(app GitHubApp, baseURL string, e *GitHubEndpoints) *githubAuth {
	if !app.On() {
		return nil
	}
	g := &githubAuth{app: app, client: &http.Client{Timeout: 15 * time.Second}, callback: baseURL + "/login/github/callback",
		endpoints: GitHubEndpoints{AuthURL: endpoints.GitHub.AuthURL, TokenURL: endpoints.GitHub.TokenURL, APIURL: "https://api.github.com"}}
	if e != nil {
		g.endpoints = *e
	}
	return g
}

// oauthCookie carries the state, the PKCE verifier and what the sign-in
// is for from the start to the callback, in this browser only; it lives
// for oauthLife.
const (
	oauthCookie = "oauth"
	oauthLife   = 10 * time.Minute
)

// oauthConfig is the app's OAuth configuration, the same for every
// request: the callback is under BASE_URL.
func (g *githubAuth) oauthConfig() *oauth2.Config {
	return &oauth2.Config{ClientID: g.app.ClientID, ClientSecret: g.app.ClientSecret,
		Endpoint:    oauth2.Endpoint{AuthURL: g.endpoints.AuthURL, TokenURL: g.endpoints.TokenURL, AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: g.callback, Scopes: []string{"read:user", "user:email"}}
}

// oauthFlow is what the cookie remembers: mode is "login" or "link".
type oauthFlow struct {
	State, Verifier, Mode, Next string
}

// GithubLogin is POST /login/github: off to GitHub to sign in.
func (s *Handlers) GithubLogin(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	return s.githubStart(w, r, oauthFlow{Mode: "login", Next: kit.LocalNext(r.PostForm.Get("next"))})
}

// GithubLink is POST /account/github/link: off to GitHub to link it.
func (s *Handlers) GithubLink(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.RequireAccount(w, r); err != nil {
		return err
	}
	return s.githubStart(w, r, oauthFlow{Mode: "link", Next: "/account"})
}

// githubStart sends the browser to GitHub with a fresh state and PKCE
// challenge, both remembered in the cookie the callback checks.
func (s *Handlers) githubStart(w http.ResponseWriter, r *http.Request, f oauthFlow) error {
	if s.github == nil {
		return kit.ErrNotFound
	}
	state, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	f.State, f.Verifier = state, oauth2.GenerateVerifier()
	raw, _ := json.Marshal(f)
	s.SetCookie(w, r, oauthCookie, base64.RawURLEncoding.EncodeToString(raw), time.Now().Add(oauthLife))
	u := s.github.oauthConfig().AuthCodeURL(f.State, oauth2.S256ChallengeOption(f.Verifier))
	http.Redirect(w, r, u, http.StatusSeeOther)
	return nil
}

var (
	errOAuthState = &kit.HTTPError{Status: http.StatusBadRequest, Key: "acct.error.github_state"}
	errGitHub     = &kit.HTTPError{Status: http.StatusBadGateway, Key: "acct.error.github"}
)

// githubUser is what the site keeps of a GitHub user: the id, the login
// (a suggested handle) and the primary address when GitHub verified it.
type githubUser struct {
	ID    int64
	Login string
	Email string
}

// GithubCallback is GET /login/github/callback: the state must be this
// browser's, GitHub must have said yes, and the code must come with the
// verifier; then the GitHub user signs in, is linked, or gets an account.
func (s *Handlers) GithubCallback(w http.ResponseWriter, r *http.Request) error {
	if s.github == nil {
		return kit.ErrNotFound
	}
	f, ok := s.takeOAuthFlow(w, r)
	q := r.URL.Query()
	if !ok || subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(f.State)) != 1 {
		return errOAuthState
	}
	if q.Get("error") != "" || q.Get("code") == "" {
		s.Log.Info("GitHub sign-in refused", "error", q.Get("error"))
		return errGitHub
	}
	ctx := context.WithValue(r.Context(), oauth2.HTTPClient, s.github.client)
	tok, err := s.github.oauthConfig().Exchange(ctx, q.Get("code"), oauth2.VerifierOption(f.Verifier))
	if err != nil {
		s.Log.Warn("GitHub token exchange failed", "err", err)
		return errGitHub
	}
	u, err := s.fetchGitHubUser(ctx, tok)
	if err != nil {
		s.Log.Warn("GitHub user not read", "err", err)
		return errGitHub
	}
	if f.Mode == "link" {
		return s.githubLinkDone(w, r, u)
	}
	// Checked again where it is followed: the cookie is the browser's to
	// change, and it may have been set by an older build's laxer check.
	return s.githubSignIn(w, r, u, kit.LocalNext(f.Next))
}

// takeOAuthFlow reads and clears the flow cookie: it works once.
func (s *Handlers) takeOAuthFlow(w http.ResponseWriter, r *http.Request) (oauthFlow, bool) {
	var f oauthFlow
	c, err := r.Cookie(oauthCookie)
	if err != nil {
		return f, false
	}
	s.SetCookie(w, r, oauthCookie, "", time.Time{})
	raw, err := base64.RawURLEncoding.DecodeString(c.Value)
	if err != nil || json.Unmarshal(raw, &f) != nil || f.State == "" {
		return f, false
	}
	return f, true
}

// fetchGitHubUser reads /user and /user/emails with the token.
func (s *Handlers) fetchGitHubUser(ctx context.Context, tok *oauth2.Token) (githubUser, error) {
	var u githubUser
	var user struct {
		ID    int64  `json:"id"`
		Login string `json:"login"`
	}
	if err := s.githubGet(ctx, tok, "/user", &user); err != nil {
		return u, err
	}
	if user.ID == 0 {
		return u, errors.New("GitHub named no user")
	}
	var emails []struct {
		Email             string `json:"email"`
		Primary, Verified bool
	}
	if err := s.githubGet(ctx, tok, "/user/emails", &emails); err != nil {
		return u, err
	}
	u.ID, u.Login = user.ID, user.Login
	for _, e := range emails {
		if e.Primary && e.Verified && accounts.ValidEmail(e.Email) {
			u.Email = e.Email
		}
	}
	return u, nil
}

// githubGet reads one JSON answer of GitHub's API.
func (s *Handlers) githubGet(ctx context.Context, tok *oauth2.Token, path string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(s.github.endpoints.APIURL, "/")+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	tok.SetAuthHeader(req)
	resp, err := s.github.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GitHub %s: %s", path, resp.Status)
	}
	return json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<20)).Decode(into)
}

func (u githubUser) identity() store.Identity {
	return store.Identity{Provider: "github", UserID: fmt.Sprint(u.ID)}
}
