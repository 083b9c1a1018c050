package site_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// newConfigSite is newSite with the config changed by edit (a base URL,
// a policy, a logger). Its BaseURL is the test server's own origin, as a
// deployment's BASE_URL names the site (mail and GitHub sign-in need one),
// unless edit sets another.
func newConfigSite(t testing.TB, edit func(*site.Config)) *testSite {
	t.Helper()
	st, dbURL := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	cfg := site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, BaseURL: "http://" + srv.Listener.Addr().String()}
	if edit != nil {
		edit(&cfg)
	}
	srv.Config.Handler = site.New(cfg)
	srv.Start()
	t.Cleanup(srv.Close)
	return &testSite{Server: srv, store: st, url: dbURL}
}

// visitor is one browser: a cookie jar, redirects not followed, and the
// Fetch metadata a browser sends for its own site's forms.
type visitor struct {
	t   testing.TB
	s   *testSite
	jar *cookiejar.Jar
	c   *http.Client
}

func newVisitor(t testing.TB, s *testSite) *visitor {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &visitor{t: t, s: s, jar: jar, c: c}
}

// do sends a request with headers ("Name: value"); a form body is posted
// url-encoded.
func (v *visitor) do(method, path string, form url.Values, headers ...string) (*http.Response, string) {
	v.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, v.s.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for _, h := range headers {
		k, val, _ := strings.Cut(h, ": ")
		if k == "Host" { // the client sends req.Host, not the header
			req.Host = val
		}
		req.Header.Set(k, val)
	}
	resp, err := v.c.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp, buf.String()
}

func (v *visitor) get(path string, headers ...string) (*http.Response, string) {
	v.t.Helper()
	return v.do("GET", path, nil, headers...)
}

func (v *visitor) post(path string, form url.Values, headers ...string) (*http.Response, string) {
	v.t.Helper()
	return v.do("POST", path, form, headers...)
}

// session is the browser's session cookie value ("" when none).
func (v *visitor) session() string {
	u, _ := url.Parse(v.s.URL)
	for _, c := range v.jar.Cookies(u) {
		if c.Name == "session" {
			return c.Value
		}
	}
	return ""
}

// signup creates the account and checks it lands on /account signed in.
func (v *visitor) signup(handle, email, password string) {
	v.t.Helper()
	resp, body := v.post("/signup", url.Values{"handle": {handle}, "email": {email}, "password": {password}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account" || v.session() == "" {
		v.t.Fatalf("sign-up of %s = %d %s (cookie %q): %.300s", handle, resp.StatusCode, resp.Header.Get("Location"), v.session(), body)
	}
}

// login signs in and returns the answer.
func (v *visitor) login(email, password, next string) *http.Response {
	v.t.Helper()
	resp, _ := v.post("/login", url.Values{"email": {email}, "password": {password}, "next": {next}})
	return resp
}

// newTokenRe finds the token shown once on the token page.
var newTokenRe = regexp.MustCompile(`<textarea id="new-token"[^>]*>(lilb_[A-Za-z0-9_-]+)</textarea>`)

// createToken makes a token on /account/tokens and returns it.
func (v *visitor) createToken() string {
	v.t.Helper()
	resp, body := v.post("/account/tokens", url.Values{})
	m := newTokenRe.FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil {
		v.t.Fatalf("token creation = %d, no token shown: %.400s", resp.StatusCode, body)
	}
	return m[1]
}

// postRoutes are the router's POST addresses outside the API.
func postRoutes(t testing.TB, s *testSite) map[string]bool {
	t.Helper()
	posts := map[string]bool{}
	err := chi.Walk(s.Config.Handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		// /static/* answers every method with files; it changes nothing.
		if method == http.MethodPost && !strings.HasPrefix(route, "/api/") && route != "/static/*" {
			posts[route] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return posts
}

// upload sends a file through the form in its two steps, as a browser
// does: the file (and any fields) to /upload, then, when that leads to a
// preview, the same fields with "publish" to the draft. It returns the last
// answer: the refusal of either step, or the 303 to the report.
func (v *visitor) upload(body []byte, contentType string) (*http.Response, string) {
	v.t.Helper()
	req, _ := http.NewRequest("POST", v.s.URL+"/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := v.c.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	draft := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(draft, "/upload/drafts/") {
		return resp, buf.String()
	}
	form := multipartFields(v.t, body, contentType)
	form.Set("action", "publish")
	return v.post(draft, form)
}

// multipartFields are the form fields (not files) of a multipart body.
func multipartFields(t testing.TB, body []byte, contentType string) url.Values {
	t.Helper()
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		t.Fatal(err)
	}
	form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	return url.Values(form.Value)
}

// seedVerified stores the seed run as its submitter Sandberg uploaded it
// on the seed site: with Sandberg's account, so the name is verified.
func (s *testSite) seedVerified(t testing.TB) string {
	t.Helper()
	if err := s.store.CreateSubmitter(context.Background(), "Sandberg", ""); err != nil {
		t.Fatal(err)
	}
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	u.Account = "Sandberg"
	res, err := ingest.Ingest(context.Background(), s.store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// mustConn is a connection to the site's database, closed with t.
func mustConn(t testing.TB, s *testSite) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), s.url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}
