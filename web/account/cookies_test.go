package account_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// proxiedJar is a browser's cookie jar behind a proxy that terminates TLS:
// the test server speaks plain http, so the jar keeps every cookie as its
// Set-Cookie said (in set) and sends Secure ones back all the same.
type proxiedJar struct {
	http.CookieJar
	set *[]http.Cookie
}

func (j proxiedJar) SetCookies(u *url.URL, cookies []*http.Cookie) {
	for _, c := range cookies {
		*j.set = append(*j.set, *c)
		c.Secure = false
	}
	j.CookieJar.SetCookies(u, cookies)
}

// TestCookiesSecureBehindTLSProxy: with BASE_URL https and a server that
// sees plain http (TLS ends at the proxy), every cookie the site sets
// (the language, the session set and cleared, the drafts', a run's
// claim, GitHub's state) is Secure, HttpOnly and SameSite=Lax.
func TestCookiesSecureBehindTLSProxy(t *testing.T) {
	gh := webtest.NewGitHub(t)
	s := webtest.NewConfigSite(t, func(c *site.Config) {
		c.BaseURL = "https://speedmatrix.example"
		c.GitHub = site.GitHubApp{ClientID: "gh-id", ClientSecret: "gh-secret"}
		site.WithGitHubEndpoints(c, gh.URL+"/login/oauth/authorize", gh.URL+"/login/oauth/access_token", gh.URL+"/api")
	})
	var set []http.Cookie
	browser := func() *webtest.Visitor {
		v := webtest.NewVisitor(t, s)
		v.Client.Jar = proxiedJar{CookieJar: v.Jar, set: &set}
		return v
	}
	body, ct := webtest.MultipartBody(t, webtest.ReadFile(t, webtest.LilBenchFile), "run.json", nil)

	signedIn := browser()
	signedIn.Get("/?lang=de")
	signedIn.Signup("cookie", "cookie@example.com", webtest.Password)
	if resp, page := signedIn.Upload(body, ct); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("upload signed in = %d: %.300s", resp.StatusCode, page)
	}
	signedIn.Post("/login/github", url.Values{})
	signedIn.Post("/logout", url.Values{})
	anonymous := browser()
	other, otherCT := webtest.MultipartBody(t, webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"), "r.json", nil)
	if resp, page := anonymous.Upload(other, otherCT); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("anonymous upload = %d: %.300s", resp.StatusCode, page)
	}

	seen := map[string]bool{}
	for _, c := range set {
		name := c.Name
		if strings.HasPrefix(name, "claim-") {
			name = "claim-"
		}
		seen[name] = true
		if !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
			t.Errorf("cookie %s = %q, want Secure, HttpOnly, SameSite=Lax", c.Name, c.Raw)
		}
	}
	for _, name := range []string{"lang", "session", "sm_drafts", "claim-", "oauth"} {
		if !seen[name] {
			t.Errorf("no %s cookie was set (%v): the walk missed it", name, seen)
		}
	}
}

// TestCookiesSetInOnePlace: every cookie goes through the one helper that
// decides Secure, so a cookie added later is Secure too.
func TestCookiesSetInOnePlace(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "cookies.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code := string(src)
		if strings.Contains(code, "http.SetCookie(") || strings.Contains(code, `Add("Set-Cookie"`) || strings.Contains(code, `Set("Set-Cookie"`) {
			t.Errorf("%s sets a cookie itself: use putCookie (cookies.go)", f)
		}
	}
}
