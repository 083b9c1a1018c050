package accounts

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters: RFC 9106's second recommended setting (64 MiB,
// 3 passes), with one lane since the server has few cores to spare.
const (
	argonTime    = 3
	argonMemory  = 64 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Password length bounds, in characters: long enough that guessing is
// slow, and a ceiling so nobody makes the server hash megabytes.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 256
)

// ErrBadHash is returned for a stored hash that is not one HashPassword
// wrote.
var ErrBadHash = errors.New("not an argon2id hash")

// ValidPassword reports whether p may be a password.
func ValidPassword(p string) bool {
	n := utf8.RuneCountInString(p)
	return n >= MinPasswordLen && n <= MaxPasswordLen
}

// HashPassword returns the argon2id hash of password as a PHC string
// ($argon2id$v=19$m=…,t=…,p=…$salt$hash), which carries its own parameters
// so they can be raised later without invalidating old hashes.
func HashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var b64 = base64.RawStdEncoding

// CheckPassword reports whether password matches the PHC string hash,
// comparing in constant time.
func CheckPassword(hash, password string) (bool, error) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false, ErrBadHash
	}
	var memory, passes uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &memory, &passes, &threads); err != nil {
		return false, ErrBadHash
	}
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, ErrBadHash
	}
	got := argon2.IDKey([]byte(password), salt, passes, memory, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when an e-mail address names nobody, so a
// sign-in takes as long for an unknown address as for a wrong password and
// the time taken does not tell which addresses have accounts. It is made
// on first use, not when the program starts: an argon2id hash takes its
// 64 MiB of memory, which at start-up, before serve sets the heap limit,
// was the server's peak RSS, and most processes (import, migrate) never
// check a password.
var dummyHash = sync.OnceValue(func() string {
	h, _ := HashPassword("not anybody's password")
	return h
})

// CheckNobody spends the time a CheckPassword would and reports false.
func CheckNobody(password string) bool {
	_, _ = CheckPassword(dummyHash(), password)
	return false
}

// NewSecret returns 256 random bits, url-safe, for a session, a password
// reset link or a claim cookie; the database keeps only Hash(secret).
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// ValidEmail is a loose check of an e-mail address: one @ with something
// on both sides, no spaces, at most 254 bytes. Deliverability is the mail
// server's to decide.
func ValidEmail(e string) bool {
	local, domain, ok := strings.Cut(e, "@")
	return ok && local != "" && domain != "" && !strings.ContainsAny(e, " \t\r\n<>") &&
		!strings.Contains(domain, "@") && len(e) <= 254
}
