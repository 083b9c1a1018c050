// Package ingest is the one path every door (the upload form, the API,
// lil-bench, the CLI, the demo loader) takes: read the files within the
// limits (Open), detect the format, parse, merge the uploader's metadata,
// validate, derive statuses, store in one transaction. Bad input comes back
// as a *problem.Error and nothing is stored.
package ingest

import (
	"context"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/calculator"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// Store is what the ingest needs of the database.
type Store interface {
	// InsertRun stores r and its source in one transaction, or, when a run
	// with the same dedupe key exists, returns that run's id and false.
	InsertRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte) (id string, created bool, err error)
}

// Upload is one upload as a door received it, read but not parsed.
type Upload struct {
	// Files is one document, or the files of one sweep (read by Open or
	// OpenMultipart: inflated, within the limits).
	Files []archive.File
	// Doc, when set, is Files already parsed (Read, Reopen): the ingest
	// derives from it and does not parse Files again.
	Doc *Document
	// Fields are the metadata fields as given (form or multipart fields,
	// the keys of the CLI's --meta file: FieldsFromJSON), by MetaFields name.
	Fields map[string]string
	// Account is the handle of the submitter whose token came with the
	// upload; it wins over the declared submitter and marks the run's name
	// as verified. Empty for anonymous uploads.
	Account string
	// Org is the organisation the account uploads for (its slug; its
	// name too when the door knows it), only with Account; the store
	// refuses it when the account is not a member.
	Org run.Org
}

// Result says which run an upload became.
type Result struct {
	ID string
	// Created is false when the document was already stored: the answer is
	// the first run.
	Created bool
	// Format is the format the document was read as (run.SourceFormat).
	Format string
}

// Ingest runs an upload through the whole path and stores it.
func Ingest(ctx context.Context, st Store, u Upload) (*Result, error) {
	r, key, source, err := prepare(u, time.Now())
	if err != nil {
		return nil, err
	}
	id, created, err := st.InsertRun(ctx, r, key, source)
	if err != nil {
		return nil, err
	}
	return &Result{ID: id, Created: created, Format: r.SourceFormat}, nil
}

// Prepare does everything but storing: it returns the derived run and its
// dedupe key. Every problem of the upload comes back at once: a bad
// metadata field and a bad document are both reported.
func Prepare(u Upload, now time.Time) (*run.Run, string, error) {
	r, key, _, err := prepare(u, now)
	return r, key, err
}

func prepare(u Upload, now time.Time) (*run.Run, string, []byte, error) {
	meta, metaErr := ParseMeta(func(name string) string { return u.Fields[name] })
	var err error
	doc := u.Doc
	if doc == nil {
		doc, err = Read(u.Files)
	}
	var p *run.Parsed
	if err == nil {
		// The fields are merged into a copy, so the document serves again
		// (a draft's preview, then its publication). Merging writes only
		// the copy's own fields; nothing after it writes the slices it
		// shares with the document.
		parsed := *doc.parsed
		p = &parsed
		// The fields that were read are merged even when others were not,
		// so the document is checked with what the uploader meant.
		merge(p, meta)
		err = validate(p)
	}
	if err := join(metaErr, err); err != nil {
		return nil, "", nil, err
	}
	r := derive(p)
	r.UploadedAt = now.UTC()
	source, filename := doc.source()
	sum := formats.SHA256(source) // once: the source's hash, and the key of a document without one of its own
	r.Source = run.Source{SHA256: sum, Filename: filename,
		ContentType: archive.ContentType(source), Size: int64(len(source))}
	if u.Account != "" {
		r.Submitter, r.SubmitterVerified, r.Org = u.Account, true, u.Org
	}
	return r, formats.DedupeKeyHashed(p, sum), source, nil
}

// join puts the problems of the metadata and of the document in one
// refusal; the document's kind wins, being the more basic one.
func join(metaErr, docErr error) error {
	if metaErr == nil {
		return docErr
	}
	fieldErr, _ := problem.As(metaErr)
	if docErr == nil {
		return fieldErr
	}
	pe, ok := problem.As(docErr)
	if !ok {
		return docErr
	}
	fieldErr.Problems = append(fieldErr.Problems, pe.Problems...)
	fieldErr.Kind = pe.Kind
	return fieldErr
}

// Derive builds the run to store from a document parsed elsewhere (the
// demo's synthetic runs): it is validated and derived as an upload is.
// Source, dedupe key and upload time are the caller's.
func Derive(p *run.Parsed) (*run.Run, error) {
	if err := validate(p); err != nil {
		return nil, err
	}
	return derive(p), nil
}

// derive builds the stored run from a parsed, validated document: statuses
// by the current rules, and the grid as derived.
func derive(p *run.Parsed) *run.Run {
	prefill, decode := status.Derive(p)
	settings := p.Settings
	settings.Contexts, settings.Concurrencies = status.Grid(p)
	settings.PrefillContexts = prefillContexts(prefill)
	r := &run.Run{
		Submitter: p.Submitter, Provenance: p.Provenance, Tool: p.Tool, SourceFormat: p.Format,
		Hardware: p.Hardware, Engine: p.Engine, Model: p.Model, Settings: settings,
		Prefill: prefill, Decode: decode, MeasuredAt: p.MeasuredAt,
		RulesVersion: status.RulesVersion, Notes: p.Notes, Profile: p.Profile, Integrity: p.Integrity,
		Telemetry: p.Telemetry,
	}
	r.Flags, r.BoundVersion = calculator.Flags(r), calculator.BoundVersion()
	return r
}

func prefillContexts(rows []run.PrefillRow) []int {
	out := make([]int, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.Context)
	}
	return out
}
