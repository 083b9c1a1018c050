package store

import (
	"crypto/sha256"
	"encoding/base32"
)

// idEncoding is lowercase base32 without padding: ids are typed into URLs
// and read aloud, so no case and no look-alike digits 0, 1, 8, 9.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Id lengths. Ten characters (50 bits) keep URLs short; the long form is
// used only when another dedupe key already holds the short one.
const (
	shortIDLen = 10
	longIDLen  = 16
)

// runIDs returns the short and long ids of a dedupe key. They depend on the
// key alone, so the same document always gets the same URL.
func runIDs(dedupeKey string) (short, long string) {
	sum := sha256.Sum256([]byte(dedupeKey))
	s := idEncoding.EncodeToString(sum[:])
	return s[:shortIDLen], s[:longIDLen]
}
