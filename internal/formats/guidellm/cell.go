package guidellm

import (
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// cell converts one concurrency-driven benchmark. Latencies are medians of
// successful requests; throughput and mean concurrency are over all requests
// in the window, as GuideLLM's own summary shows them.
func cell(c *jsondoc.Checker, at string, b *benchmark, conc int) (run.Measurement, bool) {
	m := run.Measurement{Path: at, Concurrency: conc}
	mt := &b.Metrics
	ctx, path := promptMean(mt.PromptTokenCount)
	if ctx == nil {
		c.Add(at+".metrics.prompt_token_count", "problem.formats.missing_field",
			map[string]any{"Field": "metrics.prompt_token_count"})
		return m, false
	}
	mean := c.Measure(at+".metrics.prompt_token_count"+path, ctx)
	if mean == nil {
		return m, false
	}
	m.Context, m.MeasuredContext = sweep.Place(*mean)

	t, tpath := b.RequestTotals, at+".request_totals"
	if t == nil {
		t, tpath = mt.RequestTotals, at+".metrics.request_totals"
	}
	if t != nil {
		m.Completed = c.Count(tpath+".successful", t.Successful)
		errored := c.Count(tpath+".errored", t.Errored)
		if m.Completed != nil && *m.Completed == 0 && errored != nil && *errored > 0 {
			m.Failed = true
			m.FailureReason = fmt.Sprintf("all %d requests failed (GuideLLM request_totals.errored)", *errored)
			return m, true
		}
	}
	if v, p := pick(mt.RequestConcurrency, "mean"); v != nil {
		m.AvgActive = c.Positive(at+".metrics.request_concurrency"+p, v)
	}
	if v, p := pick(mt.OutputTPS, "mean"); v != nil {
		m.TotalTPS = c.Measure(at+".metrics.output_tokens_per_second"+p, v)
	}
	if v := successful(mt.TTFT, "median"); v != nil {
		m.TTFTms = c.Positive(at+".metrics.time_to_first_token_ms.successful.median", v)
	}
	if v := successful(mt.ITL, "median"); v != nil {
		m.TBTms = c.Positive(at+".metrics.inter_token_latency_ms.successful.median", v)
	}
	if m.TBTms != nil {
		// The median of 1000/x is 1000/median(x): the median stream's speed.
		m.PerRequestTPS = run.F(1000 / *m.TBTms)
	}
	if v := successful(mt.OutputTokenCount, "total_sum"); v != nil {
		m.OutputTokens = c.Count(at+".metrics.output_token_count.successful.total_sum", v)
	}
	m.MeasuredS = c.Measure(at+".duration", b.Duration)
	return m, true
}

// promptMean is the mean prompt length of successful requests (GuideLLM's
// prompt_token_count distribution, "successful" part);
// when none succeeded, that of every request sent.
func promptMean(d *dist) (*float64, string) {
	if d == nil {
		return nil, ""
	}
	if s := d.Successful; s != nil && s.Mean != nil && s.Count != nil && *s.Count > 0 {
		return s.Mean, ".successful.mean"
	}
	if d.Total != nil && d.Total.Mean != nil {
		return d.Total.Mean, ".total.mean"
	}
	return nil, ""
}

// pick returns a statistic over all requests ("total"), falling back to the
// successful ones, with its path below the metric.
func pick(d *dist, stat string) (*float64, string) {
	if d == nil {
		return nil, ""
	}
	if v := d.Total.get(stat); v != nil {
		return v, ".total." + stat
	}
	if v := d.Successful.get(stat); v != nil {
		return v, ".successful." + stat
	}
	return nil, ""
}

func successful(d *dist, stat string) *float64 {
	if d == nil {
		return nil
	}
	return d.Successful.get(stat)
}

func (s *summary) get(stat string) *float64 {
	if s == nil {
		return nil
	}
	switch stat {
	case "mean":
		return s.Mean
	case "median":
		return s.Median
	case "total_sum":
		return s.TotalSum
	}
	return nil
}
