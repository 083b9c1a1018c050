package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// SitemapRun is one run for sitemap.xml: its address and when it last
// changed (for <lastmod>).
type SitemapRun struct {
	ID         string    `db:"id"`
	UploadedAt time.Time `db:"uploaded_at"`
}

// SitemapRuns lists the runs search engines should know, newest first, at
// most limit (a sitemap file holds 50,000 addresses): hidden runs answer
// 404 and synthetic demo runs are not results, so both are left out.
func (s *Store) SitemapRuns(ctx context.Context, limit int) (_ []SitemapRun, err error) {
	defer db.Wrap(&err, "SitemapRuns(%d)", limit)
	rows, _ := s.db.Public().Query(ctx, sitemapRunsSQL, limit)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByName[SitemapRun])
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].UploadedAt = list[i].UploadedAt.UTC()
	}
	return list, nil
}

// sitemapRunsSQL reads through runs_sitemap_idx, which holds only the runs
// it lists (a site of demo runs has none to read), backward: the index is
// ascending, the cheaper order for inserts of new runs (migration 0023).
const sitemapRunsSQL = `
SELECT id, uploaded_at FROM runs
WHERE NOT hidden AND NOT demo
ORDER BY uploaded_at DESC, id DESC
LIMIT $1`
