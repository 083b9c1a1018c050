package ingest

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestEnumAcceptsShownLabels: an enumerated field takes its tokens and the
// labels the site shows for them in every language, whatever their case
// and width; a value that is neither is refused listing what is accepted.
func TestEnumAcceptsShownLabels(t *testing.T) {
	for in, want := range map[string]run.HardwareType{
		"discrete_gpu": run.DiscreteGPU, "CPU_ONLY": run.CPUOnly, "Discrete GPU": run.DiscreteGPU,
		"discrete  gpu": run.DiscreteGPU, "ディスクリート GPU": run.DiscreteGPU, "ユニファイドメモリ": run.UnifiedMemory,
		"ＣＰＵ のみ": run.CPUOnly, "独立显卡": run.DiscreteGPU, "仅 cpu": run.CPUOnly, "OTHER": run.OtherHardware,
		"unified memory": run.UnifiedMemory, "その他": run.OtherHardware,
	} {
		m, err := ParseMeta(func(k string) string {
			if k == "hardware_type" {
				return in
			}
			return ""
		})
		if err != nil || m.Hardware.Type != want {
			t.Errorf("hardware_type %q = %q, %v; want %q", in, m.Hardware.Type, err, want)
		}
	}
	_, err := ParseMeta(func(k string) string {
		if k == "hardware_type" {
			return "toaster"
		}
		return ""
	})
	pe, ok := problem.As(err)
	if !ok || pe.Problems[0].Key != "problem.field_enum" {
		t.Fatalf("toaster = %v", err)
	}
	opts, _ := pe.Problems[0].Data["Options"].(string)
	for _, ht := range run.HardwareTypes {
		if !strings.Contains(opts, string(ht)) {
			t.Errorf("accepted values %q lack %s", opts, ht)
		}
	}
}
