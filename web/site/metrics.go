package site

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Metrics counts what a server does, in Prometheus's terms, on a registry
// of its own: Handler serves it (speedmatrix serves it on METRICS_ADDR, a
// listener apart from the site's, so it is never public by accident).
type Metrics struct {
	reg           *prometheus.Registry
	requests      *prometheus.CounterVec
	latency       *prometheus.HistogramVec
	cacheEvents   *prometheus.CounterVec
	ingests       *prometheus.CounterVec
	changes       *prometheus.CounterVec
	notifications prometheus.Counter

	series       sync.Map // requestKey → requestSeries
	outcomesOnce sync.Once
	outcomes     map[string]prometheus.Counter // cacheEvents by outcome
}

// NewMetrics makes the counters, with Go's runtime and process collectors.
func NewMetrics() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "speedmatrix_http_requests_total",
		Help: "HTTP requests by route pattern, method and status."}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "speedmatrix_http_request_duration_seconds",
		Help:    "Time to answer, by route pattern.",
		Buckets: []float64{.0002, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}, []string{"route"})
	m.cacheEvents = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "speedmatrix_page_cache_requests_total",
		Help: "Page cache lookups: hit, miss, or stale (an old copy served while the database failed)."}, []string{"outcome"})
	m.ingests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "speedmatrix_ingest_total",
		Help: "Uploads by format and outcome (created, duplicate, refused, unavailable, error)."}, []string{"format", "outcome"})
	m.changes = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "speedmatrix_changes_total",
		Help: "Data changes applied to the page cache, by origin (local commit or notification) and kind."}, []string{"origin", "kind"})
	m.notifications = prometheus.NewCounter(prometheus.CounterOpts{Name: "speedmatrix_notifications_received_total",
		Help: "Notifications received on the changes channel."})
	m.reg.MustRegister(m.requests, m.latency, m.cacheEvents, m.ingests, m.changes, m.notifications,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m.watchHashing()
	return m
}

// watchHashing reports the password hashing slots (internal/accounts): how
// many hashes ran, how many found every slot taken (503), and how many run
// now; a busy count that grows is a flood of sign-ins, or too few cores.
func (m *Metrics) watchHashing() {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "speedmatrix_password_hashes_total",
			Help: "Password hashes computed (sign-in, sign-up, reset)."}, func() float64 { return float64(accounts.Stats().Computed) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "speedmatrix_password_hashes_busy_total",
			Help: "Password checks refused because every hashing slot stayed taken."}, func() float64 { return float64(accounts.Stats().Busy) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "speedmatrix_password_hashes_running",
			Help: "Password hashes running now; at most one per core."}, func() float64 { return float64(accounts.Stats().Running) }))
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Notified counts one notification received (store.Listen's callback).
func (m *Metrics) Notified() { m.notifications.Inc() }

// WatchPool reports the database pool's statistics at every scrape.
func (m *Metrics) WatchPool(stat func() *pgxpool.Stat) {
	gauge := func(name, help string, f func(*pgxpool.Stat) float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help},
			func() float64 { return f(stat()) }))
	}
	gauge("speedmatrix_db_pool_connections_total", "Connections open.", func(s *pgxpool.Stat) float64 { return float64(s.TotalConns()) })
	gauge("speedmatrix_db_pool_connections_idle", "Connections idle.", func(s *pgxpool.Stat) float64 { return float64(s.IdleConns()) })
	gauge("speedmatrix_db_pool_connections_acquired", "Connections in use.", func(s *pgxpool.Stat) float64 { return float64(s.AcquiredConns()) })
	gauge("speedmatrix_db_pool_connections_max", "The pool's bound.", func(s *pgxpool.Stat) float64 { return float64(s.MaxConns()) })
	gauge("speedmatrix_db_pool_acquire_waits_total", "Acquires that had to wait.", func(s *pgxpool.Stat) float64 { return float64(s.EmptyAcquireCount()) })
	gauge("speedmatrix_db_pool_acquire_seconds_total", "Time spent acquiring.", func(s *pgxpool.Stat) float64 { return s.AcquireDuration().Seconds() })
}

