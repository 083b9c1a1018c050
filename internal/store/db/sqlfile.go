package db

import "io/fs"

// The store's longer statements are files of a package's sql/ folder,
// each one statement as PostgreSQL is sent it, its parameters said in a
// comment at its top, and each loaded by name (SQLFile) into the variable
// that sends it; a short one is a constant beside its use. No statement
// is assembled or renumbered at run time: what a file says is what the
// database runs, so grep finds it and EXPLAIN takes it as it is
// (goatcounter's db/query keeps its SQL so).

// SQLFile is the statement in sql/name.sql of files, a package's embedded
// sql/ folder. Each is loaded into a package variable, so a name without a
// file stops the program as it starts, and every test.
func SQLFile(files fs.FS, name string) string {
	b, err := fs.ReadFile(files, "sql/"+name+".sql")
	if err != nil {
		panic("store: " + err.Error())
	}
	return string(b)
}
