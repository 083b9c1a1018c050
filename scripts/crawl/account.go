package main

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// password is what the crawl's two submitters choose when they sign in.
const password = "crawl-diff-password-2026"

// memberFormSample is the sample the signed-in member uploads through the
// form, before anyone uploads it anonymously.
const memberFormSample = "guidellm_report.json"

// accountsAll is what signed-in visitors do, after the uploads and the
// comparison of the rows they stored: the member and the admin sign in,
// the member uploads memberFormSample through the form, the admin hides
// as a moderator the member's first run (DIR/member-runs.txt), the member
// tries to show it again, hides, shows and edits the one just uploaded,
// the admin hides the first again, and their account pages are asked. The runs named are added to
// DIR/runs.txt.
func accountsAll(c *config, dirs []string, keys [2]secrets) error {
	list, err := samples(dirs)
	if err != nil {
		return err
	}
	u, err := newUploader(c, "accounts", keys)
	if err != nil {
		return err
	}
	if b, err := os.ReadFile(filepath.Join(c.out, "member-runs.txt")); err == nil {
		u.memberRuns = strings.Fields(string(b))
	}
	if err := u.signIn(list); err != nil {
		return err
	}
	if err := u.accountPages(); err != nil {
		return err
	}
	u.memberRuns = nil // written already, and read by no one after
	if err := u.writeRuns(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "crawl: %d requests of signed-in visitors\n", u.n)
	return u.rec.summary(os.Stdout)
}

// signIn signs the member and the admin in on both servers with their
// reset secrets, and has the member upload memberFormSample through the
// form: a draft that publishes under the account signed in.
func (u *uploader) signIn(list []sample) error {
	if u.keys[0].memberReset == "" || u.keys[0].soloReset == "" {
		return fmt.Errorf("no password reset secrets")
	}
	for _, who := range []struct {
		name  string
		br    browser
		reset [2]string
	}{
		{"crawl-member", u.member, [2]string{u.keys[0].memberReset, u.keys[1].memberReset}},
		{"crawl-solo", u.admin, [2]string{u.keys[0].soloReset, u.keys[1].soloReset}},
	} {
		var rq both
		for i := range rq {
			rq[i] = formPost("/account/reset", url.Values{"token": {who.reset[i]}, "password": {password}})
		}
		if _, err := u.send(who.name, "POST /account/reset", rq, who.br); err != nil {
			return err
		}
	}
	for _, s := range list {
		if filepath.Base(s.path) == memberFormSample {
			n := len(u.runs)
			err := u.viaForm(s, u.member)
			u.memberRuns = append(u.memberRuns, u.runs[n:]...)
			return err
		}
	}
	return nil
}

// accountPages has the admin hide the member's first run as a moderator,
// the member try to show it again, hide, show and edit the other, and
// then asks the account pages of both, and the runs' pages of everyone.
func (u *uploader) accountPages() error {
	if len(u.memberRuns) < 2 {
		return fmt.Errorf("the member's runs are missing (%v): an upload of theirs was refused", u.memberRuns)
	}
	first, last := u.memberRuns[0], u.memberRuns[len(u.memberRuns)-1]
	steps := []step{
		{u.admin, first, formPost("/admin/hide-run", url.Values{"target": {first}, "reason": {"a moderator's hide, by the crawl"}}), ""},
		{u.member, first, formPost("/account/runs/"+first+"/show", nil), ""},
		{u.member, last, formPost("/account/runs/"+last+"/hide", nil), ""},
		{u.member, last, formPost("/account/runs/"+last+"/show", nil), ""},
		{u.member, last, formPost("/account/runs/"+last+"/edit", url.Values{"driver": {"580.65.06"}, "os": {"Ubuntu 24.04"}}), ""},
		// Where the owner could show a moderated run again (before the
		// moderators' hide was a state of its own), the moderator hides it
		// again, so both sites list the same runs for the crawl.
		{u.admin, first, formPost("/admin/hide-run", url.Values{"target": {first}, "reason": {"hidden again, by the crawl"}}), "POST /admin/hide-run again"},
	}
	for _, p := range []string{"/account", "/account/runs", "/account/tokens", "/account/orgs", "/account/orgs/crawl-lab",
		"/account/runs/" + last + "/edit", "/upload", "/runs/" + first, "/runs/" + last} {
		steps = append(steps, step{u.member, p, request{method: http.MethodGet, path: p}, "GET " + pattern(p) + " member"})
	}
	for _, p := range []string{"/admin/audit", "/account", "/runs/" + first} {
		steps = append(steps, step{u.admin, p, request{method: http.MethodGet, path: p}, "GET " + pattern(p) + " admin"})
	}
	// A wrong password and a forgotten one, of a visitor signed out.
	steps = append(steps,
		step{u.anonymous, "/login", formPost("/login", url.Values{"email": {"nobody@crawl.example"}, "password": {"wrong-password-1234"}}), ""},
		step{u.anonymous, "/login/forgot", formPost("/login/forgot", url.Values{"email": {"nobody@crawl.example"}}), ""})
	for _, p := range []string{"/runs/" + first, "/runs/" + last, "/runs/" + last + ".json", "/api/v1/runs/" + first} {
		steps = append(steps, step{u.api, p, request{method: http.MethodGet, path: p}, "GET " + pattern(p) + " anonymous"})
	}
	for _, s := range steps {
		pat := s.fixed
		if pat == "" {
			pat = s.rq.method + " " + pattern(s.rq.path)
		}
		if _, err := u.send(s.id, pat, same(s.rq), s.br); err != nil {
			return err
		}
	}
	return nil
}

// step is one request of a signed-in visitor (or of none: u.api).
type step struct {
	br    browser
	id    string
	rq    request
	fixed string // the pattern, when not the address's own
}

// formPost is a browser's POST of a form to path.
func formPost(path string, v url.Values) request {
	return browserPost(request{method: http.MethodPost, path: path, body: []byte(v.Encode()),
		header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}})
}