// WatchReads reports where the store's public reads went, at every
// scrape: to the replica, or to the primary and why (store.ReadStats).
func (m *Metrics) WatchReads(stat func() store.ReadStats) {
	counter := func(target, reason string, f func(store.ReadStats) uint64) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "speedmatrix_db_reads_total",
			Help:        "Public reads by the database that answered and why: replica; primary when the replica was behind the newest change, down, or not configured; retried on the primary after failing on the replica.",
			ConstLabels: prometheus.Labels{"target": target, "reason": reason}},
			func() float64 { return float64(f(stat())) }))
	}
	counter("replica", "caught_up", func(s store.ReadStats) uint64 { return s.Replica })
	counter("primary", "behind", func(s store.ReadStats) uint64 { return s.Behind })
	counter("primary", "down", func(s store.ReadStats) uint64 { return s.Down })
	counter("primary", "retried", func(s store.ReadStats) uint64 { return s.Retried })
	counter("primary", "primary_only", func(s store.ReadStats) uint64 { return s.Primary })
}

// watchCache reports the page cache's size at every scrape.
func (m *Metrics) watchCache(c *pageCache) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "speedmatrix_page_cache_bytes", Help: "Bytes held by the page cache."},
			func() float64 { _, n := c.stats(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "speedmatrix_page_cache_entries", Help: "Pages held by the page cache."},
			func() float64 { n, _ := c.stats(); return float64(n) }))
}

func (m *Metrics) cache(outcome string) {
	// The three outcomes' counters are looked up once: a hit is counted on
	// every warm request, and a label lookup hashes its values each time.
	m.outcomesOnce.Do(func() {
		m.outcomes = map[string]prometheus.Counter{}
		for _, o := range []string{"hit", "miss", "stale"} {
			m.outcomes[o] = m.cacheEvents.WithLabelValues(o)
		}
	})
	if c, ok := m.outcomes[outcome]; ok {
		c.Inc()
		return
	}
	m.cacheEvents.WithLabelValues(outcome).Inc()
}

func (m *Metrics) change(c store.Change) {
	origin, kind := "local", "site"
	if c.Remote {
		origin = "notification"
	}
	if c.Reset {
		kind = "reset"
	} else if len(c.Runs) > 0 {
		kind = "run"
	}
	m.changes.WithLabelValues(origin, kind).Inc()
}

// observe counts one request of route and the time it took.
func (m *Metrics) observe(route, method string, status int, took time.Duration) {
	sr := m.seriesOf(route, methodLabel(method), status)
	sr.count.Inc()
	sr.latency.Observe(took.Seconds())
}

// requestKey names one request counter; the label set is small (route
// patterns, known methods, statuses), so its series are kept.
type requestKey struct {
	route, method string
	status        int
}

type requestSeries struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// seriesOf is the counter and histogram of one kind of request, looked up
// by label values once: every request is counted, and a lookup by values
// hashes them and formats the status each time.
func (m *Metrics) seriesOf(route, method string, status int) requestSeries {
	k := requestKey{route, method, status}
	if sr, ok := m.series.Load(k); ok {
		return sr.(requestSeries)
	}
	sr := requestSeries{count: m.requests.WithLabelValues(route, method, strconv.Itoa(status)),
		latency: m.latency.WithLabelValues(route)}
	m.series.Store(k, sr)
	return sr
}

// countIngest counts an upload's outcome by format (kit.Server.Ingest).
func (m *Metrics) countIngest(format, outcome string) {
	m.ingests.WithLabelValues(format, outcome).Inc()
}

// methodLabel keeps the method label to the methods the site knows: any
// other string a client sends would be a series of its own.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodDelete, http.MethodOptions, http.MethodPut, http.MethodPatch:
		return m
	}
	return "other"
}
