package store

import "embed"

// The store's longer statements are files of sql/, each one statement as
// PostgreSQL is sent it, its parameters said in a comment at its top, and
// each loaded by name (sqlFile) into the variable that sends it; a short one
// is a constant beside its use. No statement is assembled or renumbered
// at run time: what a file says is what the database runs, so grep finds
// it and EXPLAIN takes it as it is (goatcounter's db/query keeps its SQL
// so).

//go:embed sql/*.sql
var queryFiles embed.FS

// sqlFile is the statement in sql/name.sql. Each is a package variable, so
// a name without a file stops the program as it starts, and every test.
func sqlFile(name string) string {
	b, err := queryFiles.ReadFile("sql/" + name + ".sql")
	if err != nil {
		panic("store: " + err.Error())
	}
	return string(b)
}
