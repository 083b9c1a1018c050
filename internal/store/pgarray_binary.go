package store

import (
	"encoding/binary"
	"math"

	"github.com/jackc/pgx/v5/pgtype"
)

// An upload sends a run's cells and its best-cell offers as some thirty
// arrays of a few dozen elements each (queueInsertCells, offerOneArgs).
// pgx encodes a pgArray (a pgtype.ArrayGetter) element by element: each
// one handed over as an any, checked for a nil driver.Valuer, its type
// looked up by reflection, then encoded by a plan that calls the valuer and
// builds a pgtype value. That was a tenth of the server's CPU per upload
// (docs/performance.md). Here a pgArray writes PostgreSQL's binary array
// format itself, the bytes pgx's plan would write, and pgx's own plan stays
// behind it for whatever this one does not know: an element type other than
// those below, or a value that type cannot hold (an int past int4), where
// pgx's answer, an error, is the one given. TestBinaryArraysAsPgx holds
// the two to the same bytes.

// registerBinaryArrays makes the array types of m write a pgArray
// themselves (binaryArrayCodec). Every connection of the Store's pools
// gets it (connect); a connection without it encodes the same bytes the
// slower way.
func registerBinaryArrays(m *pgtype.Map) {
	for _, oid := range []uint32{pgtype.Int2ArrayOID, pgtype.Int4ArrayOID, pgtype.Int8ArrayOID,
		pgtype.Float8ArrayOID, pgtype.TextArrayOID, pgtype.VarcharArrayOID, pgtype.BoolArrayOID,
		pgtype.TimestamptzArrayOID} {
		t, ok := m.TypeForOID(oid)
		if !ok {
			continue
		}
		codec, ok := t.Codec.(*pgtype.ArrayCodec)
		if !ok {
			continue
		}
		m.RegisterType(&pgtype.Type{Name: t.Name, OID: t.OID, Codec: binaryArrayCodec{codec}})
	}
}

// binaryArrayCodec is pgx's codec of an array type, but for a pgArray in
// the binary format, which it encodes by binaryArrayPlan. Everything else
// (other values, the text format, decoding) is the array codec's own.
type binaryArrayCodec struct{ *pgtype.ArrayCodec }

// PlanEncode implements pgtype.Codec.
func (c binaryArrayCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	plan := c.ArrayCodec.PlanEncode(m, oid, format, value)
	if _, ok := value.(binaryArray); ok && plan != nil && format == pgtype.BinaryFormatCode {
		return binaryArrayPlan{element: c.ElementType.OID, slow: plan}
	}
	return plan
}

// binaryArray is a pgArray as binaryArrayPlan sees it.
type binaryArray interface {
	// appendBinary appends the array as the binary value of an array of
	// element type oid; nil for a NULL array. ok is false, and buf's
	// bytes past its length undefined, when an element cannot be written
	// so (appendElement).
	appendBinary(oid uint32, buf []byte) (out []byte, ok bool)
}

// binaryArrayPlan encodes a binaryArray, or with slow (pgx's plan) when it
// cannot.
type binaryArrayPlan struct {
	element uint32
	slow    pgtype.EncodePlan
}

// Encode implements pgtype.EncodePlan.
func (p binaryArrayPlan) Encode(value any, buf []byte) ([]byte, error) {
	if out, ok := value.(binaryArray).appendBinary(p.element, buf); ok {
		return out, nil
	}
	return p.slow.Encode(value, buf)
}

// pgElement is an element of a pgArray: a pgtype valuer (pgx's way) that
// can also write itself.
type pgElement interface {
	// appendElement appends the element as the binary value of type oid,
	// without its length, or says it is NULL (nothing appended) or that
	// it cannot (ok false: another type, or a value out of its range).
	appendElement(oid uint32, buf []byte) (out []byte, null, ok bool)
}

// appendBinary implements binaryArray as encodePlanArrayCodecBinary does
// for a one-dimensional array: a header (one dimension, whether any
// element is NULL, the element type, the length and lower bound 1), then
// each element as its length (-1 for NULL) and its bytes.
func (a *pgArray[R, E]) appendBinary(oid uint32, buf []byte) ([]byte, bool) {
	if a.rows == nil {
		return nil, true
	}
	start := len(buf)
	buf = binary.BigEndian.AppendUint32(buf, 1)
	buf = binary.BigEndian.AppendUint32(buf, 0) // no NULL yet
	buf = binary.BigEndian.AppendUint32(buf, oid)
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(a.rows)))
	buf = binary.BigEndian.AppendUint32(buf, 1)
	for i := range a.rows {
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var null, ok bool
		if buf, null, ok = a.at(&a.rows[i]).appendElement(oid, buf); !ok {
			return buf, false
		}
		if null {
			binary.BigEndian.PutUint32(buf[at:], math.MaxUint32) // -1
			binary.BigEndian.PutUint32(buf[start+4:], 1)
			continue
		}
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf, true
}

// appendInt writes n as an integer of type oid, as pgx's Int2, Int4 and
// Int8 codecs do.
func appendInt(oid uint32, n int64, buf []byte) ([]byte, bool, bool) {
	switch oid {
	case pgtype.Int2OID:
		if n < math.MinInt16 || n > math.MaxInt16 {
			return buf, false, false
		}
		return binary.BigEndian.AppendUint16(buf, uint16(n)), false, true
	case pgtype.Int4OID:
		if n < math.MinInt32 || n > math.MaxInt32 {
			return buf, false, false
		}
		return binary.BigEndian.AppendUint32(buf, uint32(n)), false, true
	case pgtype.Int8OID:
		return binary.BigEndian.AppendUint64(buf, uint64(n)), false, true
	}
	return buf, false, false
}

func (v pgInt) appendElement(oid uint32, buf []byte) ([]byte, bool, bool) {
	return appendInt(oid, int64(*v.p), buf)
}

func (v pgOptInt) appendElement(oid uint32, buf []byte) ([]byte, bool, bool) {
	if v.p == nil {
		return buf, true, true
	}
	return appendInt(oid, *v.p, buf)
}

func (v pgOptFloat) appendElement(oid uint32, buf []byte) ([]byte, bool, bool) {
	if oid != pgtype.Float8OID {
		return buf, false, false
	}
	if v.p == nil {
		return buf, true, true
	}
	return binary.BigEndian.AppendUint64(buf, math.Float64bits(*v.p)), false, true
}

func (v pgText) appendElement(oid uint32, buf []byte) ([]byte, bool, bool) {
	if oid != pgtype.TextOID && oid != pgtype.VarcharOID {
		return buf, false, false
	}
	return append(buf, *v.p...), false, true
}

func (v pgBool) appendElement(oid uint32, buf []byte) ([]byte, bool, bool) {
	if oid != pgtype.BoolOID {
		return buf, false, false
	}
	if *v.p {
		return append(buf, 1), false, true
	}
	return append(buf, 0), false, true
}

// microsecondsToY2K is 2000-01-01 UTC, PostgreSQL's epoch, in
// microseconds since 1970.
const microsecondsToY2K = 946684800 * 1000000

func (v pgTime) appendElement(oid uint32, buf []byte) ([]byte, bool, bool) {
	if oid != pgtype.TimestamptzOID {
		return buf, false, false
	}
	t := *v.p
	us := t.Unix()*1000000 + int64(t.Nanosecond())/1000 - microsecondsToY2K
	return binary.BigEndian.AppendUint64(buf, uint64(us)), false, true
}
