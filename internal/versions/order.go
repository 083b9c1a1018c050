// Package versions orders engine versions: the one order /history charts
// them in and regressions compare consecutive versions by. It stands
// alone, so the store's tables and the pages can both use it.
package versions

import (
	"strconv"
	"strings"
	"unicode"
)

// Compare orders two engine versions: -1, 0 or 1. Versions are compared by
// their numbers in turn ("0.10.1" after "0.9.2", llama.cpp's build "b6502"
// after "b6123"); a pre-release ("0.11.0rc1") comes before its release; a
// leading "v" is ignored; what has no number is compared as text.
func Compare(a, b string) int {
	na, ra := parse(a)
	nb, rb := parse(b)
	for i := range max(len(na), len(nb)) {
		x, y := at(na, i), at(nb, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	switch {
	case ra == rb:
		return strings.Compare(a, b)
	case ra == "": // the release after its pre-releases
		return 1
	case rb == "":
		return -1
	}
	return strings.Compare(ra, rb)
}

func at(n []int, i int) int {
	if i < len(n) {
		return n[i]
	}
	return 0
}

// parse splits a version into its leading dotted numbers and the rest:
// "v0.11.0rc1" → [0 11 0], "rc1"; "b6502" → [6502], "".
func parse(v string) (nums []int, rest string) {
	v = strings.TrimSpace(strings.ToLower(v))
	v = strings.TrimLeft(v, "vb")
	for v != "" {
		end := strings.IndexFunc(v, func(r rune) bool { return !unicode.IsDigit(r) })
		if end == 0 {
			break
		}
		if end < 0 {
			end = len(v)
		}
		n, err := strconv.Atoi(v[:end])
		if err != nil {
			break
		}
		nums, v = append(nums, n), v[end:]
		if !strings.HasPrefix(v, ".") {
			break
		}
		v = v[1:]
	}
	return nums, strings.TrimLeft(v, "-+_.")
}
