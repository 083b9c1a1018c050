package bests

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// RunSort orders a list of runs. Every order ends with uploaded_at and id,
// newest first, so it is total and a cursor names one place in it.
type RunSort string

// Run list orders.
const (
	SortNewest RunSort = "newest"
	// SortSingle: best single-stream total tok/s (the run's valid cell at
	// concurrency 1 and its smallest context), runs without one last.
	SortSingle RunSort = "single"
	// SortPeak: the run's highest valid total tok/s, runs without one last.
	SortPeak RunSort = "peak"
)

// sortKey is the SQL of a sort's leading key; newest has none.
var sortKey = map[RunSort]string{
	SortSingle: "coalesce(r.best_single_tps, -1)",
	SortPeak:   "coalesce(r.best_peak_tps, -1)",
}

// ErrBadCursor is returned for a cursor this build did not write.
var ErrBadCursor = errors.New("bad cursor")

// Cursor is a place in a sorted list of runs: the last run shown. Keyset
// pagination continues after it, so runs arriving meanwhile (they sort
// before it when newest first) neither repeat nor push runs off a page.
type Cursor struct {
	Key float64   `json:"k,omitempty"`
	At  time.Time `json:"t"`
	ID  string    `json:"i"`
}

// Encode is the cursor as an opaque URL-safe string.
func (c Cursor) Encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor reads a cursor written by Encode; "" is the start.
func DecodeCursor(s string) (*Cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, ErrBadCursor
	}
	var c Cursor
	if err := json.Unmarshal(b, &c); err != nil || c.ID == "" {
		return nil, ErrBadCursor
	}
	return &c, nil
}

// RunItem is one run in a browse list: the facts a line shows and the
// identities it links to.
type RunItem struct {
	ID            string    `db:"id"`
	UploadedAt    time.Time `db:"uploaded_at"`
	Demo          bool      `db:"demo"`
	Submitter     string    `db:"submitter"`
	SubmitterSlug string    `db:"submitter_slug"`
	// SubmitterVerified: the name was proven (token or session) at upload.
	SubmitterVerified bool     `db:"submitter_verified"`
	HardwareType      string   `db:"hardware_type"`
	GPUName           string   `db:"hardware_gpu_name"`
	GPUCount          int      `db:"hardware_gpu_count"`
	VRAMGB            float64  `db:"hardware_vram_gb"`
	CPUName           string   `db:"hardware_cpu_name"`
	HardwareSlug      string   `db:"hardware_slug"`
	EngineName        string   `db:"engine_name"`
	EngineSlug        string   `db:"engine_slug"`
	EngineVersion     string   `db:"engine_version"`
	Quantization      string   `db:"engine_quantization"`
	QuantizationSlug  string   `db:"quantization_slug"`
	ModelID           string   `db:"model_id"`
	ModelServedName   string   `db:"model_served_name"` // the title's model when ModelID is empty
	ModelSlug         string   `db:"model_slug"`
	ModelBaseSlug     string   `db:"model_base_slug"`
	BestSingleTPS     *float64 `db:"best_single_tps"`
	BestPeakTPS       *float64 `db:"best_peak_tps"`
	// Flags are the run's stored plausibility flags (run.FlagAboveBound,
	// run.FlagPowerImplausible), empty for none.
	Flags []string `db:"flags"`
	// OrgSlug and OrgName name the organisation the run was uploaded
	// for, "" for none.
	OrgSlug string `db:"org_slug"`
	OrgName string `db:"org_name"`
}

// Cursor is the place of it in a list sorted by sort.
func (it *RunItem) Cursor(sort RunSort) Cursor {
	c := Cursor{At: it.UploadedAt, ID: it.ID}
	v := it.BestPeakTPS
	if sort == SortSingle {
		v = it.BestSingleTPS
	}
	if sort != SortNewest {
		c.Key = -1
		if v != nil {
			c.Key = *v
		}
	}
	return c
}

const runItemColumns = `r.id, r.uploaded_at, r.demo, r.submitter, r.submitter_slug, r.submitter_verified,
    r.hardware_type, r.hardware_gpu_name, r.hardware_gpu_count, r.hardware_vram_gb, r.hardware_cpu_name,
    r.hardware_slug, r.engine_name, r.engine_slug, r.engine_version, r.engine_quantization,
    r.quantization_slug, r.model_id, r.model_served_name, r.model_slug, r.model_base_slug, r.best_single_tps, r.best_peak_tps,
    r.flags,
    coalesce((SELECT o.slug FROM orgs o WHERE o.id = r.org_id), '') AS org_slug,
    coalesce((SELECT o.name FROM orgs o WHERE o.id = r.org_id), '') AS org_name`

// ListRuns returns at most limit runs matching f in sort order, starting
// after the cursor (nil: from the top), and whether more follow.
func (s *Bests) ListRuns(ctx context.Context, f RunFilter, sort RunSort, after *Cursor, limit int) (_ []RunItem, more bool, err error) {
	defer db.Wrap(&err, "ListRuns(%+v, %s)", f, sort)
	var q query
	q.add("NOT r.hidden") // taken down by their submitter (accounts)
	if err := s.filter(ctx, &q, f, "r", true); err != nil {
		return nil, false, err
	}
	order := "r.uploaded_at DESC, r.id DESC"
	key, ok := sortKey[sort]
	switch {
	case sort == SortNewest:
		if after != nil {
			q.add("(r.uploaded_at, r.id) < (?, ?)", after.At, after.ID)
		}
	case ok:
		order = key + " DESC, " + order
		if after != nil {
			q.add("("+key+", r.uploaded_at, r.id) < (?, ?, ?)", after.Key, after.At, after.ID)
		}
	default:
		return nil, false, fmt.Errorf("unknown sort %q", sort)
	}
	// The limit is written in the SQL, not a parameter: with LIMIT $n a
	// generic plan assumes a tenth of the rows, so PostgreSQL would plan
	// every call anew (see filter); pages use a handful of limits.
	sql := fmt.Sprintf("SELECT %s FROM runs r%s ORDER BY %s LIMIT %d", runItemColumns, q.sql(), order, limit+1)
	rows, _ := s.db.Public().Query(ctx, sql, q.args...)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByName[RunItem])
	if err != nil {
		return nil, false, err
	}
	for i := range list {
		list[i].UploadedAt = list[i].UploadedAt.UTC()
	}
	if len(list) > limit {
		return list[:limit], true, nil
	}
	return list, false, nil
}
