// Package problem describes why an upload was refused: a kind that becomes
// the HTTP status, and a list of problems, each naming where in the input it
// is (a JSON path or a form field) and what is wrong there.
//
// Messages are message ids of the locale files plus their data, so every
// door words them in its reader's language; English is the fallback.
package problem

import (
	"errors"
	"fmt"
	"maps"
	"strings"
)

// Kind classifies a refusal; the web layer maps it to a status code.
type Kind int

// Kinds of refusal.
const (
	// Malformed input cannot be read at all: not JSON, truncated, invalid
	// UTF-8, a gzip stream that does not inflate (400).
	Malformed Kind = iota + 1
	// TooLarge input exceeds the size limit (413).
	TooLarge
	// Unsupported media: a content type or encoding we do not take (415).
	Unsupported
	// Invalid input is readable but not acceptable: another tool's file, an
	// empty grid, negative or non-finite numbers, duplicate cells (422).
	Invalid
)

// Problem is one thing wrong with the input.
type Problem struct {
	// Path is a JSON path ("$.results[3].aggregate_tps") or a form field name.
	Path string
	// Key is the locale message id ("problem.negative").
	Key string
	// Data fills the message's placeholders.
	Data map[string]any
}

// Error is a refusal: it carries everything a door needs to answer.
type Error struct {
	Kind     Kind
	Problems []Problem
}

// Error renders the problems in a terse, untranslated form for logs.
func (e *Error) Error() string {
	parts := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		parts = append(parts, fmt.Sprintf("%s: %s %v", p.Path, p.Key, p.Data))
	}
	return "refused: " + strings.Join(parts, "; ")
}

// New returns an Error of one problem.
func New(kind Kind, path, key string, data map[string]any) *Error {
	return &Error{Kind: kind, Problems: []Problem{clipped(path, key, data)}}
}

// EchoMax is how many characters of a value a client sent (a path, an id,
// a query, a key or value of an uploaded document) an answer repeats.
const EchoMax = 100

// Clip returns s cut to EchoMax characters and ended with "…" when it was
// longer: enough of the value to recognise it, never all of a value an
// attacker made 5,000 characters long. Every answer that repeats what a
// client sent (an error page's address, a problem's path and values) cuts
// it here.
func Clip(s string) string {
	if len(s) <= EchoMax {
		return s
	}
	n := 0
	for i := range s {
		if n == EchoMax {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// clipped is a problem whose path and text values are cut by Clip; data
// is copied only when a value is cut.
func clipped(path, key string, data map[string]any) Problem {
	p := Problem{Path: Clip(path), Key: key, Data: data}
	copied := false
	for k, v := range data {
		if s, ok := v.(string); ok && len(s) > EchoMax {
			if !copied {
				p.Data, copied = maps.Clone(data), true
			}
			p.Data[k] = Clip(s)
		}
	}
	return p
}

// As reports whether err is a refusal and returns it.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// List collects problems of one kind while a document is checked, so a user
// sees every problem at once rather than one per upload.
type List struct {
	Kind     Kind
	Problems []Problem
}

// Add records a problem.
func (l *List) Add(path, key string, data map[string]any) {
	l.Problems = append(l.Problems, clipped(path, key, data))
}

// Err returns the collected problems as an error, or nil when there are none.
// The list is capped so a pathological file cannot produce a huge answer.
func (l *List) Err() error {
	if len(l.Problems) == 0 {
		return nil
	}
	const max = 50
	ps := l.Problems
	if len(ps) > max {
		ps = append(ps[:max:max], Problem{Path: "$", Key: "problem.more", Data: map[string]any{"Count": len(l.Problems) - max}})
	}
	kind := l.Kind
	if kind == 0 {
		kind = Invalid
	}
	return &Error{Kind: kind, Problems: ps}
}

// Rebase prefixes the paths of a refusal read from an embedded document
// ("$.a") with where that document sits ("$.results.bench" → "$.results.bench.a").
func Rebase(err error, base string) error {
	e, ok := As(err)
	if !ok || base == "$" {
		return err
	}
	for i := range e.Problems {
		if p := e.Problems[i].Path; len(p) > 0 && p[0] == '$' {
			e.Problems[i].Path = Clip(base + p[1:])
		}
	}
	return e
}
