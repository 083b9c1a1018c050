package store

import (
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// pgArray is one column of rows as a one-dimensional PostgreSQL array
// parameter, each element read in place by at: the upload's cells go to
// the database as arrays by column (queueInsertCells, offerBestArgs)
// without first being copied into a slice per column.
//
// It exists for what pgx does with a plain slice: its array encoder asks
// for every element as an any, which boxes each string, time, float and
// int above 255 (a heap allocation each), and a pointer element (*float64,
// a nullable number) goes through reflection, another allocation. The
// elements at returns are structs of one pointer (pgInt, pgText, …): such
// a struct fits in an interface as it is, so handing one to pgx allocates
// nothing, and each implements the pgtype valuer its codec asks for. On
// the Store's own connections a pgArray skips pgx's element-by-element
// encoder altogether and writes its binary form itself (pgarray_binary.go).
type pgArray[R any, E pgElement] struct {
	rows []R
	at   func(*R) E
	dims [1]pgtype.ArrayDimension
}

// newPGArray is rows as an array of what at gives for each; nil rows are
// a NULL array, as pgx sends a nil slice.
func newPGArray[R any, E pgElement](rows []R, at func(*R) E) *pgArray[R, E] {
	return &pgArray[R, E]{rows: rows, at: at, dims: [1]pgtype.ArrayDimension{{Length: int32(len(rows)), LowerBound: 1}}}
}

// Dimensions implements pgtype.ArrayGetter.
func (a *pgArray[R, E]) Dimensions() []pgtype.ArrayDimension {
	if a.rows == nil {
		return nil
	}
	return a.dims[:]
}

// Index implements pgtype.ArrayGetter.
func (a *pgArray[R, E]) Index(i int) any { return a.at(&a.rows[i]) }

// IndexType implements pgtype.ArrayGetter.
func (a *pgArray[R, E]) IndexType() any {
	var e E
	return e
}

// The elements: each refers to its value where it is stored. A nil
// pointer of the nullable ones (pgOptInt, pgOptFloat) is NULL.
type (
	pgInt      struct{ p *int }
	pgOptInt   struct{ p *int64 }
	pgOptFloat struct{ p *float64 }
	pgText     struct{ p *string }
	pgBool     struct{ p *bool }
	pgTime     struct{ p *time.Time }
)

// Int64Value implements pgtype.Int64Valuer (integer and bigint columns).
func (v pgInt) Int64Value() (pgtype.Int8, error) {
	return pgtype.Int8{Int64: int64(*v.p), Valid: true}, nil
}

// Int64Value implements pgtype.Int64Valuer.
func (v pgOptInt) Int64Value() (pgtype.Int8, error) {
	if v.p == nil {
		return pgtype.Int8{}, nil
	}
	return pgtype.Int8{Int64: *v.p, Valid: true}, nil
}

// Float64Value implements pgtype.Float64Valuer.
func (v pgOptFloat) Float64Value() (pgtype.Float8, error) {
	if v.p == nil {
		return pgtype.Float8{}, nil
	}
	return pgtype.Float8{Float64: *v.p, Valid: true}, nil
}

// TextValue implements pgtype.TextValuer.
func (v pgText) TextValue() (pgtype.Text, error) {
	return pgtype.Text{String: *v.p, Valid: true}, nil
}

// BoolValue implements pgtype.BoolValuer.
func (v pgBool) BoolValue() (pgtype.Bool, error) {
	return pgtype.Bool{Bool: *v.p, Valid: true}, nil
}

// TimestamptzValue implements pgtype.TimestamptzValuer.
func (v pgTime) TimestamptzValue() (pgtype.Timestamptz, error) {
	return pgtype.Timestamptz{Time: *v.p, Valid: true}, nil
}

// Plain slices as arrays, for parameters gathered into one.

func intArray(s []int) any     { return newPGArray(s, func(p *int) pgInt { return pgInt{p} }) }
func textArray(s []string) any { return newPGArray(s, func(p *string) pgText { return pgText{p} }) }
func boolArray(s []bool) any   { return newPGArray(s, func(p *bool) pgBool { return pgBool{p} }) }
func float8Array(s []float64) any {
	return newPGArray(s, func(p *float64) pgOptFloat { return pgOptFloat{p} })
}
func timestamptzArray(s []time.Time) any {
	return newPGArray(s, func(p *time.Time) pgTime { return pgTime{p} })
}
