package demo_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/demo"
)

// Synthetic runs are modelled on real stacks, so none is above the
// physical bound, and most cells of the known setups have an efficiency
// below 100 %.
func TestDemoRunsWithinBound(t *testing.T) {
	var cells, over int
	for syn := range demo.Generate(1, 300) {
		r := syn.Run
		if f := calculator.Flags(r); len(f) > 0 {
			t.Errorf("demo run %s (%s on %s, %s) flagged %v", syn.Key, r.Model.ID, r.Hardware.GPUName, r.Engine.Quantization, f)
		}
		s := calculator.ForRun(r)
		for i := range r.Decode {
			if b := s.Cell(&r.Decode[i]); b.OK {
				cells++
				if b.Efficiency > 1 {
					over++
				}
			}
		}
	}
	if cells == 0 || over*10 > cells {
		t.Errorf("%d of %d demo cells above 100 %% of their bound", over, cells)
	}
}
