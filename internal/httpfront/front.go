// Package httpfront answers the simplest requests of an HTTP/1.1
// connection itself and hands everything else to a net/http server.
//
// A warm page is bytes in memory, and on a small machine most of what it
// costs to serve one through net/http is net/http: a goroutine's buffered
// reader and writer per connection, a textproto parse into fresh maps and
// strings, a response writer with its own buffering and a chunking layer,
// a context per request. Front reads a connection's requests into one
// pooled buffer, parses a plain GET (origin-form target, HTTP/1.1, CRLF
// lines, no body, one Host) into an *http.Request that shares that parse,
// and asks answer whether it can answer it alone, from memory; the answer
// is collected and written with one Write, its head as net/http would
// have written it.
//
// Anything else goes to net/http with the bytes read so far replayed in
// front of the connection, which net/http then keeps for the rest of its
// life: a request with a body or an upgrade, HTTP/1.0, an odd head, a
// request answer declines (for the binary's answerer: a POST, a page not
// kept in memory, a static file the client does not take gzipped). An
// answer may be worked out at length (a page built from the database); it
// is sent once it is whole, so one that must stream goes to net/http. So net/http
// stays the one HTTP implementation for every hard case, and what Front
// answers is checked against it by its tests, header by header.
package httpfront

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Answerer answers r from memory when it can, and reports whether it did.
// When it reports false it must have written nothing: r then goes to the
// net/http server as it came.
type Answerer func(w http.ResponseWriter, r *http.Request) bool

// Front serves a listener's connections, answering what answer takes and
// handing the rest to srv.
type Front struct {
	srv    *http.Server
	answer Answerer
	queue  *queue

	mu      sync.Mutex
	conns   map[*conn]struct{}
	ln      net.Listener
	closing atomic.Bool
}

// New returns a Front for srv: srv's Handler answers what answer does not,
// with srv's timeouts and ErrorLog applying to both.
func New(srv *http.Server, answer Answerer) *Front {
	return &Front{srv: srv, answer: answer, conns: map[*conn]struct{}{}}
}

// Serve accepts connections on ln until Shutdown, as http.Server.Serve
// does, and returns http.ErrServerClosed after Shutdown.
func (f *Front) Serve(ln net.Listener) error {
	f.mu.Lock()
	if f.closing.Load() {
		f.mu.Unlock()
		return http.ErrServerClosed
	}
	f.ln = ln
	f.queue = newQueue(ln.Addr())
	f.mu.Unlock()
	served := make(chan error, 1)
	go func() { served <- f.srv.Serve(f.queue) }()
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if f.closing.Load() {
				return http.ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				// As net/http: back off on a transient error
				// (too many open files) instead of spinning.
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			ln.Close()
			f.queue.Close()
			<-served
			return err
		}
		delay = 0
		c := f.track(nc)
		if c == nil {
			nc.Close()
			continue
		}
		go c.serve()
	}
}

// track registers a new connection, or returns nil when shutting down.
func (f *Front) track(nc net.Conn) *conn {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closing.Load() {
		return nil
	}
	c := &conn{front: f, nc: nc, since: time.Now()}
	c.fresh.Store(true)
	f.conns[c] = struct{}{}
	return c
}

// forget removes a connection Front no longer serves.
func (f *Front) forget(c *conn) {
	f.mu.Lock()
	delete(f.conns, c)
	f.mu.Unlock()
}

// handOver gives nc to the net/http server, or closes it when the server
// is shutting down.
func (f *Front) handOver(nc net.Conn) {
	select {
	case f.queue.conns <- nc:
	case <-f.queue.closed:
		nc.Close()
	}
}

// Shutdown stops accepting, closes Front's idle connections and waits for
// its busy ones to finish their answer, then shuts the net/http server
// down (which does the same for the connections handed to it), all
// within ctx, as http.Server.Shutdown does.
func (f *Front) Shutdown(ctx context.Context) error {
	f.mu.Lock()
	f.closing.Store(true)
	ln := f.ln
	f.mu.Unlock()
	var err error
	if ln != nil {
		err = ln.Close()
	}
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		if f.closeIdle() {
			break
		}
		select {
		case <-ctx.Done():
			f.srv.Close()
			return ctx.Err()
		case <-time.After(wait):
		}
	}
	if serr := f.srv.Shutdown(ctx); serr != nil {
		return serr
	}
	return err
}

// closeIdle closes every connection waiting for a request, and reports
// whether none is left. As in net/http, a new connection has a few
// seconds to send its first request before it counts as idle.
func (f *Front) closeIdle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		if c.fresh.Load() && time.Since(c.since) < newConnGrace {
			continue
		}
		if c.state.CompareAndSwap(stateIdle, stateClosed) {
			c.nc.Close()
		}
	}
	return len(f.conns) == 0
}

// newConnGrace is how long a new connection may wait to send its first
// request when the server shuts down.
const newConnGrace = 5 * time.Second

// logf logs as the net/http server does: to its ErrorLog, or the
// standard logger.
func (f *Front) logf(format string, args ...any) {
	if f.srv.ErrorLog != nil {
		f.srv.ErrorLog.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// queue is the listener the net/http server accepts handed-over
// connections from.
type queue struct {
	addr   net.Addr
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newQueue(addr net.Addr) *queue {
	return &queue{addr: addr, conns: make(chan net.Conn), closed: make(chan struct{})}
}

// Accept returns the next handed-over connection.
func (q *queue) Accept() (net.Conn, error) {
	select {
	case c := <-q.conns:
		return c, nil
	case <-q.closed:
		return nil, net.ErrClosed
	}
}

// Close stops Accept; net/http's Shutdown calls it.
func (q *queue) Close() error {
	q.once.Do(func() { close(q.closed) })
	return nil
}

// Addr is the front listener's address.
func (q *queue) Addr() net.Addr { return q.addr }
