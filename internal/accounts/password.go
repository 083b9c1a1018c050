package accounts

import (
	"context"
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
// so they can be raised later without invalidating old hashes. It waits
// for a hashing slot (password_slots.go) and returns ErrBusy when none
// came free in time.
func HashPassword(ctx context.Context, password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key, err := idKey(ctx, []byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	if err != nil {
		return "", err
	}
	return phc(salt, key), nil
}

// phc is the PHC string of an argon2id key made with this package's
// parameters.
func phc(salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

var b64 = base64.RawStdEncoding

// CheckPassword reports whether password matches the PHC string hash,
// comparing in constant time. Like HashPassword it runs in a hashing slot
// and returns ErrBusy when none came free in time.
func CheckPassword(ctx context.Context, hash, password string) (bool, error) {
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
	got, err := idKey(ctx, []byte(password), salt, passes, memory, threads, uint32(len(want)))
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is checked against when an e-mail address names nobody, so a
// sign-in takes as long for an unknown address as for a wrong password and
// the time taken does not tell which addresses have accounts. Its key is
// random bytes, not the hash of anything: checking against it costs what
// checking a real hash does, and making it costs no hash (made at
// start-up, one took 64 MiB before serve set the heap limit; made on
// first use, in a hashing slot, it would take a second one).
var dummyHash = sync.OnceValue(func() string {
	salt, key := make([]byte, argonSaltLen), make([]byte, argonKeyLen)
	_, _ = rand.Read(salt)
	_, _ = rand.Read(key)
	return phc(salt, key)
})

// CheckNobody spends the time a CheckPassword would, in a hashing slot;
// its error is ErrBusy or ctx's when it could not.
func CheckNobody(ctx context.Context, password string) error {
	_, err := CheckPassword(ctx, dummyHash(), password)
	return err
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
