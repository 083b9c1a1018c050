// Package migrations holds the database schema as numbered golang-migrate
// files. They are embedded so the binary carries the schema it was built for
// and can refuse to serve a database it does not know (see store.Migrate).
package migrations

import "embed"

// FS holds every NNNN_name.up.sql and .down.sql file of this folder.
//
//go:embed *.sql
var FS embed.FS
