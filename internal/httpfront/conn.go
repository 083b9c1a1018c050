package httpfront

import (
	"context"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// A connection's states, for Shutdown: only an idle one (no byte of a
// request read) may be closed under it.
const (
	stateIdle int32 = iota
	stateActive
	stateClosed
)

// headSize is the most of a request head Front reads; a longer head goes
// to net/http (whose limit is the server's MaxHeaderBytes).
const headSize = 8 << 10

// heads are the connections' head buffers.
var heads = sync.Pool{New: func() any { b := make([]byte, headSize); return &b }}

// conn is one connection while Front serves it.
type conn struct {
	front  *Front
	nc     net.Conn
	state  atomic.Int32
	fresh  atomic.Bool // no request answered yet
	since  time.Time   // accepted
	remote string

	buf  *[]byte // pooled; b[start:n] is what was read and not answered
	r    *http.Request
	w    writer
	vals []string // backing of the request's header values
	out  []byte
}

// serve answers the connection's requests until it closes or is handed
// over.
func (c *conn) serve() {
	f := c.front
	defer func() {
		if err := recover(); err != nil {
			if err != http.ErrAbortHandler {
				buf := make([]byte, 64<<10)
				buf = buf[:runtime.Stack(buf, false)]
				f.logf("http: panic serving %v: %v\n%s", c.remote, err, buf)
			}
			c.end()
			c.nc.Close()
		}
	}()
	c.remote = c.nc.RemoteAddr().String()
	ctx := context.WithValue(context.Background(), http.ServerContextKey, f.srv)
	ctx = context.WithValue(ctx, http.LocalAddrContextKey, c.nc.LocalAddr())
	c.r = (&http.Request{}).WithContext(ctx)
	c.w = writer{header: http.Header{}, sent: http.Header{}}
	c.buf = heads.Get().(*[]byte)
	b := *c.buf
	start, n := 0, 0
	waitIdle := false // the first request's head has its time from the accept
	setDeadline(c.nc, headerTimeout(f.srv))
	for {
		end, lone := headEnd(b[start:n])
		if end < 0 {
			if lone || n-start == len(b) {
				c.handOver(b[start:n])
				return
			}
			if start > 0 { // keep what is left of a pipeline at the front
				n = copy(b, b[start:n])
				start = 0
			}
			m, ok := c.read(b[n:], waitIdle)
			if !ok {
				c.end()
				c.nc.Close()
				return
			}
			n, waitIdle = n+m, false
			continue
		}
		answered, closing := c.answer(b[start : start+end])
		if !answered {
			c.handOver(b[start:n])
			return
		}
		c.fresh.Store(false)
		if closing {
			c.end()
			closeGently(c.nc)
			return
		}
		if start += end; start < n {
			setDeadline(c.nc, headerTimeout(f.srv)) // a pipelined request's head
			continue
		}
		start, n, waitIdle = 0, 0, true
		if !c.state.CompareAndSwap(stateActive, stateIdle) || f.closing.Load() {
			c.end()
			c.nc.Close()
			return
		}
	}
}

// read reads more of a request head into b. With waitIdle it waits for
// a later request under the idle timeout, then gives its head the header
// timeout from its first byte, as net/http does. It reports false when
// the connection is done (closed, timed out, or closed by Shutdown).
func (c *conn) read(b []byte, waitIdle bool) (int, bool) {
	if waitIdle {
		setDeadline(c.nc, idleTimeout(c.front.srv))
	}
	m, err := c.nc.Read(b)
	if m == 0 {
		_ = err // a closed, reset or timed-out connection ends quietly, as in net/http
		return 0, false
	}
	if c.state.Load() == stateIdle && !c.state.CompareAndSwap(stateIdle, stateActive) {
		return 0, false
	}
	if waitIdle {
		setDeadline(c.nc, headerTimeout(c.front.srv))
	}
	return m, true
}

// answer offers the head's request to the answerer and, when it takes
// it, writes the answer; it reports whether it was answered and whether
// the connection closes after it.
func (c *conn) answer(head []byte) (answered, closing bool) {
	h := c.r.Header
	if h == nil {
		h = http.Header{}
	}
	clear(h)
	p, ok := parseHead(string(head), h, &c.vals)
	if !ok || !fillRequest(c.r, p, h, c.remote) {
		return false, false
	}
	c.w.reset()
	if !c.front.answer(&c.w, c.r) {
		return false, false
	}
	if d := c.front.srv.WriteTimeout; d > 0 {
		c.nc.SetWriteDeadline(time.Now().Add(d))
	}
	c.out, closing = c.w.appendResponse(c.out[:0], p.close)
	if _, err := c.nc.Write(c.out); err != nil {
		return true, true
	}
	if cap(c.out) > 64<<10 { // one large answer should not stay with the connection
		c.out = nil
	}
	if cap(c.w.body) > 64<<10 {
		c.w.body = nil
	}
	return true, closing
}

// handOver gives the connection to net/http with pending (the bytes
// read and not answered) replayed in front of it.
func (c *conn) handOver(pending []byte) {
	rc := &replay{Conn: c.nc, pending: append([]byte(nil), pending...)}
	c.nc.SetDeadline(time.Time{})
	c.front.handOver(rc) // before end, so that Shutdown waits for it
	c.end()
}

// end returns the connection's buffers and stops tracking it.
func (c *conn) end() {
	c.state.Store(stateClosed)
	if c.buf != nil {
		heads.Put(c.buf)
		c.buf = nil
	}
	c.front.forget(c)
}

// replay is a handed-over connection: what Front read comes first.
type replay struct {
	net.Conn
	pending []byte
}

func (r *replay) Read(b []byte) (int, error) {
	if len(r.pending) > 0 {
		n := copy(b, r.pending)
		r.pending = r.pending[n:]
		return n, nil
	}
	return r.Conn.Read(b)
}

// CloseWrite lets net/http close a handed-over TCP connection as it
// closes its own (write side first, so the client reads the answer).
func (r *replay) CloseWrite() error {
	if cw, ok := r.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// closeGently closes nc as net/http closes a connection after an answer
// that said Connection: close: the write side first, then the rest a
// little later, so that unread request bytes do not turn into a reset
// that loses the answer.
func closeGently(nc net.Conn) {
	if cw, ok := nc.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		time.AfterFunc(rstAvoidanceDelay, func() { nc.Close() })
		return
	}
	nc.Close()
}

// rstAvoidanceDelay is net/http's wait between the two closes.
const rstAvoidanceDelay = 500 * time.Millisecond

// setDeadline sets nc's read deadline d from now, or none when d <= 0.
func setDeadline(nc net.Conn, d time.Duration) {
	if d > 0 {
		nc.SetReadDeadline(time.Now().Add(d))
	} else {
		nc.SetReadDeadline(time.Time{})
	}
}

// headerTimeout is net/http's time for a request's head.
func headerTimeout(srv *http.Server) time.Duration {
	if srv.ReadHeaderTimeout != 0 {
		return srv.ReadHeaderTimeout
	}
	return srv.ReadTimeout
}

// idleTimeout is net/http's wait for a later request.
func idleTimeout(srv *http.Server) time.Duration {
	if srv.IdleTimeout != 0 {
		return srv.IdleTimeout
	}
	return srv.ReadTimeout
}
