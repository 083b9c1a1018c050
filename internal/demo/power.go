package demo

import (
	"hash/fnv"
	"math"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// boardPowerW is the power limit per board each discrete demo machine's
// runs report: the makers' default limits, used for synthetic telemetry
// only (every demo run says it is simulated). Unified-memory machines
// report none, as their tools read no board power.
var boardPowerW = map[string]float64{
	"rtx-3060-12gb": 170, "rtx-3090-24gb": 350, "rtx-4060-ti-16gb": 165, "rtx-4090-24gb": 450,
	"rtx-5090-32gb": 575, "rtx-a6000-48gb": 300, "rtx-pro-6000-blackwell-96gb": 600, "a100-80gb": 400,
	"h100-sxm-80gb": 700, "h200-141gb": 700, "instinct-mi300x-192gb": 750, "rx-7900-xtx-24gb": 355,
}

// telemetry simulates what nvidia-smi would have read of the boards during
// a decode cell (conc requests at context ctx) or, with prefill set, a
// prefill row: decode draws more as more requests keep the GPUs busy,
// prefill runs near the limit. It draws nothing from the run's random
// stream (the cells' numbers stay as they were); its jitter is a hash of
// the cell. Zero for machines without board power.
func (s *setup) telemetry(ctx, conc, prefill int) run.Telemetry {
	limit, ok := boardPowerW[s.g.ID]
	if !ok || s.g.Type != run.DiscreteGPU {
		return run.Telemetry{}
	}
	h := fnv.New64a()
	h.Write([]byte{byte(ctx), byte(ctx >> 8), byte(ctx >> 16), byte(conc), byte(prefill), byte(s.count)})
	h.Write([]byte(s.g.ID + s.m.ID + s.eng))
	jitter := 1 + 0.06*(float64(h.Sum64()%1000)/1000-0.5)
	busy := 0.95
	if prefill == 0 {
		busy = math.Min(1, 0.5+0.12*math.Log2(float64(max(conc, 1)))+float64(ctx)/1e6)
	}
	n := float64(s.count)
	perBoard := math.Min(limit*(0.28+0.68*busy)*jitter, limit*0.99)
	vramTotal := s.g.VRAMGB * 1024 * n
	return run.Telemetry{
		PowerW:      round1(perBoard * n),
		PowerMaxW:   round1(math.Min(perBoard*1.06, limit) * n),
		PowerLimitW: run.F(limit * n),
		GPUUtilPct:  round1(55 + 43*busy),
		TempMaxC:    run.F(math.Round(52 + 25*busy*jitter)),
		VRAMUsedMB:  run.F(math.Round(vramTotal * 0.9)),
		VRAMTotalMB: run.F(math.Round(vramTotal)),
	}
}
