package templates

import "strconv"

// differsID is the id of the nth comparison's table of a kind, unique on
// the page.
func differsID(kind string, n int) string { return kind + "-" + strconv.Itoa(n) }
