package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/site"
)

func envOf(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

// TestConfigReadsWhatPeopleWrite: the spellings of yes and no people use
// all work, and an unset variable keeps its default.
func TestConfigReadsWhatPeopleWrite(t *testing.T) {
	for value, refuse := range map[string]bool{
		"": false, "true": false, "TRUE": false, "yes": false, "on": false, "1": false,
		"false": true, "False": true, "no": true, "NO": true, "off": true, "0": true,
	} {
		cfg, err := readConfig(envOf(map[string]string{"ALLOW_ANONYMOUS": value}))
		if err != nil {
			t.Errorf("ALLOW_ANONYMOUS=%q: %v", value, err)
			continue
		}
		if cfg.Uploads.RefuseAnonymous != refuse {
			t.Errorf("ALLOW_ANONYMOUS=%q: RefuseAnonymous = %v, want %v", value, cfg.Uploads.RefuseAnonymous, refuse)
		}
	}
	cfg, err := readConfig(envOf(map[string]string{
		"UPLOADS_PER_HOUR_ADDRESS": "12", "UPLOADS_PER_HOUR_TOKEN": "-1",
		"BASE_URL": "https://speedmatrix.example/", "ADDR": ":9090",
		"TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.1,::1",
		"METRICS_ADDR":    "127.0.0.1:9090", "PAGE_CACHE_MB": "8",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Uploads.PerHourAddress != 12 || cfg.Uploads.PerHourToken != -1 {
		t.Errorf("rates = %d, %d; want 12, -1", cfg.Uploads.PerHourAddress, cfg.Uploads.PerHourToken)
	}
	if cfg.BaseURL != "https://speedmatrix.example" || cfg.Addr != ":9090" || cfg.DataDir != "./data" {
		t.Errorf("cfg = %+v", cfg)
	}
	if cfg.MetricsAddr != "127.0.0.1:9090" || cfg.CacheBytes != 8<<20 {
		t.Errorf("METRICS_ADDR %q, PAGE_CACHE_MB %d bytes", cfg.MetricsAddr, cfg.CacheBytes)
	}
	if def, _ := readConfig(envOf(nil)); def.MetricsAddr != "" || def.CacheBytes != 0 || !def.LogRequests {
		t.Errorf("defaults: METRICS_ADDR %q, cache %d bytes, LOG_REQUESTS %v", def.MetricsAddr, def.CacheBytes, def.LogRequests)
	}
	if quiet, _ := readConfig(envOf(map[string]string{"LOG_REQUESTS": "false"})); quiet.LogRequests {
		t.Error("LOG_REQUESTS=false still logs every request")
	}
	if got := fmt.Sprint(cfg.Uploads.TrustedProxies); got != "[10.0.0.0/8 127.0.0.1/32 ::1/128]" {
		t.Errorf("TRUSTED_PROXIES = %s", got)
	}
}

// TestConfigRefusesWhatItCannotRead: each unreadable value is named, with
// what the variable accepts, and all of them are reported at once.
func TestConfigRefusesWhatItCannotRead(t *testing.T) {
	bad := map[string]string{
		"ALLOW_ANONYMOUS":          "banana",
		"UPLOADS_PER_HOUR_ADDRESS": "ten",
		"UPLOADS_PER_HOUR_TOKEN":   "1.5",
		"ADDR":                     "8080",
		"BASE_URL":                 "speedmatrix.example/runs",
		"TRUSTED_PROXIES":          "10.0.0.0/33",
		"METRICS_ADDR":             "9090",
		"PAGE_CACHE_MB":            "0",
		"LOG_REQUESTS":             "sometimes",
	}
	_, err := readConfig(envOf(bad))
	if err == nil {
		t.Fatal("no error for unreadable values")
	}
	for name, value := range bad {
		if !strings.Contains(err.Error(), name+`="`+value+`"`) {
			t.Errorf("error does not name %s=%q:\n%v", name, value, err)
		}
	}
	if !strings.Contains(err.Error(), "true or false") || !strings.Contains(err.Error(), "whole number") {
		t.Errorf("error does not say what is accepted:\n%v", err)
	}
}

// TestServeStopsOnBadConfig is `ALLOW_ANONYMOUS=banana speedmatrix serve`:
// exit status 2 and the variable's name, before any database is touched.
func TestServeStopsOnBadConfig(t *testing.T) {
	t.Setenv("ALLOW_ANONYMOUS", "banana")
	t.Setenv("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"serve"}, &bytes.Buffer{}, &stderr)
	if code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "ALLOW_ANONYMOUS") || !strings.Contains(stderr.String(), "banana") {
		t.Errorf("stderr does not name the variable: %q", stderr.String())
	}
}

// TestConfigReadURL: DATABASE_READ_URL is a postgres URL beside a
// DATABASE_URL (the private cluster has no replica); a refusal never
// repeats the URL, which holds a password.
func TestConfigReadURL(t *testing.T) {
	const primary, replica = "postgres://u:secret@db:5432/sm", "postgres://u:secret@replica:5432/sm"
	cfg, err := readConfig(envOf(map[string]string{"DATABASE_URL": primary, "DATABASE_READ_URL": replica}))
	if err != nil || cfg.DatabaseReadURL != replica {
		t.Errorf("DATABASE_READ_URL = %q, %v; want %q", cfg.DatabaseReadURL, err, replica)
	}
	for _, env := range []map[string]string{
		{"DATABASE_READ_URL": replica},
		{"DATABASE_URL": primary, "DATABASE_READ_URL": "mysql://u:secret@replica/sm"},
		{"DATABASE_URL": primary, "DATABASE_READ_URL": "u:secret@replica"},
	} {
		_, err := readConfig(envOf(env))
		if err == nil || !strings.Contains(err.Error(), "DATABASE_READ_URL") || strings.Contains(err.Error(), "secret") {
			t.Errorf("%v: %v; want a refusal naming DATABASE_READ_URL, without the password", env, err)
		}
	}
}

// TestConfigReadsMailAndGitHub: SMTP_URL with MAIL_FROM makes a mailer,
// GITHUB_CLIENT_ID with its secret a GitHub app; half of either pair, or
// an unreadable URL, stops start-up, and no message repeats the SMTP
// password.
func TestConfigReadsMailAndGitHub(t *testing.T) {
	cfg, err := readConfig(envOf(map[string]string{
		"SMTP_URL": "smtps://site:pw-9f8e7d@mail.example:465", "MAIL_FROM": "speedmatrix <noreply@speedmatrix.example>",
		"GITHUB_CLIENT_ID": "Iv1.abc", "GITHUB_CLIENT_SECRET": "shh", "BASE_URL": "https://speedmatrix.example",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mailer == nil || strings.Contains(cfg.Mailer.String(), "pw-9f8e7d") || !strings.Contains(cfg.Mailer.String(), "mail.example:465") {
		t.Errorf("mailer = %v", cfg.Mailer)
	}
	if cfg.GitHub.ClientID != "Iv1.abc" || cfg.GitHub.ClientSecret != "shh" {
		t.Errorf("GitHub = %+v", cfg.GitHub)
	}
	if def, _ := readConfig(envOf(nil)); def.Mailer != nil || def.GitHub.ClientID != "" {
		t.Errorf("defaults: mailer %v, GitHub %+v", def.Mailer, def.GitHub)
	}
	for _, bad := range []map[string]string{
		{"SMTP_URL": "smtp://site:pw-9f8e7d@mail.example"},
		{"MAIL_FROM": "noreply@speedmatrix.example"},
		{"SMTP_URL": "http://site:pw-9f8e7d@mail.example", "MAIL_FROM": "noreply@speedmatrix.example"},
		{"SMTP_URL": "smtp://site:pw-9f8e7d@mail.example", "MAIL_FROM": "not an address"},
		{"GITHUB_CLIENT_ID": "Iv1.abc"},
		{"GITHUB_CLIENT_SECRET": "shh"},
	} {
		_, err := readConfig(envOf(bad))
		if err == nil {
			t.Errorf("%v: no error", bad)
			continue
		}
		if strings.Contains(err.Error(), "pw-9f8e7d") {
			t.Errorf("%v: the error shows the password: %v", bad, err)
		}
		named := false
		for name := range bad {
			named = named || strings.Contains(err.Error(), name)
		}
		if !named {
			t.Errorf("%v: the error names no variable: %v", bad, err)
		}
	}
}

// TestConfigMailAndGitHubNeedBaseURL: mail or GitHub sign-in without
// BASE_URL is refused, naming BASE_URL and the variable that needs it:
// their links would otherwise take the origin of whatever Host header a
// request carried, and a reset link on an attacker's host gives the
// account away. With BASE_URL both start.
func TestConfigMailAndGitHubNeedBaseURL(t *testing.T) {
	mailEnv := map[string]string{"SMTP_URL": "smtp://127.0.0.1:2525", "MAIL_FROM": "x@example.test"}
	githubEnv := map[string]string{"GITHUB_CLIENT_ID": "Iv1.abc", "GITHUB_CLIENT_SECRET": "shh"}
	for feature, c := range map[string]struct {
		env  map[string]string
		name string
	}{"mail": {mailEnv, "SMTP_URL"}, "GitHub": {githubEnv, "GITHUB_CLIENT_ID"}} {
		_, err := readConfig(envOf(c.env))
		if err == nil || !strings.Contains(err.Error(), "BASE_URL") || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s without BASE_URL: %v; want a refusal naming BASE_URL and %s", feature, err, c.name)
		}
		for _, blank := range []string{"", "   "} {
			if _, err := readConfig(envOf(with(c.env, "BASE_URL", blank))); err == nil {
				t.Errorf("%s with BASE_URL=%q: no error", feature, blank)
			}
		}
		cfg, err := readConfig(envOf(with(c.env, "BASE_URL", "https://speedmatrix.example")))
		if err != nil || cfg.BaseURL != "https://speedmatrix.example" {
			t.Errorf("%s with BASE_URL: %v (base %q)", feature, err, cfg.BaseURL)
		}
	}
	// An unreadable BASE_URL is named once, for what it is.
	_, err := readConfig(envOf(with(mailEnv, "BASE_URL", "speedmatrix.example")))
	if err == nil || strings.Count(err.Error(), "BASE_URL") != 1 || !strings.Contains(err.Error(), `BASE_URL="speedmatrix.example"`) {
		t.Errorf("mail with an unreadable BASE_URL: %v", err)
	}
}

// TestCommandsStopWithoutBaseURL is `SMTP_URL=smtp://127.0.0.1:2525
// MAIL_FROM=x@example.test speedmatrix serve` without BASE_URL, and the
// same with GitHub sign-in: exit status 2 naming BASE_URL, before any
// database is touched; every command reads the same configuration.
func TestCommandsStopWithoutBaseURL(t *testing.T) {
	for _, env := range []map[string]string{
		{"SMTP_URL": "smtp://127.0.0.1:2525", "MAIL_FROM": "x@example.test"},
		{"GITHUB_CLIENT_ID": "Iv1.abc", "GITHUB_CLIENT_SECRET": "shh"},
	} {
		for _, cmd := range [][]string{{"serve"}, {"migrate"}, {"account", "reset", "ana"}} {
			t.Run(strings.Join(cmd, " "), func(t *testing.T) {
				for _, name := range []string{"SMTP_URL", "MAIL_FROM", "GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET", "BASE_URL"} {
					t.Setenv(name, env[name])
				}
				t.Setenv("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
				var stderr bytes.Buffer
				if code := run(context.Background(), cmd, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "BASE_URL") {
					t.Errorf("%v: exit status %d, stderr %q; want 2 naming BASE_URL", env, code, stderr.String())
				}
			})
		}
	}
}

// with is env with name set to value.
func with(env map[string]string, name, value string) map[string]string {
	out := map[string]string{name: value}
	for k, v := range env {
		if k != name {
			out[k] = v
		}
	}
	return out
}

// TestCacheFollowsMemoryLimit: unset, the page cache is a quarter of the
// memory limit in force, and the web package's default when there is none.
func TestCacheFollowsMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		limit int64
		want  int
	}{
		{defaultMemoryLimit, 16 << 20},
		{200 << 20, 50 << 20},
		{math.MaxInt64, site.DefaultCacheBytes},
		{0, site.DefaultCacheBytes},
	} {
		if got := cacheBytesFor(c.limit); got != c.want {
			t.Errorf("cacheBytesFor(%d) = %d, want %d", c.limit, got, c.want)
		}
	}
	if site.DefaultCacheBytes != cacheBytesFor(defaultMemoryLimit) {
		t.Errorf("site.DefaultCacheBytes %d is not a quarter of the default limit", site.DefaultCacheBytes)
	}
}
