package account_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowserTokens: /bench/token leads through sign-in to the token page;
// a token made there works with lil-bench's protocol, is shown once with
// the command, listed by its prefix, and revoked from the page.
func TestBrowserTokens(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	if resp, _ := v.Get("/bench/token"); resp.StatusCode != 303 || resp.Header.Get("Location") != "/account/tokens" {
		t.Errorf("/bench/token = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := v.Get("/account/tokens"); resp.Header.Get("Location") != "/login?next=%2Faccount%2Ftokens" {
		t.Errorf("/account/tokens signed out → %s, want sign-in and back", resp.Header.Get("Location"))
	}
	v.Signup("benchy", "benchy@example.com", webtest.Password)
	tok := v.CreateToken()
	_, page := v.Get("/account/tokens?lang=en")
	if strings.Contains(page, tok) || !strings.Contains(page, accounts.ShownPrefix(tok)+"…") {
		t.Errorf("the token list shows the token again, or not its prefix")
	}
	resp, body := v.Post("/account/tokens", url.Values{})
	if !strings.Contains(body, "LIL_BENCH_TOKEN=lilb_") || !strings.Contains(body, " lil-bench upload ") || !strings.Contains(body, `data-copy="new-token"`) {
		t.Errorf("the new token's page (%d) lacks the command or the copy button", resp.StatusCode)
	}
	if resp, out := webtest.LilBench(t, s, "GET", "/api/bench/whoami", tok, nil); resp.StatusCode != 200 || out["login"] != "benchy" {
		t.Errorf("whoami with the page's token = %d %v", resp.StatusCode, out)
	}
	resp, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("lil-bench upload = %d %v", resp.StatusCode, out)
	}
	var doc struct {
		Submitter struct {
			Slug, Name string
			Verified   bool
		} `json:"submitter"`
	}
	_, raw := s.Get(t, "/api/v1/runs/"+out["id"].(string))
	if err := json.Unmarshal([]byte(raw), &doc); err != nil || doc.Submitter.Name != "benchy" || doc.Submitter.Slug != "benchy" || !doc.Submitter.Verified {
		t.Errorf("the run = %+v, want benchy verified", doc)
	}
	if resp, _ := v.Post("/account/tokens/revoke", url.Values{"prefix": {accounts.ShownPrefix(tok)}}); resp.StatusCode != 200 {
		t.Errorf("revoke = %d", resp.StatusCode)
	}
	if resp, _ := webtest.LilBench(t, s, "GET", "/api/bench/whoami", tok, nil); resp.StatusCode != 403 {
		t.Errorf("whoami with the revoked token = %d, want 403", resp.StatusCode)
	}
	// Another account cannot revoke benchy's tokens.
	other := webtest.NewVisitor(t, s)
	other.Signup("other", "other@example.com", webtest.Password)
	if resp, _ := other.Post("/account/tokens/revoke", url.Values{"prefix": {accounts.ShownPrefix(tok)}}); resp.StatusCode != 404 {
		t.Errorf("revoking another's token = %d, want 404", resp.StatusCode)
	}
}

// TestUploadFormAccount: with ALLOW_ANONYMOUS=false the form asks a
// signed-out reader to sign in; signed in, it uploads as the account,
// verified.
func TestUploadFormAccount(t *testing.T) {
	s := webtest.NewConfigSite(t, func(c *site.Config) { c.Uploads.RefuseAnonymous = true })
	v := webtest.NewVisitor(t, s)
	if resp, body := v.Get("/upload?lang=en"); resp.StatusCode != 200 || !strings.Contains(body, `id="upload-sign-in"`) ||
		strings.Contains(body, `action="/upload"`) {
		t.Errorf("/upload signed out = %d: want the sign-in notice instead of the form", resp.StatusCode)
	}
	file := webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	body, ct := webtest.MultipartBody(t, file, "run.json", map[string]string{"submitter": "someone-else"})
	if resp, page := v.Upload(body, ct); resp.StatusCode != 401 || !strings.Contains(page, `id="upload-sign-in"`) {
		t.Errorf("upload signed out = %d, want 401 with the sign-in notice", resp.StatusCode)
	}
	v.Signup("Uploader", "up@example.com", webtest.Password)
	if _, page := v.Get("/upload?lang=en"); !strings.Contains(page, `id="upload-as"`) || !strings.Contains(page, "Uploader") {
		t.Errorf("the form does not say it uploads as Uploader")
	}
	resp, _ := v.Upload(body, ct)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != 303 || !strings.HasPrefix(loc, "/runs/") {
		t.Fatalf("upload signed in = %d %s", resp.StatusCode, loc)
	}
	var doc struct {
		Submitter struct {
			Slug, Name string
			Verified   bool
		} `json:"submitter"`
	}
	_, raw := s.Get(t, "/api/v1"+loc)
	if err := json.Unmarshal([]byte(raw), &doc); err != nil || doc.Submitter.Name != "Uploader" || !doc.Submitter.Verified {
		t.Errorf("the form's run = %+v, want Uploader verified (the typed submitter ignored)", doc)
	}
}

// TestAccountSecretsNeverInClear signs up, fails and succeeds at signing
// in, makes a token, resets the password, with the server logging
// everything at debug level, then looks for every password, session id,
// token and reset secret in the log and in every table.
func TestAccountSecretsNeverInClear(t *testing.T) {
	var logs webtest.LockedBuffer
	s := webtest.NewConfigSite(t, func(c *site.Config) {
		c.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	v := webtest.NewVisitor(t, s)
	v.Signup("secretive", "secretive@example.com", webtest.Password)
	sessions := []string{v.Session()}
	v.Login("secretive@example.com", "a wrong guess at it", "/")
	v.Login("secretive@example.com", webtest.Password, "/")
	sessions = append(sessions, v.Session())
	tok := v.CreateToken()
	reset, _ := accounts.NewSecret()
	if err := s.Store.CreateReset(context.Background(), "secretive", accounts.Hash(reset), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	v.Get("/account/reset?token=" + reset)
	newPassword := "the second passphrase"
	v.Post("/account/reset", url.Values{"token": {reset}, "password": {newPassword}})
	sessions = append(sessions, v.Session())
	if !strings.Contains(logs.String(), "password reset") || !strings.Contains(logs.String(), "token created") {
		t.Fatalf("the scenario did not run: %s", logs.String())
	}
	secrets := append([]string{webtest.Password, "a wrong guess at it", newPassword, tok, reset}, sessions...)
	for _, secret := range secrets {
		if secret == "" {
			t.Fatal("a secret of the scenario is empty")
		}
		if strings.Contains(logs.String(), secret) {
			t.Errorf("the log shows a secret (%.6s…)", secret)
		}
	}
	dump := databaseText(t, s)
	for _, secret := range secrets {
		if strings.Contains(dump, secret) {
			t.Errorf("the database holds a secret in clear (%.6s…)", secret)
		}
	}
	if !strings.Contains(dump, "$argon2id$") || !strings.Contains(dump, "secretive@example.com") {
		t.Error("the dump lacks the password hash or the address: it reads the wrong text")
	}
}

// databaseText is every row of every table as text.
func databaseText(t testing.TB, s *webtest.Site) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var all bytes.Buffer
	for _, table := range tables {
		var text string
		err := conn.QueryRow(ctx, `SELECT coalesce(string_agg(t::text, E'\n'), '') FROM `+pgx.Identifier{table}.Sanitize()+` t`).Scan(&text)
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(text)
	}
	return all.String()
}
