package formats

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// parseArchive reads a zip or tar of result files (an uploaded archive, or
// the zip a many-file upload is stored as: archive.Build) as one run. A
// gzipped document is the document (once: gzip in gzip is refused like any
// archive in an archive).
func parseArchive(data []byte) (*run.Parsed, error) {
	files, err := archive.Read(data)
	if err != nil {
		return nil, err
	}
	if len(files) == 1 && files[0].Name == "" {
		return parseEntry(files[0])
	}
	return ParseFiles(files)
}

// ParseFiles reads the files of one sweep as one run: each file by its own
// format's parser, then sweep.Merge. Every file's problems come back
// together, under the file's name. A file whose records were all driven by
// a request rate is left out with a note when the others have cells, as the
// parsers do with such records inside one file.
func ParseFiles(files []archive.File) (*run.Parsed, error) {
	if len(files) == 0 {
		return nil, problem.New(problem.Invalid, "$", "problem.formats.archive_empty", nil)
	}
	var (
		parts    []sweep.Part
		probs    problem.List
		rateOnly []problem.Problem
		kind     = problem.Invalid
	)
	for _, f := range files {
		p, err := parseEntry(f)
		if err == nil {
			parts = append(parts, sweep.Part{Name: f.Name, Key: DedupeKey(p, f.Data), Parsed: p})
			continue
		}
		pe, ok := problem.As(err)
		if !ok {
			return nil, err
		}
		for i := range pe.Problems {
			pe.Problems[i].Path = sweep.Rebase(f.Name, pe.Problems[i].Path)
		}
		if allRateDriven(pe) {
			rateOnly = append(rateOnly, pe.Problems...)
			continue
		}
		probs.Problems = append(probs.Problems, pe.Problems...)
		kind = min(kind, pe.Kind)
	}
	if len(parts) == 0 {
		probs.Problems = append(probs.Problems, rateOnly...)
	}
	if len(probs.Problems) > 0 {
		probs.Kind = kind
		return nil, probs.Err()
	}
	p, err := sweep.Merge(parts)
	if err != nil {
		return nil, err
	}
	if len(rateOnly) > 0 && !slices.Contains(p.Notes, sweep.NoteRateRowsSkipped) {
		p.Notes = append(p.Notes, sweep.NoteRateRowsSkipped)
	}
	return p, nil
}

// DedupeKey is the one answer to "is this document already stored?": the
// key the document carries itself (a lil-bench run_id, an export's source
// hash, a sweep's key from its files' keys), else the SHA-256 of its bytes.
func DedupeKey(p *run.Parsed, data []byte) string {
	if p.DedupeKey != "" {
		return p.DedupeKey
	}
	return DedupeKeyHashed(p, SHA256(data))
}

// DedupeKeyHashed is DedupeKey for a caller that has the document's
// SHA256 already, sum (its run's source hash): the same key without
// hashing the bytes a second time.
func DedupeKeyHashed(p *run.Parsed, sum string) string {
	if p.DedupeKey != "" {
		return p.DedupeKey
	}
	return export.DedupeKeyPrefix + sum
}

// SHA256 is the hex SHA-256 of a document, as its source is identified.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// parseEntry parses one file of an archive; an archive in an archive is
// refused rather than opened (one level keeps the limits meaningful).
func parseEntry(f archive.File) (*run.Parsed, error) {
	if archive.Detect(f.Data) != archive.None {
		return nil, problem.New(problem.Invalid, "$", "problem.formats.archive_nested", map[string]any{"File": f.Name})
	}
	return Parse(f.Data)
}

func allRateDriven(pe *problem.Error) bool {
	for _, p := range pe.Problems {
		if p.Key != "problem.formats.rate_driven" {
			return false
		}
	}
	return len(pe.Problems) > 0
}
