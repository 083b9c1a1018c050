package store

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// arrayOIDs are the array types of the SQL casts the upload's arrays meet
// (cellColumn.array and offerSQL's).
var arrayOIDs = map[string]uint32{
	"integer[]": pgtype.Int4ArrayOID, "int[]": pgtype.Int4ArrayOID, "bigint[]": pgtype.Int8ArrayOID,
	"double precision[]": pgtype.Float8ArrayOID, "float8[]": pgtype.Float8ArrayOID,
	"text[]": pgtype.TextArrayOID, "boolean[]": pgtype.BoolArrayOID, "bool[]": pgtype.BoolArrayOID,
	"timestamptz[]": pgtype.TimestamptzArrayOID,
}

// offerColumnTypes are the SQL types of bestOfferColumns, in offerSQL's
// order.
var offerColumnTypes = []string{"int[]", "int[]", "text[]", "text[]", "text[]", "text[]", "text[]", "text[]",
	"text[]", "bool[]", "float8[]", "float8[]", "text[]", "timestamptz[]", "text[]"}

// TestBinaryArraysAsPgx holds binaryArrayCodec to pgx's own array codec:
// every column the upload sends (decode cells, prefill rows, best-cell
// offers, and the plain slices), of random rows with NULLs, extreme numbers
// and odd strings, as every array type either way, must encode to the same
// bytes, or both fail. Without binaryArrayPlan in the plans the test fails,
// so it cannot pass by comparing pgx with itself.
func TestBinaryArraysAsPgx(t *testing.T) {
	slow, fast := pgtype.NewMap(), pgtype.NewMap()
	registerBinaryArrays(fast)
	rng := rand.New(rand.NewPCG(7, 11))
	var oids []uint32
	for _, oid := range arrayOIDs {
		oids = append(oids, oid)
	}
	oids = append(oids, pgtype.Int2ArrayOID, pgtype.VarcharArrayOID)

	fastPlans, compared := 0, 0
	// same encodes v as oid both ways; want says the fast plan must be
	// the one chosen and must write it.
	same := func(name string, oid uint32, v any, want bool) {
		t.Helper()
		if _, isFast := fast.PlanEncode(oid, pgtype.BinaryFormatCode, v).(binaryArrayPlan); isFast {
			fastPlans++
		} else if want {
			t.Fatalf("%s as %d: binaryArrayPlan not chosen", name, oid)
		}
		a, errA := slow.Encode(oid, pgtype.BinaryFormatCode, v, []byte("prefix"))
		b, errB := fast.Encode(oid, pgtype.BinaryFormatCode, v, []byte("prefix"))
		compared++
		if (errA == nil) != (errB == nil) || !bytes.Equal(a, b) || (a == nil) != (b == nil) {
			t.Fatalf("%s as %d:\npgx    %x (%v)\nbinary %x (%v)", name, oid, a, errA, b, errB)
		}
		if want && errA == nil {
			typ, _ := fast.TypeForOID(oid)
			if _, ok := v.(binaryArray).appendBinary(typ.Codec.(binaryArrayCodec).ElementType.OID, nil); !ok {
				t.Fatalf("%s as %d: pgx encodes it, binaryArray leaves it to pgx", name, oid)
			}
		}
	}

	for round := range 80 {
		n := rng.IntN(60)
		if round%20 == 0 {
			n = 0
		}
		cells := make([]run.DecodeCell, n)
		for i := range cells {
			cells[i] = randomCell(rng)
		}
		if round%17 == 0 {
			cells = nil // a NULL array
		}
		for _, c := range decodeCellColumns {
			v := c.of(cells)
			same("decode_cells."+c.name, arrayOIDs[c.array], v, true)
			for _, oid := range oids[:min(len(oids), round%4*4)] { // as every other type, some rounds
				same("decode_cells."+c.name, oid, v, false)
			}
		}
		prefill := make([]run.PrefillRow, n)
		for i := range prefill {
			prefill[i] = randomPrefill(rng)
		}
		for _, c := range prefillCellColumns {
			same("prefill_rows."+c.name, arrayOIDs[c.array], c.of(prefill), true)
		}
		offers := make([]bestOffer, n)
		for i := range offers {
			offers[i] = randomOffer(rng)
		}
		for j, of := range bestOfferColumns {
			v := of(offers)
			same(fmt.Sprintf("offer column %d", j), arrayOIDs[offerColumnTypes[j]], v, true)
			for _, oid := range oids[:min(len(oids), round%4*4)] {
				same(fmt.Sprintf("offer column %d", j), oid, v, false)
			}
		}
		ints, texts, bools, floats, times := make([]int, n), make([]string, n), make([]bool, n), make([]float64, n), make([]time.Time, n)
		for i := range n {
			ints[i], texts[i], bools[i], floats[i], times[i] = randomInt(rng), randomText(rng), rng.IntN(2) == 0, randomFloat(rng), randomTime(rng)
		}
		same("intArray", pgtype.Int4ArrayOID, intArray(ints), true)
		same("intArray", pgtype.Int8ArrayOID, intArray(ints), true)
		same("intArray", pgtype.Int2ArrayOID, intArray(ints), true)
		same("textArray", pgtype.TextArrayOID, textArray(texts), true)
		same("textArray", pgtype.VarcharArrayOID, textArray(texts), true)
		same("boolArray", pgtype.BoolArrayOID, boolArray(bools), true)
		same("float8Array", pgtype.Float8ArrayOID, float8Array(floats), true)
		same("timestamptzArray", pgtype.TimestamptzArrayOID, timestamptzArray(times), true)
	}
	// The fallback: an int past int4 in an int4 array is pgx's error.
	big := []int{1, math.MaxInt32 + 1}
	if _, err := fast.Encode(pgtype.Int4ArrayOID, pgtype.BinaryFormatCode, intArray(big), nil); err == nil {
		t.Fatal("an int past int4 encoded without an error")
	}
	t.Logf("%d encodings compared, %d by binaryArrayPlan", compared, fastPlans)
}

