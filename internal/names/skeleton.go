// Package names decides when two names of people look alike: an account's
// handle, an organisation's slug, a retired handle and a submitter name
// typed on an upload are all compared by Skeleton, never by their bytes,
// so "аlice" (Cyrillic а), "ａｌｉｃｅ" and "al\u200dice" are "alice".
package names

import (
	"strings"
	"unicode"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Version numbers what Skeleton returns for every input. The store keeps
// skeletons in the database and computes them again, once, at start when
// its stored version differs, so Version must change whenever Skeleton's
// output can: a change of this code, or new Unicode data in golang.org/x/text
// or go.mau.fi/util (TestVersionPinsTheData fails until it is bumped).
const Version = "1 nfkc+fold-15.0.0 confusables-17.0.0"

// Skeleton returns the form under which two names look alike: two names
// look alike exactly when their skeletons are equal. It is
//
//  1. Unicode NFKC, so compatibility forms (full-width letters,
//     mathematical alphabets, ligatures) become their plain letters;
//  2. without format characters (category Cf: zero-width joiners and
//     spaces, direction marks), which show nothing;
//  3. without surrounding white space;
//  4. case folded (Unicode full case folding, not a per-language lower
//     case), so "ALICE" is "alice";
//  5. the skeleton of UTS #39 (Unicode's confusables data): every
//     character mapped to the prototype it may be mistaken for, so the
//     Cyrillic "а" is the Latin "a", and "rn" is "m";
//  6. case folded again, since some prototypes are capitals ("0" is
//     "O"), and handles are shown in the case they were typed in: "Bob0"
//     looks like "BobO", which is "bobo".
//
// A skeleton is for comparing only, never for showing. It over-matches on
// purpose ("rnallory" looks like "mallory", "a1ice" like "alice"): it is
// used only to refuse a new name, which is the safe side.
func Skeleton(name string) string {
	s := norm.NFKC.String(name)
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	// A Caser keeps state while it works: one per call, never shared.
	fold := cases.Fold()
	return fold.String(confusable.Skeleton(fold.String(s)))
}
