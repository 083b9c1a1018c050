// Package ingest is the one path every door (the upload form, the API, the
// CLI, the demo loader) takes: detect the format, parse, merge the
// uploader's metadata, validate, derive statuses, store in one transaction.
// Bad input comes back as a *problem.Error and nothing is stored.
package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// Store is what the ingest needs of the database.
type Store interface {
	// InsertRun stores r and its source in one transaction, or, when a run
	// with the same dedupe key exists, returns that run's id and false.
	InsertRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte) (id string, created bool, err error)
}

// Upload is one document and what came with it.
type Upload struct {
	// Body is the document, already inflated (see ReadBody).
	Body     []byte
	Filename string
	Meta     Meta
	// Account is the handle of the submitter whose token came with the
	// upload; it wins over the declared submitter and marks the run's name
	// as verified. Empty for anonymous uploads.
	Account string
}

// Result says which run an upload became.
type Result struct {
	ID string
	// Created is false when the document was already stored: the answer is
	// the first run.
	Created bool
}

// Ingest runs an upload through the whole path and stores it.
func Ingest(ctx context.Context, st Store, u Upload) (*Result, error) {
	r, key, err := Prepare(u, time.Now())
	if err != nil {
		return nil, err
	}
	id, created, err := st.InsertRun(ctx, r, key, u.Body)
	if err != nil {
		return nil, err
	}
	return &Result{ID: id, Created: created}, nil
}

// Prepare does everything but storing: it returns the derived run and its
// dedupe key.
func Prepare(u Upload, now time.Time) (*run.Run, string, error) {
	p, err := formats.Parse(u.Body)
	if err != nil {
		return nil, "", err
	}
	merge(p, u.Meta)
	if err := validate(p); err != nil {
		return nil, "", err
	}
	sum := sha256.Sum256(u.Body)
	hash := hex.EncodeToString(sum[:])
	key := p.DedupeKey
	if key == "" {
		key = export.DedupeKeyPrefix + hash
	}
	r := derive(p)
	r.UploadedAt = now.UTC()
	r.Source = run.Source{SHA256: hash, Filename: u.Filename, ContentType: archive.ContentType(u.Body), Size: int64(len(u.Body))}
	if u.Account != "" {
		r.Submitter, r.SubmitterVerified = u.Account, true
	}
	return r, key, nil
}

// derive builds the stored run from a parsed, validated document: statuses
// by the current rules, and the grid as derived.
func derive(p *run.Parsed) *run.Run {
	prefill, decode := status.Derive(p)
	settings := p.Settings
	settings.Contexts, settings.Concurrencies = status.Grid(p)
	settings.PrefillContexts = prefillContexts(prefill)
	return &run.Run{
		Submitter: p.Submitter, Provenance: p.Provenance, Tool: p.Tool, SourceFormat: p.Format,
		Hardware: p.Hardware, Engine: p.Engine, Model: p.Model, Settings: settings,
		Prefill: prefill, Decode: decode, MeasuredAt: p.MeasuredAt,
		RulesVersion: status.RulesVersion, Notes: p.Notes, Profile: p.Profile, Integrity: p.Integrity,
	}
}

func prefillContexts(rows []run.PrefillRow) []int {
	out := make([]int, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.Context)
	}
	return out
}
