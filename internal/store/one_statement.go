package store

import (
	"regexp"
	"strconv"
	"strings"
)

// Statements of an upload that run one after another in a pipeline can
// go as one statement of data-modifying CTEs: one message for the backend
// to receive, bind, start, run and end instead of several (uploadWrites,
// offersAndCountsSQL). Such a statement has one snapshot, taken when it
// starts; a statement that must see a lock taken before it stays apart.

// cte is one CTE of a statement: its name and text.
type cte struct {
	name, sql string
	// run marks a write the statement runs to its end in the order its
	// parts list it (joinCTEs); the others are read by them.
	run bool
}

// part is one former statement's CTEs, its parameters numbered from $1 in
// each of them, and the parameters.
type part struct {
	ctes []cte
	args []any
}

// joinCTEs is the text of one statement made of the parts' CTEs, each
// part's parameters renumbered after the previous parts': the writes
// marked run are read to their end by the main query, one after another
// in the order the parts list them (it counts the rows each returns, left
// to right), so they take their row locks in that order, as the
// statements they were did. The parts' CTE names must differ.
func joinCTEs(parts []part) string {
	var with, counts []string
	from := 0
	for _, p := range parts {
		off := from
		for _, c := range p.ctes {
			sql := renumber(c.sql, func(n int) int { return n + off })
			if c.run {
				if !strings.Contains(sql, "RETURNING") {
					sql += "\nRETURNING 1"
				}
				counts = append(counts, `(SELECT count(*) FROM `+c.name+`)`)
			}
			with = append(with, c.name+` AS (`+sql+`)`)
		}
		from += len(p.args)
	}
	return `WITH ` + strings.Join(with, ",\n") + `
SELECT ` + strings.Join(counts, ", ")
}

// joinArgs is the parameters of joinCTEs(parts), in its order.
func joinArgs(parts []part) []any {
	var args []any
	for _, p := range parts {
		args = append(args, p.args...)
	}
	return args
}

// placeholder is a parameter in a statement's text.
var placeholder = regexp.MustCompile(`\$[0-9]+`)

// renumber gives every parameter $n of sql the number to(n), for a
// statement that becomes part of a larger one. The texts it is given
// have no dollar quotes.
func renumber(sql string, to func(n int) int) string {
	return placeholder.ReplaceAllStringFunc(sql, func(p string) string {
		n, _ := strconv.Atoi(p[1:])
		return "$" + strconv.Itoa(to(n))
	})
}
