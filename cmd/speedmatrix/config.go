package main

import (
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/speedmatrix/speedmatrix/web"
)

// config is the environment's configuration.
type config struct {
	Addr        string
	DatabaseURL string
	DataDir     string
	BaseURL     string
	// Uploads: ALLOW_ANONYMOUS, UPLOADS_PER_HOUR_ADDRESS, UPLOADS_PER_HOUR_TOKEN.
	Uploads web.UploadPolicy
}

func configFromEnv() config {
	return config{
		Addr:        env("ADDR", "127.0.0.1:8080"),
		DatabaseURL: os.Getenv("DATABASE_URL"),
		DataDir:     env("DATA_DIR", "./data"),
		BaseURL:     os.Getenv("BASE_URL"),
		Uploads: web.UploadPolicy{RefuseAnonymous: envFalse("ALLOW_ANONYMOUS"),
			PerHourAddress: envInt("UPLOADS_PER_HOUR_ADDRESS"), PerHourToken: envInt("UPLOADS_PER_HOUR_TOKEN")},
	}
}

// envFalse reports a variable set to false ("false", "0", "f").
func envFalse(name string) bool {
	b, err := strconv.ParseBool(os.Getenv(name))
	return err == nil && !b
}

// envInt reads a whole number; unset or unreadable is 0 (the default).
func envInt(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
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
