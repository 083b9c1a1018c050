package templates

import "net/url"

// compareWithURL is the page that offers runs to compare run id with.
func compareWithURL(id string) string {
	return "/compare/with/" + url.PathEscape(id)
}

// CompareURL is the address of the comparison of runs, in order.
func CompareURL(ids ...string) string {
	q := ""
	for i, id := range ids {
		if i > 0 {
			q += ","
		}
		q += url.QueryEscape(id)
	}
	return "/compare?runs=" + q
}
