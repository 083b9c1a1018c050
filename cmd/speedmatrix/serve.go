package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/status"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/upload"
)

// shutdownGrace is how long in-flight requests get to finish on SIGINT or
// SIGTERM before the server closes them.
const shutdownGrace = 15 * time.Second

// serve runs the site until ctx is cancelled (a signal), then finishes
// in-flight requests and stops the private cluster cleanly.
func serve(ctx context.Context, cfg config, out io.Writer) (err error) {
	limit := setMemoryLimit() // first: opening the database and deriving stale runs allocate too
	if cfg.CacheBytes == 0 {
		cfg.CacheBytes = cacheBytesFor(limit)
	}
	bundle, err := i18n.Default()
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, cfg, out)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, db.Close(context.WithoutCancel(ctx))) }()
	if db.Private {
		if err := loadDemoIfEmpty(ctx, db, out); err != nil {
			return err
		}
	}
	// Runs derived under older status rules are derived again from their
	// source in the background; pages show the old statuses until then.
	rederived := make(chan struct{})
	go func() {
		defer close(rederived)
		// Its reads lead to writes: on the primary, never a replica.
		if n, err := ingest.RederiveStale(store.OnPrimary(ctx), db.Store); err != nil {
			fmt.Fprintf(out, "speedmatrix: deriving stored runs again stopped: %v\n", err)
		} else if n > 0 {
			fmt.Fprintf(out, "speedmatrix: derived %d stored runs again under rules %s\n", n, status.RulesVersion)
		}
	}()
	defer func() { <-rederived }()
	metrics := site.NewMetrics()
	stopListening := listenForChanges(ctx, db, metrics)
	defer stopListening()
	stopMetrics, err := serveMetrics(cfg.MetricsAddr, metrics, out)
	if err != nil {
		return err
	}
	defer stopMetrics()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	logOut := newLogBuffer(os.Stderr)
	defer logOut.Flush()
	logger := slog.New(newLogHandler(logOut))
	// Unpublished previews are deleted after a day; pages already ignore
	// an expired one, the sweep frees its bytes.
	go upload.SweepDrafts(ctx, db.Store, nil, draftSweepEvery, logger)
	// Uploads append run counts; folding them keeps what readers add up
	// to a second's uploads (store/bests/browse_counts.go).
	go db.Store.KeepCountsFolded(ctx, time.Second, logger)
	// Uploads note the setups whose engine versions they add to; folding
	// them keeps /regressions, its feed and the reports' links within a
	// few seconds of an upload (store/regressions/fold.go).
	go db.Store.KeepVersionChangesFolded(ctx, versionChangesEvery, logger)
	siteCfg := site.Config{Store: db.Store, Bundle: bundle, BaseURL: cfg.BaseURL,
		Logger: logger, Version: buildVersion(), Uploads: cfg.Uploads,
		CacheBytes: cfg.CacheBytes, Metrics: metrics, GitHub: cfg.GitHub, QuietRequests: !cfg.LogRequests}
	if cfg.Mailer != nil { // a nil *mail.Mailer in the interface would not be nil
		siteCfg.Mailer = cfg.Mailer
		logger.Info("mail on", "smtp", cfg.Mailer.String())
	}
	srv := newHTTPServer(site.New(siteCfg))
	fmt.Fprintf(out, "speedmatrix: serving http://%s/\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(out, "speedmatrix: shutting down")
	shutCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	return srv.Shutdown(shutCtx)
}

// newHTTPServer is the site's net/http server, which answers every
// request. A request's head has 10 s (a client that trickles it in holds
// a connection and a goroutine, no more); the whole request 2 minutes,
// which a large upload over a slow link needs; the answer as long; an idle
// kept-alive connection is closed after 2 minutes. Heads are limited to
// net/http's default, 1 MB.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    http.DefaultMaxHeaderBytes,
	}
}

// loadDemoIfEmpty fills an empty private database with the demo runs, so
// `make run` shows a real report at once.
func loadDemoIfEmpty(ctx context.Context, db *database, out io.Writer) error {
	n, err := db.Store.CountRuns(ctx)
	if err != nil || n > 0 {
		return err
	}
	ids, err := demo.Load(ctx, db.Store)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "speedmatrix: loaded %d demo runs (the seed run is %s)\n", len(ids), paths.Run(ids[0]))
	// A few synthetic runs (marked demo data) give the browse pages and
	// compare something to show; `speedmatrix demo --runs N` adds more.
	created, err := demo.LoadSynthetic(ctx, db.Store, 1, startupSynthetic, 0, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "speedmatrix: loaded %d synthetic demo runs\n", created)
	return nil
}

// draftSweepEvery is how often expired upload previews are deleted.
const draftSweepEvery = 10 * time.Minute

// versionChangesEvery is how often the setups uploads noted are derived
// again into regressions and speedups: each fold that finds work renews
// every cached page once, so not every second.
const versionChangesEvery = 5 * time.Second

// startupSynthetic is how many synthetic runs an empty private database
// gets: enough to fill the lists, a second or so to store.
const startupSynthetic = 120
