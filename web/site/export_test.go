package site

import (
	"slices"
)

// CachedRoutePatterns are the route patterns the page cache keeps, sorted.
// Tests only.
func CachedRoutePatterns() []string {
	out := make([]string, 0, len(cachedRoutes))
	for p := range cachedRoutes {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
