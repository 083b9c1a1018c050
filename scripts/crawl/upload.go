package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// secrets are what each database made for the submitters (tokens and
// links are random): the upload tokens of crawl-solo (in no organisation,
// an admin) and crawl-member (of crawl-lab), and the one-time password
// reset secrets that sign them in in a browser.
type secrets struct {
	solo, member, memberReset, soloReset string
}

// readSecrets reads SOLO,MEMBER,MEMBER_RESET,SOLO_RESET.
func readSecrets(s string) secrets {
	f := append(strings.Split(s, ","), "", "", "", "")
	unescape := func(s string) string { // as the reset link has it
		v, _ := url.QueryUnescape(s)
		return v
	}
	return secrets{solo: f[0], member: f[1], memberReset: unescape(f[2]), soloReset: unescape(f[3])}
}

// sample is one file to upload and the form fields that go with it.
type sample struct {
	path   string
	fields map[string]string
}

// sampleKinds are the files uploaded; the others (notes, tables, the
// generator of the hostile corpus) are not uploads.
var sampleKinds = []string{".json", ".jsonl", ".gz", ".zip", ".tar", ".tgz"}

// samples lists the files under dirs, in order. A NAME.meta.json beside a
// NAME.bench.json holds the upload form's fields for it, and is no upload
// itself.
func samples(dirs []string) ([]sample, error) {
	var out []sample
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, ".meta.json") ||
				!slices.Contains(sampleKinds, filepath.Ext(path)) {
				return err
			}
			s := sample{path: path}
			if base, ok := strings.CutSuffix(path, ".bench.json"); ok {
				s.fields, err = metaFields(base + ".meta.json")
			}
			out = append(out, s)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// metaFields reads a meta file's fields as a form sends them; no file is
// no fields.
func metaFields(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fields := map[string]string{}
	for k, v := range m {
		switch v := v.(type) {
		case float64:
			fields[k] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			fields[k] = fmt.Sprint(v)
		}
	}
	return fields, nil
}

// setupFields are what an uploader types when a file does not say its
// hardware, engine or model: given again to a file refused without them.
var setupFields = map[string]string{
	"hardware_type": "discrete_gpu", "gpu_name": "H100 SXM 80GB", "gpu_count": "1", "vram_gb": "80",
	"engine_name": "vllm", "engine_version": "0.10.1", "model_id": "Qwen/Qwen3-8B",
}

// uploader posts to both servers, recording each pair of answers.
type uploader struct {
	c    *config
	rec  *recorder
	keys [2]secrets // the old server's, the new one's
	api  browser    // no cookies
	// anonymous uploads through the form; member and admin sign in.
	anonymous, member, admin browser
	n                        int
	runs                     []string // the runs the answers named, in order
	memberRuns               []string // those the member uploaded
}

// browser is one visitor's client on each server, with its cookies.
type browser [2]*http.Client

func newBrowser() browser {
	var b browser
	for i := range b {
		jar, _ := cookiejar.New(nil)
		b[i] = newClient(jar)
	}
	return b
}

// both is one request as each server is asked it: the same one, or with
// that server's own token, draft or secret.
type both [2]request

func same(rq request) both { return both{rq, rq} }

// newUploader is an uploader whose answers go to DIR/NAME.jsonl.
func newUploader(c *config, name string, keys [2]secrets) (*uploader, error) {
	rec, err := newRecorder(c.out, name)
	if err != nil {
		return nil, err
	}
	c.old.uploads, c.new.uploads = true, true
	return &uploader{c: c, rec: rec, keys: keys, api: browser{newClient(nil), newClient(nil)},
		anonymous: newBrowser(), member: newBrowser(), admin: newBrowser()}, nil
}

// uploadAll uploads every sample of dirs to both servers, each through
// one door (the browser's form for every third, the API for the others),
// then again raw through the API (the same document: found, not stored
// twice), and a few more: with tokens, several files as one sweep, a dry
// run, a deletion. It writes the runs the old server's answers named to
// DIR/runs.txt, for the crawl. memberFormSample is left to the signed-in
// member (accountsAll).
func uploadAll(c *config, dirs []string, keys [2]secrets) error {
	list, err := samples(dirs)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return fmt.Errorf("no sample files under %v", dirs)
	}
	u, err := newUploader(c, "uploads", keys)
	if err != nil {
		return err
	}
	if err := u.withTokens(list); err != nil {
		return err
	}
	for i, s := range list {
		if filepath.Base(s.path) == memberFormSample {
			continue // the signed-in member's, later (accounts)
		}
		if i%3 == 0 {
			err = u.viaForm(s, u.anonymous)
		} else {
			_, err = u.viaAPI(s)
		}
		if err == nil {
			err = u.raw(s, "", "POST /api/v1/runs raw")
		}
		if err != nil {
			return err
		}
	}
	if err := u.sweepsAndDryRuns(list); err != nil {
		return err
	}
	if err := u.writeRuns(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "crawl: %d uploads asked, %d runs named\n", u.n, len(u.runs))
	return u.rec.summary(os.Stdout)
}

