package localpg

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// createDatabase creates the application database unless it exists.
func (c *Cluster) createDatabase(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, c.AdminURL())
	if err != nil {
		return fmt.Errorf("localpg: connecting to %s: %w", c.AdminURL(), err)
	}
	defer conn.Close(ctx)
	var exists bool
	err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", Database).Scan(&exists)
	if err != nil {
		return fmt.Errorf("localpg: %w", err)
	}
	if exists {
		return nil
	}
	// Database names cannot be bound as parameters; this one is a constant.
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{Database}.Sanitize()); err != nil {
		return fmt.Errorf("localpg: creating database %s: %w", Database, err)
	}
	return nil
}
