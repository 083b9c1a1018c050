package llmbench

import (
	"strconv"
	"strings"
)

// version is a parsed tool version; nil means the file has none (before
// 0.2.0, when VERSION did not exist).
type version []int

func parseVersion(s string) version {
	v := version{}
	for _, part := range strings.SplitN(s, ".", 3) {
		n := 0
		for _, r := range part {
			if r < '0' || r > '9' {
				break
			}
			n = n*10 + int(r-'0')
		}
		v = append(v, n)
	}
	return v
}

// atMost reports whether v ≤ major.minor.patch; a file without a version is
// older than every numbered one.
func (v version) atMost(major, minor, patch int) bool {
	want := []int{major, minor, patch}
	for i, w := range want {
		got := 0
		if i < len(v) {
			got = v[i]
		}
		if got != w {
			return got < w
		}
	}
	return true
}

func (v version) String() string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".")
}