// writeRuns adds the runs the old server's answers named to
// DIR/runs.txt, and the member's to DIR/member-runs.txt.
func (u *uploader) writeRuns() error {
	for name, ids := range map[string][]string{"runs.txt": u.runs, "member-runs.txt": u.memberRuns} {
		f, err := os.OpenFile(filepath.Join(u.c.out, name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		for _, id := range ids {
			fmt.Fprintln(f, id)
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// send asks both servers with br's cookies, the old one first (their
// databases then take the same documents in the same order), records the
// pair and returns it.
func (u *uploader) send(name, pat string, rq both, br browser) (*pair, error) {
	u.n++
	p := &pair{N: u.n, Name: name, Pattern: pat}
	p.Old = do(br[0], u.c.old, u.c.host, rq[0])
	p.New = do(br[1], u.c.new, u.c.host, rq[1])
	u.named(p.Old)
	return p, u.rec.add(p)
}

// withAuth is rq with each server's Authorization: Bearer token.
func withAuth(rq request, tokens [2]string) both {
	var b both
	for i := range b {
		b[i] = rq
		b[i].header = rq.header.Clone()
		if b[i].header == nil {
			b[i].header = http.Header{}
		}
		b[i].header.Set("Authorization", "Bearer "+tokens[i])
	}
	return b
}

// named notes the run an answer names: the id of the API's JSON, the
// address a publication leads to.
func (u *uploader) named(a answer) {
	var created struct{ ID string }
	id := ""
	if loc := a.Header["Location"]; strings.Contains(loc, "/runs/") {
		id = strings.Trim(loc[strings.LastIndex(loc, "/runs/")+len("/runs/"):], "/")
		id, _, _ = strings.Cut(id, "#")
		id, _, _ = strings.Cut(id, "?")
	} else if json.Unmarshal(a.raw, &created) == nil {
		id = created.ID
	}
	if id != "" && validRunID(id) && !slices.Contains(u.runs, id) {
		u.runs = append(u.runs, id)
	}
}

func validRunID(id string) bool {
	return len(id) >= 10 && len(id) <= 16 && strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") == ""
}

// viaAPI posts s as a multipart form to the API, and again with the setup
// fields when either server refused it as invalid without them; with
// tokens when they are given (one for each server).
func (u *uploader) viaAPI(s sample, tokens ...string) (*pair, error) {
	pat := "POST /api/v1/runs multipart"
	rq := func(fields map[string]string) both {
		r := multipartRequest("/api/v1/runs", fields, s.path)
		if len(tokens) == 2 {
			return withAuth(r, [2]string{tokens[0], tokens[1]})
		}
		return same(r)
	}
	if len(tokens) == 2 {
		pat += " token"
	}
	p, err := u.send(s.path, pat, rq(s.fields), u.api)
	if err != nil || !refused(p) {
		return p, err
	}
	return u.send(s.path, pat+" + setup fields", rq(merged(s.fields, setupFields)), u.api)
}

// viaForm uploads s as br does: the form, the draft's preview, the
// publication.
func (u *uploader) viaForm(s sample, br browser) error {
	pat := "POST /upload"
	if br[0] != u.anonymous[0] {
		pat += " signed in"
	}
	rq := browserPost(multipartRequest("/upload", s.fields, s.path))
	p, err := u.send(s.path, pat, same(rq), br)
	if err == nil && refused(p) {
		rq = browserPost(multipartRequest("/upload", merged(s.fields, setupFields), s.path))
		p, err = u.send(s.path, pat+" + setup fields", same(rq), br)
	}
	if err != nil || p.Old.Status != http.StatusSeeOther || p.New.Status != http.StatusSeeOther {
		return err
	}
	// Each server's draft has its own id: each browser follows its own.
	draft := [2]string{location(p.Old), location(p.New)}
	preview := both{{method: http.MethodGet, path: draft[0]}, {method: http.MethodGet, path: draft[1]}}
	if _, err := u.send(s.path, "GET /upload/drafts/{id}", preview, br); err != nil {
		return err
	}
	publish := browserPost(request{method: http.MethodPost, body: []byte("action=publish"),
		header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}})
	pub := both{publish, publish}
	pub[0].path, pub[1].path = draft[0], draft[1]
	_, err = u.send(s.path, "POST /upload/drafts/{id} publish", pub, br)
	return err
}

// location is an answer's Location as a path (drafts' ids as sent).
func location(p answer) string {
	loc := p.location
	if i := strings.Index(loc, "/upload/"); i >= 0 {
		return loc[i:]
	}
	return loc
}

// raw posts s's bytes as the body, with the media type of its name.
func (u *uploader) raw(s sample, query, pat string) error {
	b, err := os.ReadFile(s.path)
	if err != nil {
		return err
	}
	rq := request{method: http.MethodPost, path: "/api/v1/runs" + query, body: b,
		header: http.Header{"Content-Type": {mediaType(s.path)}}}
	_, err = u.send(s.path, pat, same(rq), u.api)
	return err
}

// withTokens uploads the lil-bench samples through lil-bench's door with
// the solo submitter's token, and two samples with the member's, the
// second of which it then deletes; before anything anonymous, so these
// runs are theirs.
func (u *uploader) withTokens(list []sample) error {
	solo := [2]string{u.keys[0].solo, u.keys[1].solo}
	member := [2]string{u.keys[0].member, u.keys[1].member}
	if solo[0] == "" || member[0] == "" {
		return nil
	}
	for _, s := range list {
		name := filepath.Base(s.path)
		switch {
		case strings.HasPrefix(name, "lil_bench_result_"):
			b, err := os.ReadFile(s.path)
			if err != nil {
				return err
			}
			rq := request{method: http.MethodPost, path: "/api/bench/runs", body: b,
				header: http.Header{"Content-Type": {"application/json"}}}
			if _, err := u.send(s.path, "POST /api/bench/runs token", withAuth(rq, solo), u.api); err != nil {
				return err
			}
		case name == "benchmark_results_0.7.8.json", name == deletedSample:
			p, err := u.viaAPI(s, member[0], member[1])
			if err != nil {
				return err
			}
			if p.Old.Status != http.StatusCreated {
				continue
			}
			id := u.runs[len(u.runs)-1]
			if name != deletedSample {
				u.memberRuns = append(u.memberRuns, id)
				continue
			}
			del := withAuth(request{method: http.MethodDelete, path: "/api/v1/runs/" + id}, member)
			if _, err := u.send(id, "DELETE /api/v1/runs/{id} token", del, u.api); err != nil {
				return err
			}
		}
	}
	return nil
}

// deletedSample is the sample the member uploads with a token and deletes
// through the API: its report is then gone (410).
const deletedSample = "llama_bench.json"

// sweepsAndDryRuns posts several files as one run (the files of one sweep,
// and files of different tools, which must be refused) and dry runs of the
// first three samples.
func (u *uploader) sweepsAndDryRuns(list []sample) error {
	groups := map[string][]string{}
	for _, s := range list {
		dir := filepath.Base(filepath.Dir(s.path))
		groups[dir] = append(groups[dir], s.path)
	}
	for _, dir := range slices.Sorted(maps.Keys(groups)) {
		files := groups[dir]
		if len(files) > 3 {
			files = files[:3]
		}
		if len(files) < 2 {
			continue
		}
		rq := same(multipartRequest("/api/v1/runs", nil, files...))
		if _, err := u.send(strings.Join(files, " + "), "POST /api/v1/runs sweep", rq, u.api); err != nil {
			return err
		}
	}
	for _, s := range list[:min(3, len(list))] {
		if err := u.raw(s, "?dry_run=1", "POST /api/v1/runs?dry_run=1 raw"); err != nil {
			return err
		}
	}
	return nil
}

// refused is whether either server refused an upload as invalid (422),
// which setup fields may cure.
func refused(p *pair) bool {
	return p.Old.Status == http.StatusUnprocessableEntity || p.New.Status == http.StatusUnprocessableEntity
}

func merged(a, b map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range b {
		m[k] = v
	}
	for k, v := range a {
		m[k] = v
	}
	return m
}

// browserPost is rq as a browser on the site sends it: the cross-origin
// check lets it through.
func browserPost(rq request) request {
	if rq.header == nil {
		rq.header = http.Header{}
	}
	rq.header.Set("Sec-Fetch-Site", "same-origin")
	return rq
}

// multipartRequest is a POST to path of a form with fields and the files
// (parts named "file"), fields first, both in a fixed order.
func multipartRequest(path string, fields map[string]string, files ...string) request {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.SetBoundary("speedmatrix-crawldiff-boundary")
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		_ = mw.WriteField(k, fields[k])
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			b = []byte(err.Error())
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, filepath.Base(f)))
		h.Set("Content-Type", mediaType(f))
		w, _ := mw.CreatePart(h)
		_, _ = w.Write(b)
	}
	_ = mw.Close()
	return request{method: http.MethodPost, path: path, body: body.Bytes(),
		header: http.Header{"Content-Type": {mw.FormDataContentType()}}}
}

// mediaType is the media type a browser gives a file of that name.
func mediaType(name string) string {
	switch filepath.Ext(name) {
	case ".gz", ".tgz":
		return "application/gzip"
	case ".zip":
		return "application/zip"
	case ".tar":
		return "application/x-tar"
	default:
		return "application/json"
	}
}