func randomInt(rng *rand.Rand) int {
	switch rng.IntN(8) {
	case 0:
		return []int{0, -1, math.MaxInt16, math.MinInt16, math.MaxInt16 + 1, math.MaxInt32, math.MinInt32,
			math.MaxInt32 + 1, math.MinInt32 - 1, math.MaxInt64, math.MinInt64}[rng.IntN(11)]
	case 1:
		return rng.IntN(1 << 40)
	default:
		return rng.IntN(300000)
	}
}

func randomFloat(rng *rand.Rand) float64 {
	if rng.IntN(6) == 0 {
		return []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64,
			math.SmallestNonzeroFloat64, -1.5}[rng.IntN(8)]
	}
	return rng.Float64() * 5000
}

func randomText(rng *rand.Rand) string {
	return []string{"", "valid", "queued", "kv_budget", "é—漢字 🙂", "a\x00b", "\xff\xfe", strings.Repeat("x", 300),
		"nvidia-rtx-3060", "2026-12-06T22:00:00Z"}[rng.IntN(10)]
}

func randomTime(rng *rand.Rand) time.Time {
	t := time.Unix(rng.Int64N(8e9)-4e9, rng.Int64N(1e9))
	if rng.IntN(2) == 0 {
		t = t.In(time.FixedZone("x", -7*3600+1800))
	}
	return t
}

func optFloat(rng *rand.Rand) *float64 {
	if rng.IntN(4) == 0 {
		return nil
	}
	f := randomFloat(rng)
	return &f
}

func optInt(rng *rand.Rand) *int64 {
	if rng.IntN(4) == 0 {
		return nil
	}
	n := int64(randomInt(rng))
	return &n
}

func randomCell(rng *rand.Rand) run.DecodeCell {
	return run.DecodeCell{
		Context: randomInt(rng), MeasuredContext: randomInt(rng), Concurrency: randomInt(rng),
		Status: run.Status(randomText(rng)), Reason: randomText(rng), ReasonCode: run.ReasonCode(randomText(rng)),
		Metrics: run.Metrics{TotalTPS: optFloat(rng), PerRequestTPS: optFloat(rng), TTFTms: optFloat(rng),
			TBTms: optFloat(rng), AvgActive: optFloat(rng), Completed: optInt(rng), OutputTokens: optInt(rng),
			MeasuredS: optFloat(rng)},
		Measured: rng.IntN(2) == 0,
		Signals: run.Signals{Failed: rng.IntN(2) == 0, FailureReason: randomText(rng), LoopDetected: rng.IntN(2) == 0,
			CapacityLimited: rng.IntN(2) == 0, AvgQueue: optFloat(rng), QueueFraction: optFloat(rng)},
	}
}

func randomPrefill(rng *rand.Rand) run.PrefillRow {
	return run.PrefillRow{Context: randomInt(rng), MeasuredContext: randomInt(rng), Status: run.Status(randomText(rng)),
		Reason: randomText(rng), ReasonCode: run.ReasonCode(randomText(rng)), PromptTPS: optFloat(rng),
		TTFTms: optFloat(rng), Completed: optInt(rng), Measured: rng.IntN(2) == 0}
}

func randomOffer(rng *rand.Rand) bestOffer {
	return bestOffer{
		k: bestKey{context: randomInt(rng), concurrency: randomInt(rng), metric: randomText(rng), status: randomText(rng),
			model: randomText(rng), hardware: randomText(rng), engine: randomText(rng), quantization: randomText(rng),
			demo: rng.IntN(2) == 0, extra: randomText(rng)},
		v: bestRow{base: randomText(rng), sortValue: randomFloat(rng), value: randomFloat(rng), runID: randomText(rng),
			uploaded: randomTime(rng)},
	}
}
