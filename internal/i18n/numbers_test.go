package i18n

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

// TestNumbersAreStrconvGrouped holds Dec and Int to strconv's digits over
// many magnitudes, signs and decimal counts: with the separators taken out
// again, the text is strconv's (less the sign of a number that rounds to
// zero), and the groups are of three digits.
func TestNumbersAreStrconvGrouped(t *testing.T) {
	de := NewNumbers(language.German) // group ".", decimal ","
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		v := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(25)-6))
		decimals := rng.IntN(5)
		want := strconv.FormatFloat(v, 'f', decimals, 64)
		if strings.Trim(want, "-0.") == "" {
			want = strings.TrimPrefix(want, "-")
		}
		got := de.Dec(v, decimals)
		whole, frac, _ := strings.Cut(got, ",")
		plain := strings.ReplaceAll(whole, ".", "")
		if frac != "" {
			plain += "." + frac
		}
		if plain != want || !groupedByThree(strings.TrimPrefix(whole, "-")) {
			t.Fatalf("case %d: Dec(%v, %d) = %q, want %q grouped", i, v, decimals, got, want)
		}
		n := rng.Int64N(1<<62) - 1<<61
		gotInt := de.Int(n)
		if strings.ReplaceAll(gotInt, ".", "") != strconv.FormatInt(n, 10) ||
			!groupedByThree(strings.TrimPrefix(gotInt, "-")) {
			t.Fatalf("Int(%d) = %q", n, gotInt)
		}
	}
	if got := de.Int(math.MinInt64); got != "-9.223.372.036.854.775.808" {
		t.Errorf("Int(MinInt64) = %q", got)
	}
}

// groupedByThree reports whether s is digits in groups of three after a
// first group of one to three, split by ".".
func groupedByThree(s string) bool {
	groups := strings.Split(s, ".")
	for i, g := range groups {
		if g == "" || len(g) > 3 || i > 0 && len(g) != 3 {
			return false
		}
	}
	return true
}
