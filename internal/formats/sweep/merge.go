package sweep

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Part is one parsed file of a many-file upload (several form files, a zip,
// a tar): Name labels it in messages, Key identifies its content (its own
// dedupe key, or "sha256:" and the hash of its bytes).
type Part struct {
	Name   string
	Key    string
	Parsed *run.Parsed
}

// Rebase moves a path inside a file's document ("$.x") under the file
// (archive.At).
func Rebase(name, path string) string {
	if strings.HasPrefix(path, "$") {
		return archive.At(name) + path[1:]
	}
	return archive.At(name)
}

// Merge makes one run of the files of a sweep: the same setup measured at
// several prompt lengths and concurrencies, one or a few cells per file.
// The files must agree on every fact both know (tool, model, engine,
// hardware); a file that disagrees with the others is named with the fact,
// and a cell measured by two files is named with both. The cells are the
// union; the dedupe key depends on the set of files, not their order or
// names. Problems come back together, one refusal for the whole upload.
func Merge(parts []Part) (*run.Parsed, error) {
	if len(parts) == 0 {
		return nil, problem.New(problem.Invalid, "$", "problem.formats.archive_empty", nil)
	}
	parts = slices.Clone(parts)
	slices.SortFunc(parts, func(a, b Part) int { return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Key, b.Key)) })
	if len(parts) == 1 {
		p := *parts[0].Parsed
		if p.DedupeKey == "" {
			// The same file alone and in an archive is one run.
			p.DedupeKey = parts[0].Key
		}
		rebaseCells(&p, parts[0].Name)
		return &p, nil
	}
	probs := problem.List{Kind: problem.Invalid}
	odd := checkFacts(&probs, parts)
	out := combine(&probs, parts, odd)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// DedupeKey is the identity of a set of files: the hash of their sorted
// content keys.
func DedupeKey(parts []Part) string {
	keys := make([]string, len(parts))
	for i, p := range parts {
		keys[i] = p.Key
	}
	slices.Sort(keys)
	sum := sha256.Sum256([]byte(strings.Join(keys, "\n")))
	return "sweep:" + hex.EncodeToString(sum[:])
}

func rebaseCells(p *run.Parsed, name string) {
	p.Decode = slices.Clone(p.Decode)
	for i := range p.Decode {
		p.Decode[i].Path = Rebase(name, p.Decode[i].Path)
	}
	p.Prefill = slices.Clone(p.Prefill)
	for i := range p.Prefill {
		p.Prefill[i].Path = Rebase(name, p.Prefill[i].Path)
	}
}
