package bests

import (
	"context"
	"fmt"
	"strings"
)

// RunFilter selects runs by identity slug; an empty field matches every
// run. Model takes a variant slug or a base model's slug (a base matches
// all its variants).
type RunFilter struct {
	Model, Hardware, Engine, EngineVersion, Quantization, Submitter string
}

// filterField is one field of RunFilter besides Model, and the column it
// compares.
type filterField struct {
	column string
	// kept is the narrowest table of bests that has the column, so that
	// a board filtered on it can read bests: best_cells for a column the
	// runs of a browse group share, version_best_cells for the engine
	// version, submitter_best_cells for the submitter.
	kept  *bestTable
	value func(RunFilter) string
}

// filterFields lists RunFilter's fields besides Model in a fixed order (by
// column), so that the same fields set give the same SQL text every time,
// and PostgreSQL the same statement to keep a plan for.
var filterFields = []filterField{
	{"engine_slug", &groupBests, func(f RunFilter) string { return f.Engine }},
	{"engine_version", &versionBests, func(f RunFilter) string { return f.EngineVersion }},
	{"hardware_slug", &groupBests, func(f RunFilter) string { return f.Hardware }},
	{"quantization_slug", &groupBests, func(f RunFilter) string { return f.Quantization }},
	{"submitter_slug", &submitterBests, func(f RunFilter) string { return f.Submitter }},
}

// bests is the table of bests that answers a board filtered by f
// (best_cells unless f sets the engine version or the submitter; every
// table has the group's columns), or false when none does: f sets both
// the engine version and the submitter. No table keeps a best per group,
// version and submitter (it would cost every upload that names both a
// third offer), so that rare board ranks the runs' own cells: a read that
// grows with that submitter's runs of that version.
func (f RunFilter) bests() (bestTable, bool) {
	t := groupBests
	for _, ff := range filterFields {
		if ff.value(f) == "" || ff.kept.extra == "" {
			continue
		}
		if t.extra != "" {
			return bestTable{}, false
		}
		t = *ff.kept
	}
	return t, true
}

// query builds a WHERE clause with numbered placeholders: values never
// enter the SQL text.
type query struct {
	where []string
	args  []any
}

// add appends a condition, each ? in it standing for the next of args.
func (q *query) add(cond string, args ...any) {
	for _, a := range args {
		q.args = append(q.args, a)
		cond = strings.Replace(cond, "?", fmt.Sprintf("$%d", len(q.args)), 1)
	}
	q.where = append(q.where, cond)
}

// and is the conditions joined by AND.
func (q *query) and() string { return strings.Join(q.where, " AND ") }

// sql is the WHERE clause, or "" without conditions.
func (q *query) sql() string {
	if len(q.where) == 0 {
		return ""
	}
	return " WHERE " + q.and()
}

// filter adds f's conditions on the columns of alias: r (runs) for any
// filter, b (a table of bests) for one that the table answers
// (RunFilter.bests). With opaque, each value is
// compared as (SELECT $n).
//
// ListRuns asks for opaque values: the planner cannot see into (SELECT $n),
// so the plan is the same for every slug and PostgreSQL keeps one generic
// plan of the prepared statement. Seeing the value, it re-planned every call for
// a popular slug (its "custom" plan walks the newest runs filtering on the
// slug, which it deems cheaper than the identity's own index), and
// planning cost twice the query: /models/{slug} took 2.3× as long with
// 100,000 runs as with 1,000 (docs/scale.md). The identity's index
// (slug, uploaded_at, id) reads exactly the rows a page shows anyway.
func (s *Bests) filter(ctx context.Context, q *query, f RunFilter, alias string, opaque bool) error {
	eq := " = ?"
	if opaque {
		eq = " = (SELECT ?::text)"
	}
	if f.Model != "" {
		col, err := s.modelColumn(ctx, f.Model)
		if err != nil {
			return err
		}
		q.add(alias+"."+col+eq, f.Model)
	}
	for _, ff := range filterFields {
		if v := ff.value(f); v != "" {
			q.add(alias+"."+ff.column+eq, v)
		}
	}
	return nil
}

// modelColumn says whether slug names a base model (model_base_slug) or a
// variant (model_slug). A slug that is both is the base: it is the wider.
func (s *Bests) modelColumn(ctx context.Context, slug string) (string, error) {
	var base bool
	err := s.db.Public().QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM identities WHERE kind = 'model_base' AND slug = $1)`,
		slug).Scan(&base)
	if base {
		return "model_base_slug", err
	}
	return "model_slug", err
}
