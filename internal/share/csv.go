package share

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// CSVHeader names the CSV export's columns. They are stable identifiers (a
// spreadsheet or a script refers to them), so they are not translated; the
// reason and submitter columns are in the reader's language. Every row
// repeats who uploaded the run (report.Submitter: a claimed name says so)
// and whether that name is verified, and the organisation it was uploaded
// for (empty for none), so a row pasted elsewhere keeps them.
var CSVHeader = []string{"phase", "context", "measured_context", "concurrency", "status", "reason",
	"prompt_tps", "total_tps", "per_request_tps", "ttft_ms", "tbt_ms", "avg_active",
	"completed", "output_tokens", "measured_s", "bound_tps", "efficiency", "submitter", "submitter_verified",
	"org_slug", "org_name",
	// What the GPU boards drew (summed over the GPUs), last so that
	// scripts reading the columns before by position keep working.
	"power_w", "power_max_w", "power_limit_w", "energy_j", "gpu_util_pct", "temp_max_c", "vram_used_mb",
	"vram_total_mb", "throttle", "tokens_per_joule", "wh_per_mtok"}

// CSV writes every measurement of r as RFC 4180 CSV (CRLF line ends): a
// header row, one row per prefill row, then one per decode cell, in the
// order of the run's JSON. Numbers are the JSON's at full precision
// (shortest round-trip form, "." decimals whatever the language: this is
// data, not prose); a number the source did not have is an empty field.
func CSV(w io.Writer, r *run.Run, l *i18n.Localizer) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	who := submitterFields(r, l)
	for i := range r.Prefill {
		p := &r.Prefill[i]
		rec := []string{"prefill", itoa(p.Context), itoa0(p.MeasuredContext), "1", string(p.Status),
			text(reasonOf(p.Status, report.PrefillReason(l, p))),
			num(p.PromptTPS), "", "", num(p.TTFTms), "", "", count(p.Completed), "", "", "", "", who[0], who[1], who[2], who[3]}
		rec = append(rec, telemetryFields(&p.Telemetry, p.TokensPerJoule())...)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	setup := calculator.ForRun(r)
	for i := range r.Decode {
		c := &r.Decode[i]
		b := setup.Cell(c)
		rec := []string{"decode", itoa(c.Context), itoa0(c.MeasuredContext), itoa(c.Concurrency), string(c.Status),
			text(reasonOf(c.Status, report.CellReason(l, c, &r.Settings))),
			"", num(c.TotalTPS), num(c.PerRequestTPS), num(c.TTFTms), num(c.TBTms), num(c.AvgActive),
			count(c.Completed), count(c.OutputTokens), num(c.MeasuredS), positive(b.BoundTPS, true), positive(b.Efficiency, b.OK),
			who[0], who[1], who[2], who[3]}
		rec = append(rec, telemetryFields(&c.Telemetry, c.TokensPerJoule())...)
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// telemetryFields are the telemetry columns of a cell or row, empty where
// the file measured nothing; throttle is empty when it says nothing of it.
func telemetryFields(t *run.Telemetry, tpj *float64) []string {
	throttle := ""
	if t.Throttle != nil {
		throttle = *t.Throttle
	}
	return []string{num(t.PowerW), num(t.PowerMaxW), num(t.PowerLimitW), num(t.EnergyJ), num(t.GPUUtilPct),
		num(t.TempMaxC), num(t.VRAMUsedMB), num(t.VRAMTotalMB), throttle, num(tpj), num(run.WhPerMTok(tpj))}
}

// submitterFields are the submitter and organisation columns: the name as
// report.Submitter words it and "true" or "false", both empty when the
// upload named nobody, then the organisation's slug and name, empty for
// none.
func submitterFields(r *run.Run, l *i18n.Localizer) [4]string {
	var f [4]string
	if r.Submitter != "" {
		f[0], f[1] = text(report.Submitter(l, r.Submitter, r.SubmitterVerified)), strconv.FormatBool(r.SubmitterVerified)
	}
	if r.Org.Slug != "" {
		f[2], f[3] = text(r.Org.Slug), text(r.Org.Name)
	}
	return f
}

// positive is a bound or an efficiency at full precision, empty when the
// calculator gave none.
func positive(v float64, ok bool) string {
	if !ok || v <= 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// reasonOf keeps a reason only where the status needs one.
func reasonOf(s run.Status, reason string) string {
	if s == run.Valid {
		return ""
	}
	return reason
}

// text defuses a field a spreadsheet would run as a formula (a source's
// failure message is free text): CSV injection, OWASP's advice.
func text(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func itoa(v int) string { return strconv.Itoa(v) }

// itoa0 leaves 0 (meaning "not given") empty.
func itoa0(v int) string {
	if v == 0 {
		return ""
	}
	return strconv.Itoa(v)
}

func num(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func count(v *int64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatInt(*v, 10)
}
