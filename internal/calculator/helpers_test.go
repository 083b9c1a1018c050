package calculator

import (
	"math"
	"testing"
)

func mustModel(t *testing.T, id string) Arch {
	t.Helper()
	d, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	m, ok := d.ModelByID(id)
	if !ok {
		t.Fatalf("model %s not in the table", id)
	}
	return m.Arch
}

func mustGPU(t *testing.T, id string) GPU {
	t.Helper()
	d, err := Data()
	if err != nil {
		t.Fatal(err)
	}
	g, ok := d.GPUByID(id)
	if !ok {
		t.Fatalf("GPU %s not in the table", id)
	}
	return g
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*math.Abs(want) {
		t.Errorf("%s = %.4g, want %.4g ±%.0f%%", what, got, want, tol*100)
	}
}

func prec(code string) Precision { p, _ := PrecisionOf(code); return p }
