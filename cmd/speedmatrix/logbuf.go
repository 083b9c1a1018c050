package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logBuffer is the server's log output: records are gathered in memory
// and written together at most flushEvery later, or as soon as
// logBufferLimit bytes wait, instead of one write(2) per request (the
// access log's line was a tenth of a cache hit's CPU). A warning or an
// error is written at once (logHandler), and serve flushes on the way
// out; a crash loses at most the last flushEvery of info lines.
type logBuffer struct {
	mu    sync.Mutex
	w     io.Writer
	buf   []byte
	armed bool // a flush is scheduled
}

// flushEvery is how long a log line may wait in memory.
const flushEvery = 100 * time.Millisecond

// logBufferLimit is how much may wait before it is written at once.
const logBufferLimit = 64 << 10

func newLogBuffer(w io.Writer) *logBuffer { return &logBuffer{w: w} }

// Write keeps p (one whole record: slog writes a record in one call).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= logBufferLimit {
		return len(p), b.flushLocked()
	}
	if !b.armed {
		b.armed = true
		time.AfterFunc(flushEvery, func() { _ = b.Flush() })
	}
	return len(p), nil
}

// Flush writes what waits.
func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.armed = false
	return b.flushLocked()
}

func (b *logBuffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	if cap(b.buf) > 4*logBufferLimit { // a burst's buffer is not kept
		b.buf = nil
	} else {
		b.buf = b.buf[:0]
	}
	return err
}

// logHandler writes records through a logBuffer and flushes it after a
// warning or an error, so that what an operator looks for first is never
// held back.
type logHandler struct {
	slog.Handler
	out *logBuffer
}

// newLogHandler is slog's text handler on out, flushed after warnings.
func newLogHandler(out *logBuffer) slog.Handler {
	return logHandler{Handler: slog.NewTextHandler(out, nil), out: out}
}

func (h logHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := h.out.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{Handler: h.Handler.WithAttrs(attrs), out: h.out}
}

func (h logHandler) WithGroup(name string) slog.Handler {
	return logHandler{Handler: h.Handler.WithGroup(name), out: h.out}
}
