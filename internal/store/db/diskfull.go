package db

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
)

// IsDiskFull reports whether err is PostgreSQL saying its disk is full
// (SQLSTATE 53100, disk_full: a table or its WAL could not grow). The
// transaction was rolled back whole, so nothing was stored; reads still
// work, and writes will once space is freed.
func IsDiskFull(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "53100"
}
