package db

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listen receives the changes other instances (and this one) announce on
// ChangesChannel and publishes them to the OnChange hooks, until ctx ends.
// When the listening connection is lost it publishes a reset (whatever was
// announced meanwhile is missed), reconnects with a growing pause, and
// publishes a reset again once it listens anew. notified, when not nil, is
// called once per notification received (for metrics). lost, when not
// nil, is called before each of those resets: what the caller keeps
// beside the hooks' caches (an upload's bounds on the stored bests) is
// emptied then as they are, in case the database changed.
func (d *DB) Listen(ctx context.Context, notified, lost func()) {
	reset := func() {
		if lost != nil {
			lost()
		}
		d.publish(Change{Reset: true, Remote: true})
	}
	pause := 100 * time.Millisecond
	for ctx.Err() == nil {
		conn, err := d.listenConn(ctx)
		if err == nil {
			pause = 100 * time.Millisecond
			reset() // catch up on what was missed
			d.receive(ctx, conn, notified)
			_ = conn.Close(context.WithoutCancel(ctx))
			reset() // from now on we may miss some
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// listenConn takes a connection out of the pool for good and listens on it.
func (d *DB) listenConn(ctx context.Context) (*pgx.Conn, error) {
	pc, err := d.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	conn := pc.Hijack()
	if _, err := conn.Exec(ctx, "LISTEN "+ChangesChannel); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	// Listening now, the primary's position covers every change we may
	// have missed: the reset that follows needs a replica that has it.
	if err := d.resync(ctx, conn); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}

// receive publishes notifications until the connection fails or ctx ends.
// An unreadable payload is taken as a reset.
func (d *DB) receive(ctx context.Context, conn *pgx.Conn, notified func()) {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		if notified != nil {
			notified()
		}
		var c Change
		if json.Unmarshal([]byte(n.Payload), &c) != nil {
			c = Change{Reset: true}
		}
		if c.From == d.name {
			continue // published when it committed
		}
		// The change committed before it was delivered: the primary's
		// position now is past it (replica.go).
		d.learnAfter(ctx, conn)
		c.Remote = true
		d.publish(c)
	}
}
