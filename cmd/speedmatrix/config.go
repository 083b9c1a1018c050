package main

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/mail"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// config is the environment's configuration.
type config struct {
	Addr        string
	DatabaseURL string
	// DatabaseReadURL (DATABASE_READ_URL), when set, is a streaming
	// replica of DATABASE_URL for the public pages' reads.
	DatabaseReadURL string
	DataDir         string
	BaseURL         string
	// Uploads: ALLOW_ANONYMOUS, UPLOADS_PER_HOUR_ADDRESS, UPLOADS_PER_HOUR_TOKEN.
	Uploads site.UploadPolicy
	// MetricsAddr (METRICS_ADDR) is where /metrics is served, apart from
	// the site; empty serves none.
	MetricsAddr string
	// CacheBytes (PAGE_CACHE_MB) bounds the page cache; 0 when unset, and
	// serve derives it from the memory limit (cacheBytesFor).
	CacheBytes int
	// Mailer (SMTP_URL, MAIL_FROM) mails resets and confirmations; nil
	// sends none.
	Mailer *mail.Mailer
	// GitHub (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET) offers GitHub sign-in.
	GitHub site.GitHubApp
	// LogRequests (LOG_REQUESTS, true by default) logs a line per request;
	// false leaves it out for a site whose proxy logs them already.
	LogRequests bool
}

// configFromEnv reads the configuration from the process's environment.
func configFromEnv() (config, error) { return readConfig(os.Getenv) }

// readConfig reads the configuration through getenv. A value that cannot
// be read is an error naming the variable and what it accepts, never a
// silent default: a typo in ALLOW_ANONYMOUS must not open uploads to
// everyone. Every bad variable is reported at once.
func readConfig(getenv func(string) string) (config, error) {
	e := envReader{get: getenv}
	cfg := config{
		Addr:            e.addr("ADDR", "127.0.0.1:8080"),
		DatabaseURL:     getenv("DATABASE_URL"),
		DatabaseReadURL: e.readURL("DATABASE_READ_URL", getenv("DATABASE_URL")),
		DataDir:         e.str("DATA_DIR", "./data"),
		BaseURL:         e.origin("BASE_URL"),
		Uploads: site.UploadPolicy{
			RefuseAnonymous: !e.boolean("ALLOW_ANONYMOUS", true),
			PerHourAddress:  e.integer("UPLOADS_PER_HOUR_ADDRESS"),
			PerHourToken:    e.integer("UPLOADS_PER_HOUR_TOKEN"),
			TrustedProxies:  e.prefixes("TRUSTED_PROXIES"),
		},
		CacheBytes:  e.positive("PAGE_CACHE_MB", 0) << 20,
		LogRequests: e.boolean("LOG_REQUESTS", true),
	}
	if getenv("METRICS_ADDR") != "" {
		cfg.MetricsAddr = e.addr("METRICS_ADDR", "")
	}
	cfg.Mailer = e.mailer("SMTP_URL", "MAIL_FROM")
	cfg.GitHub = e.github("GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET")
	e.needsOrigin(getenv("BASE_URL"), cfg.Mailer != nil, "SMTP_URL", "the links it mails are built")
	e.needsOrigin(getenv("BASE_URL"), cfg.GitHub.ClientID != "", "GITHUB_CLIENT_ID", "GitHub's callback URL is built")
	return cfg, errors.Join(e.errs...)
}

// needsOrigin refuses a feature (on, turned on by the variable name) that
// builds links people follow from outside the site without BASE_URL: the
// only other origin there is, the request's Host header, is whatever the
// requester typed, and a reset link mailed on an attacker's host hands
// them the account. A BASE_URL that could not be read is reported once,
// by origin.
func (e *envReader) needsOrigin(baseURL string, on bool, name, links string) {
	if on && strings.TrimSpace(baseURL) == "" {
		e.errs = append(e.errs, fmt.Errorf("%s is set but BASE_URL is not: %s from BASE_URL alone, never from a request's Host; set BASE_URL to the site's public origin, such as https://speedmatrix.example", name, links))
	}
}

// envReader reads variables and collects what it could not read.
type envReader struct {
	get  func(string) string
	errs []error
}

func (e *envReader) fail(name, value, accepted string) {
	e.errs = append(e.errs, fmt.Errorf("%s=%q cannot be read: %s", name, value, accepted))
}

func (e *envReader) str(name, def string) string {
	if v := e.get(name); v != "" {
		return v
	}
	return def
}

