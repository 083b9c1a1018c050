package names_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"unicode/utf8"

	"github.com/speedmatrix/speedmatrix/internal/names"
)

// TestSkeletonLookAlikes: every way the attack tried to pass for "alice"
// has alice's skeleton, and so do the spellings refused before.
func TestSkeletonLookAlikes(t *testing.T) {
	alice := names.Skeleton("alice")
	for _, name := range []string{
		"аlice",           // Cyrillic а
		"ａｌｉｃｅ",           // full-width
		"al\u200dice",     // zero-width joiner (Cf)
		"alice\u200b",     // zero-width space (Cf)
		"\u202ealice",     // right-to-left override (Cf)
		"ALICE",           // case
		" alice ",         // surrounding space
		"alice\u00a0",     // no-break space (NFKC makes it a space)
		"\u3000alice",     // ideographic space
		"𝐚𝐥𝐢𝐜𝐞",           // mathematical bold (NFKC)
		"a1ice",           // digit one for l (confusables)
		"alıce",           // dotless ı (confusables)
		"ali\u0441e",      // Cyrillic с
		"\u0430l\u0456ce", // Cyrillic а and і
	} {
		if got := names.Skeleton(name); got != alice {
			t.Errorf("Skeleton(%+q) = %+q, want alice's %+q", name, got, alice)
		}
	}
	// Case folding comes before the confusables: capital I is i, not l.
	if names.Skeleton("aIice") == alice {
		t.Errorf("Skeleton(aIice) = alice's: folding should make it aiice")
	}
}

// TestSkeletonKeepsDifferentNamesApart: names that read differently keep
// different skeletons, inner spaces and accents included.
func TestSkeletonKeepsDifferentNamesApart(t *testing.T) {
	for _, pair := range [][2]string{
		{"alice", "alicia"},
		{"alice", "bob"},
		{"alice", "alicé"},
		{"al ice", "alice"},
		{"acme", "acne"},
		{"qwen-lab", "qwen_lab"},
	} {
		if a, b := names.Skeleton(pair[0]), names.Skeleton(pair[1]); a == b {
			t.Errorf("Skeleton(%q) = Skeleton(%q) = %q, want them apart", pair[0], pair[1], a)
		}
	}
}

// TestSkeletonOverMatchesByDesign: UTS #39 maps "rn" to "m", and 0 to O,
// so names a careful reader tells apart share a skeleton. That refuses a
// typed name or a new handle, never an existing one: the safe side.
func TestSkeletonOverMatchesByDesign(t *testing.T) {
	for _, pair := range [][2]string{
		{"mallory", "rnallory"},
		{"bob0", "bobo"},
		{"will", "wi11"},
	} {
		if a, b := names.Skeleton(pair[0]), names.Skeleton(pair[1]); a != b {
			t.Errorf("Skeleton(%q) = %q, Skeleton(%q) = %q: the confusables data should join them", pair[0], a, pair[1], b)
		}
	}
}

// TestSkeletonIsIdempotentOnHandles: a handle of the allowed characters
// keeps one skeleton however often it is taken, so a stored skeleton
// compared with a computed one means the same thing.
func TestSkeletonIsIdempotentOnHandles(t *testing.T) {
	for _, h := range []string{"alice", "Bob_99", "qwen.lab-2", "rnallory"} {
		s := names.Skeleton(h)
		if again := names.Skeleton(s); again != s {
			t.Errorf("Skeleton(Skeleton(%q)) = %q, want %q", h, again, s)
		}
	}
}

// versionFingerprint is the SHA-256 of Skeleton of every single code point
// under names.Version. When golang.org/x/text's or the confusables' data
// change, so does this: bump names.Version (the store then recomputes the
// stored skeletons) and record the new fingerprint.
const versionFingerprint = "fcd5aae5ec0ec66e6a31e6d03734368cbe3850aee656cce77be960b2fb7b4019"

// TestVersionPinsTheData fails when Skeleton's output changed without
// names.Version changing with it.
func TestVersionPinsTheData(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every code point")
	}
	h := sha256.New()
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		h.Write([]byte(names.Skeleton(string(r))))
		h.Write([]byte{0})
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != versionFingerprint {
		t.Errorf("Skeleton's output over every code point has fingerprint %s, recorded %s for Version %q: "+
			"bump names.Version and record the new fingerprint", got, versionFingerprint, names.Version)
	}
}
