package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Draft is an upload read but not published: its files as uploaded, the
// fields typed so far, and who may see it. Drafts live in a table of their
// own, so no query that reads runs (lists, leaderboard, sitemap, search,
// the API) can return one.
type Draft struct {
	ID string
	// Owner is who may see the draft: "browser:<hash of its cookie>" for
	// the browser that uploaded it, or an account's key once the account
	// signed out of that browser (DisownDrafts).
	Owner string
	// Account is the handle of the account the draft was uploaded as (its
	// session's or token's), "" for an anonymous upload: the only account
	// that may publish it, if it may when it does.
	Account string
	// Org is the slug of the organisation the account uploads for, ""
	// for none; checked again at publication.
	Org   string
	Files []archive.File
	// Parsed is the parse of Files as the ingest kept it
	// (ingest.Document.Keep), so the draft is not parsed again; nil for a
	// draft made before parses were kept.
	Parsed []byte
	Fields map[string]string
	// PublishedRun is the run the draft became; "" until published.
	PublishedRun string
	CreatedAt    time.Time
	ExpiresAt    time.Time
}

// InsertDraft stores a new draft.
func (s *Accounts) InsertDraft(ctx context.Context, d *Draft) (err error) {
	defer db.Wrap(&err, "InsertDraft")
	names := make([]string, len(d.Files))
	data := make([][]byte, len(d.Files))
	for i, f := range d.Files {
		names[i], data[i] = f.Name, f.Data
	}
	fields := d.Fields
	if fields == nil {
		fields = map[string]string{}
	}
	_, err = s.db.Pool().Exec(ctx, `INSERT INTO drafts (id, owner, account, org, file_names, file_data, parsed, fields, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		d.ID, d.Owner, d.Account, d.Org, names, data, d.Parsed, fields, d.CreatedAt.UTC(), d.ExpiresAt.UTC())
	return err
}

// GetDraft returns the draft id of one of owners that has not expired at
// now; any other (unknown, someone else's, expired) is ErrNotFound, so a
// stranger cannot tell whether an address exists.
func (s *Accounts) GetDraft(ctx context.Context, id string, owners []string, now time.Time) (_ *Draft, err error) {
	defer db.Wrap(&err, "GetDraft(%q)", id)
	d := &Draft{ID: id}
	var names []string
	var data [][]byte
	var published *string
	err = s.db.Pool().QueryRow(ctx, `SELECT owner, account, org, file_names, file_data, parsed, fields, published_run, created_at, expires_at
		FROM drafts WHERE id = $1 AND owner = ANY($2) AND expires_at > $3`, id, owners, now.UTC()).
		Scan(&d.Owner, &d.Account, &d.Org, &names, &data, &d.Parsed, &d.Fields, &published, &d.CreatedAt, &d.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, db.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	for i := range names {
		d.Files = append(d.Files, archive.File{Name: names[i], Data: data[i]})
	}
	if published != nil {
		d.PublishedRun = *published
	}
	return d, nil
}

// SetDraftFields keeps the fields typed on the preview, so the preview
// shows them when the page comes back.
func (s *Accounts) SetDraftFields(ctx context.Context, id string, fields map[string]string) (err error) {
	defer db.Wrap(&err, "SetDraftFields(%q)", id)
	return s.execOne(ctx, `UPDATE drafts SET fields = $2 WHERE id = $1 AND published_run IS NULL`, id, fields)
}

// PublishDraft records the run a draft became and drops its files and
// their parse: the run keeps them now, and a second publish only needs the
// run's id.
func (s *Accounts) PublishDraft(ctx context.Context, id, runID string) (err error) {
	defer db.Wrap(&err, "PublishDraft(%q)", id)
	return s.execOne(ctx, `UPDATE drafts SET published_run = $2, file_names = '{}', file_data = '{}', parsed = NULL WHERE id = $1`, id, runID)
}

// DeleteDraft discards the draft id of one of owners.
func (s *Accounts) DeleteDraft(ctx context.Context, id string, owners []string) (err error) {
	defer db.Wrap(&err, "DeleteDraft(%q)", id)
	return s.execOne(ctx, `DELETE FROM drafts WHERE id = $1 AND owner = ANY($2)`, id, owners)
}

// DisownDrafts gives every draft of account handle that a browser owns to
// owner, the account's own key: the browsers no longer see them.
func (s *Accounts) DisownDrafts(ctx context.Context, handle, owner string) (err error) {
	defer db.Wrap(&err, "DisownDrafts(%q)", handle)
	_, err = s.db.Pool().Exec(ctx, `UPDATE drafts SET owner = $2 WHERE account = $1 AND owner LIKE 'browser:%'`, handle, owner)
	return err
}

// DeleteExpiredDrafts deletes every draft whose time is up at now and
// returns how many.
func (s *Accounts) DeleteExpiredDrafts(ctx context.Context, now time.Time) (n int64, err error) {
	defer db.Wrap(&err, "DeleteExpiredDrafts")
	tag, err := s.db.Pool().Exec(ctx, `DELETE FROM drafts WHERE expires_at <= $1`, now.UTC())
	return tag.RowsAffected(), err
}

// execOne runs a statement that must touch one row; none is ErrNotFound.
func (s *Accounts) execOne(ctx context.Context, sql string, args ...any) error {
	tag, err := s.db.Pool().Exec(ctx, sql, args...)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return db.ErrNotFound
	}
	return nil
}
