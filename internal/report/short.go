package report

import (
	"math"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// FormatTPSShort is the headline notation of tok/s, as people quote a
// result in a sentence: from 100 up no decimals ("546"), below one decimal
// ("63.5"). Link previews, the card, the badge and the text export use it;
// tables keep FormatTPSCompact.
func FormatTPSShort(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	if math.Abs(*v) >= 100 {
		return l.Dec(*v, 0)
	}
	return l.Dec(*v, 1)
}

// HardwareName is the hardware part of the title: "RTX 3060 12GB",
// "2× RTX PRO 6000 96GB", or the CPU on a CPU-only machine.
func HardwareName(r *run.Run, l *i18n.Localizer) string { return hardwareName(r.Hardware, l) }
