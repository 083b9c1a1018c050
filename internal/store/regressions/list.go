package regressions

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Query picks version changes. Empty fields pick any.
type Query struct {
	// Engine and Hardware are slugs: /regressions' filters.
	Engine, Hardware string
	// Model (a variant's or a base model's slug) and Quantization, with
	// Engine and Hardware, name one setup: its /history page's links.
	Model, Quantization string
	// Version, with a setup, picks the changes from or to that engine
	// version: a report's links (every run of the version, not only the
	// one that stands for it).
	Version string
	// Run picks the changes a run stands for a version in.
	Run string
	// Kind is regress.Regression or regress.Speedup.
	Kind regress.Kind
	// Limit is the most changes returned; 0 means DefaultLimit.
	Limit int
}

// DefaultLimit is how many changes a list shows unless told otherwise.
const DefaultLimit = 100

// Entry is one version change of a setup, with the two runs that stand
// for its versions (their header: hardware, engine, model; no cells).
type Entry struct {
	Setup
	ModelBase string
	regress.Entry
}

// runHeader is the columns of a runs row an Entry shows, for alias a.
func runHeader(a string) string {
	cols := []string{"id", "uploaded_at", "submitter", "hardware_type", "hardware_gpu_name", "hardware_gpu_count",
		"hardware_vram_gb", "hardware_cpu_name", "hardware_ram_gb", "hardware_os", "hardware_driver",
		"engine_name", "engine_version", "engine_quantization", "engine_backend", "engine_launch_command",
		"model_id", "model_served_name", "demo"}
	for i, c := range cols {
		cols[i] = a + "." + c
	}
	return strings.Join(cols, ", ")
}

func scanTargets(r *run.Run) []any {
	h, e := &r.Hardware, &r.Engine
	return []any{&r.ID, &r.UploadedAt, &r.Submitter, &h.Type, &h.GPUName, &h.GPUCount, &h.VRAMGB, &h.CPUName,
		&h.RAMGB, &h.OS, &h.Driver, &e.Name, &e.Version, &e.Quantization, &e.Backend, &e.LaunchCommand,
		&r.Model.ID, &r.Model.ServedName, &r.Demo}
}

// listSQL is the changes q picks, newest first: the conditions are this
// file's constants, the values parameters. Each filter is one range of
// an index of version_changes (migration 0030), in the list's order; a
// change whose run was hidden since the last fold is left out.
func listSQL(q Query) (string, []any) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "$?", "$"+strconv.Itoa(len(args))))
	}
	if q.Engine != "" {
		add(`v.engine_slug = $?`, q.Engine)
	}
	if q.Hardware != "" {
		add(`v.hardware_slug = $?`, q.Hardware)
	}
	if q.Model != "" {
		add(`(v.model_slug = $? OR v.model_base_slug = $?)`, q.Model)
	}
	if q.Quantization != "" {
		add(`v.quantization_slug = $?`, q.Quantization)
	}
	if q.Version != "" {
		add(`(v.old_version = $? OR v.new_version = $?)`, q.Version)
	}
	if q.Run != "" {
		add(`(v.old_run_id = $? OR v.new_run_id = $?)`, q.Run)
	}
	if q.Kind != "" {
		add(`v.kind = $?`, string(q.Kind))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	args = append(args, limit)
	// The page's rows first, by index, then their runs by key: a change
	// whose run was hidden since the last fold drops out of this page
	// rather than making the read scan for more.
	inner := `SELECT * FROM version_changes v`
	for i, w := range where {
		if i == 0 {
			inner += "\n    WHERE " + w
		} else {
			inner += "\n    AND " + w
		}
	}
	const order = `v.seen_at DESC, v.hardware_slug, v.engine_slug, v.model_slug, v.quantization_slug, v.new_version`
	inner += "\n    ORDER BY " + order + "\n    LIMIT $" + strconv.Itoa(len(args))
	sql := `
SELECT v.hardware_slug, v.engine_slug, v.model_slug, v.quantization_slug, v.model_base_slug,
    v.old_version, v.new_version, v.kind, v.percent, v.headline_context, v.headline_concurrency, v.cells, v.seen_at,
    ` + runHeader("o") + `,
    ` + runHeader("n") + `
FROM (` + inner + `) v
JOIN runs o ON o.id = v.old_run_id JOIN runs n ON n.id = v.new_run_id
WHERE NOT o.hidden AND NOT n.hidden
ORDER BY ` + order
	return sql, args
}

// VersionChanges returns the changes q picks, the newest version first (by when its
// run was uploaded).
func (s *Regressions) VersionChanges(ctx context.Context, q Query) (_ []Entry, err error) {
	defer db.Wrap(&err, "VersionChanges(%+v)", q)
	sql, args := listSQL(q)
	rows, _ := s.db.Public().Query(ctx, sql, args...)
	return pgx.CollectRows(rows, scanEntry)
}

func scanEntry(row pgx.CollectableRow) (Entry, error) {
	e := Entry{Entry: regress.Entry{Old: new(run.Run), New: new(run.Run)}}
	var kind string
	var hc, hn *int
	var cells []byte
	dest := []any{&e.Hardware, &e.Engine, &e.Model, &e.Quantization, &e.ModelBase,
		&e.OldVersion, &e.NewVersion, &kind, &e.Percent, &hc, &hn, &cells, &e.SeenAt}
	dest = append(dest, scanTargets(e.Old)...)
	dest = append(dest, scanTargets(e.New)...)
	if err := row.Scan(dest...); err != nil {
		return e, err
	}
	e.Kind = regress.Kind(kind)
	e.OldRun, e.NewRun = e.Old.ID, e.New.ID
	e.SeenAt = e.SeenAt.UTC()
	for _, r := range []*run.Run{e.Old, e.New} {
		r.UploadedAt = r.UploadedAt.UTC()
	}
	if err := json.Unmarshal(cells, &e.Cells); err != nil {
		return e, err
	}
	if hc != nil && hn != nil {
		e.HasHeadline = true
		for _, c := range e.Cells {
			if c.Context == *hc && c.Concurrency == *hn {
				e.Headline = c
			}
		}
	}
	return e, nil
}

// LatestVersionChange is when the newest change q picks was seen, zero when there is
// none: a feed's updated time and a page's Last-Modified.
func (s *Regressions) LatestVersionChange(ctx context.Context, q Query) (time.Time, error) {
	q.Limit = 1
	es, err := s.VersionChanges(ctx, q)
	if err != nil || len(es) == 0 {
		return time.Time{}, err
	}
	return es[0].SeenAt, nil
}
