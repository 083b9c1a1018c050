package store

import (
	"embed"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// The runs' longer statements are files of sql/, loaded by name
// (db.SQLFile says how the store keeps its SQL).

//go:embed sql/*.sql
var queryFiles embed.FS

// sqlFile is the statement in sql/name.sql.
func sqlFile(name string) string { return db.SQLFile(queryFiles, name) }
