package webtest

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// Visitor is one browser: a cookie jar, redirects not followed, and the
// Fetch metadata a browser sends for its own site's forms.
type Visitor struct {
	t testing.TB
	s *Site
	// Jar holds the visitor's cookies; tests plant cookies in it.
	Jar *cookiejar.Jar
	// Client sends the visitor's requests through Jar.
	Client *http.Client
}

// NewVisitor is a new browser of s with an empty cookie jar.
func NewVisitor(t testing.TB, s *Site) *Visitor {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &Visitor{t: t, s: s, Jar: jar, Client: c}
}

// Do sends a request with headers ("Name: value"); a form body is posted
// url-encoded.
func (v *Visitor) Do(method, path string, form url.Values, headers ...string) (*http.Response, string) {
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
	resp, err := v.Client.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp, buf.String()
}

// Get GETs path.
func (v *Visitor) Get(path string, headers ...string) (*http.Response, string) {
	v.t.Helper()
	return v.Do("GET", path, nil, headers...)
}

// Post posts form to path.
func (v *Visitor) Post(path string, form url.Values, headers ...string) (*http.Response, string) {
	v.t.Helper()
	return v.Do("POST", path, form, headers...)
}

// Session is the browser's session cookie value ("" when none).
func (v *Visitor) Session() string {
	u, _ := url.Parse(v.s.URL)
	for _, c := range v.Jar.Cookies(u) {
		if c.Name == "session" {
			return c.Value
		}
	}
	return ""
}

// Signup creates the account and checks it lands on /account signed in.
func (v *Visitor) Signup(handle, email, password string) {
	v.t.Helper()
	resp, body := v.Post("/signup", url.Values{"handle": {handle}, "email": {email}, "password": {password}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account" || v.Session() == "" {
		v.t.Fatalf("sign-up of %s = %d %s (cookie %q): %.300s", handle, resp.StatusCode, resp.Header.Get("Location"), v.Session(), body)
	}
}

// Login signs in and returns the answer.
func (v *Visitor) Login(email, password, next string) *http.Response {
	v.t.Helper()
	resp, _ := v.Post("/login", url.Values{"email": {email}, "password": {password}, "next": {next}})
	return resp
}

// TokenShown finds the token shown once on the token page.
var TokenShown = regexp.MustCompile(`<textarea id="new-token"[^>]*>(lilb_[A-Za-z0-9_-]+)</textarea>`)

// CreateToken makes a token on /account/tokens and returns it.
func (v *Visitor) CreateToken() string {
	v.t.Helper()
	resp, body := v.Post("/account/tokens", url.Values{})
	m := TokenShown.FindStringSubmatch(body)
	if resp.StatusCode != 200 || m == nil {
		v.t.Fatalf("token creation = %d, no token shown: %.400s", resp.StatusCode, body)
	}
	return m[1]
}

// Upload sends a file through the form in its two steps, as a browser
// does: the file (and any fields) to /upload, then, when that leads to a
// preview, the same fields with "publish" to the draft. It returns the last
// answer: the refusal of either step, or the 303 to the report.
func (v *Visitor) Upload(body []byte, contentType string) (*http.Response, string) {
	v.t.Helper()
	req, _ := http.NewRequest("POST", v.s.URL+"/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := v.Client.Do(req)
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
	return v.Post(draft, form)
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

// DraftAs sends a file to /upload as browser v (and its headers) and
// returns the preview's address: the first step only.
func (v *Visitor) DraftAs(file []byte, headers ...string) string {
	v.t.Helper()
	body, ct := MultipartBody(v.t, file, "run.json", nil)
	req, _ := http.NewRequest("POST", v.s.URL+"/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for _, h := range headers {
		k, val, _ := strings.Cut(h, ": ")
		req.Header.Set(k, val)
	}
	resp, err := v.Client.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	resp.Body.Close()
	draft := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(draft, "/upload/drafts/") {
		v.t.Fatalf("upload = %d → %q, want 303 to a preview", resp.StatusCode, draft)
	}
	return draft
}

// Password is the password the tests sign up with.
const Password = "correct horse battery staple"
