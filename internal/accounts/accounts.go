// Package accounts holds the rules of submitter accounts: what a handle and
// an organisation slug may be, and how upload tokens are made, recognised
// and hashed. Tokens are shown to their owner once and stored only as their
// SHA-256 (store.Store keeps the hash and a short, unusable prefix).
package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
)

// TokenPrefix starts every token, as lil-bench expects (its --token check
// is TokenPattern).
const TokenPrefix = "lilb_"

// tokenRandomBytes gives 40 url-safe base64 characters: 240 random bits,
// far beyond guessing, which is why a plain SHA-256 suffices to store them.
const tokenRandomBytes = 30

// shownPrefixLen is how much of a token is kept in clear to name it
// ("lilb_AbC123"): 6 random characters, too few to use, enough to revoke by.
const shownPrefixLen = len(TokenPrefix) + 6

// TokenPattern is the form lil-bench accepts; tokens made here match it.
var TokenPattern = regexp.MustCompile(`^lilb_[A-Za-z0-9_-]{20,64}$`)

var (
	handlePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}$`)
	slugPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
)

// ValidHandle reports whether h may name a submitter: 1–39 letters, digits,
// '_', '.' or '-', starting with a letter or digit (as on GitHub, so people
// keep the name they are known by).
func ValidHandle(h string) bool { return handlePattern.MatchString(h) }

// ValidSlug reports whether s may name an organisation in a URL (/orgs/{slug}).
func ValidSlug(s string) bool { return slugPattern.MatchString(s) }

// Token is a freshly made token: the secret, shown once, and what is stored.
type Token struct {
	Secret string
	Hash   []byte
	Prefix string
}

// NewToken makes a token from the system's random source.
func NewToken() (Token, error) {
	b := make([]byte, tokenRandomBytes)
	if _, err := rand.Read(b); err != nil {
		return Token{}, err
	}
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return Token{Secret: secret, Hash: Hash(secret), Prefix: ShownPrefix(secret)}, nil
}

// Hash is what the database keeps of a token.
func Hash(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// ShownPrefix is the part of a token kept in clear to name it.
func ShownPrefix(token string) string {
	if len(token) < shownPrefixLen {
		return token
	}
	return token[:shownPrefixLen]
}

// IsToken reports whether s has the form of a whole token (as opposed to a
// prefix naming one).
func IsToken(s string) bool { return TokenPattern.MatchString(s) }

// BearerToken returns the token of an Authorization header value
// ("Bearer lilb_…") and whether the header uses the Bearer scheme at all.
// Other schemes (Basic from a password-protecting proxy in front of the
// site) are not ours: ok is false, as without a header.
func BearerToken(header string) (token string, ok bool) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(header), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(rest), true
}