// boolean reads yes/no, true/false, on/off or 1/0, in any case.
func (e *envReader) boolean(name string, def bool) bool {
	v := strings.TrimSpace(e.get(name))
	switch strings.ToLower(v) {
	case "":
		return def
	case "1", "true", "yes", "on":
		return true
	case "0", "false", "no", "off":
		return false
	}
	e.fail(name, v, "use true or false (also yes/no, on/off, 1/0)")
	return def
}

// integer reads a whole number; unset is 0, which the web package takes as
// its default.
func (e *envReader) integer(name string) int {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		e.fail(name, v, "use a whole number such as 30 (a negative number means no limit)")
	}
	return n
}

// positive reads a whole number above zero, def when unset.
func (e *envReader) positive(name string, def int) int {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || n > 1<<20 {
		e.fail(name, v, "use a whole number above zero, such as 32")
		return def
	}
	return n
}

// prefixes reads a comma-separated list of addresses or CIDR blocks.
func (e *envReader) prefixes(name string) []netip.Prefix {
	var out []netip.Prefix
	for _, item := range strings.Split(e.get(name), ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		p, err := netip.ParsePrefix(item)
		if err != nil {
			a, aerr := netip.ParseAddr(item)
			if aerr != nil {
				e.fail(name, item, "use addresses or CIDR blocks separated by commas, such as 10.0.0.0/8,127.0.0.1")
				continue
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		out = append(out, p.Masked())
	}
	return out
}

// readURL reads the connection URL of a read replica of primary, which
// must be set too: the private cluster has no replica.
func (e *envReader) readURL(name, primary string) string {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	switch {
	case err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || u.Host == "":
		e.fail(name, "…", "use a postgres:// URL of a streaming replica of DATABASE_URL")
	case primary == "":
		e.fail(name, "…", "a read replica needs DATABASE_URL, its primary, set too")
	}
	return v
}

// addr reads a listen address, host:port.
func (e *envReader) addr(name, def string) string {
	v := e.str(name, def)
	if _, port, err := net.SplitHostPort(v); err != nil || port == "" {
		e.fail(name, v, "use host:port, such as 127.0.0.1:8080 or :8080")
	}
	return v
}

// origin reads a public origin: an http or https URL with a host and no
// path, query or fragment (the site's links are built under it).
func (e *envReader) origin(name string) string {
	v := strings.TrimSpace(e.get(name))
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		e.fail(name, v, "use the site's origin, such as https://speedmatrix.example (scheme and host, no path)")
		return ""
	}
	return strings.TrimSuffix(v, "/")
}

// mailer reads the SMTP server's URL and the sender; unset sends no mail.
// The URL's password is never repeated in a message: a refused value is
// shown with it masked.
func (e *envReader) mailer(urlName, fromName string) *mail.Mailer {
	raw, from := strings.TrimSpace(e.get(urlName)), strings.TrimSpace(e.get(fromName))
	if raw == "" {
		if from != "" {
			e.errs = append(e.errs, fmt.Errorf("%s is set but %s is not: set both to send mail, or neither", fromName, urlName))
		}
		return nil
	}
	if from == "" {
		e.errs = append(e.errs, fmt.Errorf("%s is set but %s is not: name the sender, such as speedmatrix <noreply@speedmatrix.example>", urlName, fromName))
		return nil
	}
	m, err := mail.Parse(raw, from)
	if err != nil {
		e.errs = append(e.errs, fmt.Errorf("%s or %s cannot be read: %w (use smtp://user:pass@host:587 or smtps://user:pass@host:465, and an address)", urlName, fromName, err))
		return nil
	}
	return m
}

// github reads the OAuth app's id and secret: both or neither.
func (e *envReader) github(idName, secretName string) site.GitHubApp {
	app := site.GitHubApp{ClientID: strings.TrimSpace(e.get(idName)), ClientSecret: strings.TrimSpace(e.get(secretName))}
	if (app.ClientID == "") != (app.ClientSecret == "") {
		e.errs = append(e.errs, fmt.Errorf("set both %s and %s to sign in with GitHub, or neither", idName, secretName))
		return site.GitHubApp{}
	}
	return app
}

// startNonce stands in for a build id when the binary carries no VCS stamp:
// ETags then change on every restart, which is safe.
var startNonce = strconv.FormatInt(time.Now().UnixNano(), 36)

// buildVersion identifies this build for ETags and `speedmatrix version`.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				return s.Value[:12]
			}
		}
	}
	return "dev-" + startNonce
}
