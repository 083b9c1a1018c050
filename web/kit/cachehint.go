package kit

import (
	"context"
	"net/http"
)

// KeepNote is how a handler of a cached route tells the page cache
// (web/site) not to keep the answer it is writing: the cache puts one in
// the request's context on a miss, and NotKept marks it.
type KeepNote struct{ NotKept bool }

// keepKey is the context key of a miss's KeepNote.
type keepKey struct{}

// WithKeepNote is ctx carrying n, for NotKept to find.
func WithKeepNote(ctx context.Context, n *KeepNote) context.Context {
	return context.WithValue(ctx, keepKey{}, n)
}

// NotKept tells the page cache not to keep the answer r's handler is
// writing: the one way a cached route's handler says so (KeptIf). Outside
// a miss of a cached route it does nothing.
func NotKept(r *http.Request) {
	if n, ok := r.Context().Value(keepKey{}).(*KeepNote); ok {
		n.NotKept = true
	}
}

// KeptIf says whether the page cache keeps a cached route's page, and tells
// other caches the same: kept, it is sent with no-cache (kept, revalidated
// by its ETag); not kept, with no-store, and the page cache is told so by
// NotKept (its header is for the caches after us, not read back). A page
// is not kept when its query names nothing stored: a filter no run matches
// (?model=zz1, zz2, …), a grid point nobody measured. Such values are as
// many as anyone cares to write, and pages kept for them would push out the
// pages people read.
func KeptIf(w http.ResponseWriter, r *http.Request, kept bool) {
	if kept {
		w.Header().Set("Cache-Control", "no-cache")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	NotKept(r)
}
