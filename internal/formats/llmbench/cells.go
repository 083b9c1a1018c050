package llmbench

import (
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// cells converts results[] into measurements. The status is not decided
// here; only the source's own marks (sentinels, failure reasons, loops,
// queue signals) are carried over as signals.
func (p *parser) cells() []run.Measurement {
	metricsAvailable := p.doc.Metadata.MetricsAvailable == nil || *p.doc.Metadata.MetricsAvailable
	out := make([]run.Measurement, 0, len(p.doc.Results))
	for i, rec := range p.doc.Results {
		at := fmt.Sprintf(".results[%d]", i)
		m := run.Measurement{Path: p.path(at)}
		if rec.ContextTokens == nil || rec.Concurrency == nil {
			p.problems.Add(p.path(at), "problem.llmbench.cell_key", nil)
			continue
		}
		m.Context = p.integer(m.Path, ".context_tokens", rec.ContextTokens)
		m.Concurrency = p.integer(m.Path, ".concurrency", rec.Concurrency)
		if m.Concurrency < 1 && *rec.Concurrency >= 0 {
			p.problems.Add(p.path(at+".concurrency"), "problem.concurrency", map[string]any{"Value": *rec.Concurrency})
		}
		p.failure(at, &rec, &m)
		if !m.Failed {
			p.metrics(at, &rec, &m, metricsAvailable)
		}
		m.Telemetry = p.telemetry(m.Path+".hardware_summary", rec.HardwareSummary)
		out = append(out, m)
	}
	return out
}

// failure reads the tool's ways of marking a failed cell: the -3.0 and -4.0
// sentinels, failure_reason and loop_detected (0.6+), and up to 0.4.18 an
// all-zero record written by the exception branch.
func (p *parser) failure(at string, rec *cellRec, m *run.Measurement) {
	tps := rec.AggregateTPS
	switch {
	case tps != nil && *tps == loopSentinel:
		m.Failed, m.LoopDetected = true, true
	case tps != nil && *tps == errorSentinel:
		m.Failed = true
	case tps != nil && *tps < 0:
		p.problems.Add(p.path(at+".aggregate_tps"), "problem.negative", map[string]any{"Value": *tps})
	case rec.FailureReason != "" || rec.LoopDetected:
		m.Failed = true
	case p.version.atMost(0, 4, 18) && allZero(rec):
		m.Failed = true
	}
	m.FailureReason = rec.FailureReason
	if m.FailureReason == "" && tps != nil && *tps == errorSentinel {
		m.FailureReason = "the tool recorded an error (aggregate_tps -4.0)"
	}
	m.LoopDetected = m.LoopDetected || rec.LoopDetected
}

func allZero(rec *cellRec) bool {
	for _, v := range []*float64{rec.AggregateTPS, rec.TotalTokens, rec.NumCompleted, rec.TTFTP50} {
		if v != nil && *v != 0 {
			return false
		}
	}
	return true
}

// metrics converts the numbers of a cell that ran. Latency percentiles of 0
// mean "no samples" in the tool (it interpolates over values > 0), so they
// become unknown rather than 0 ms.
func (p *parser) metrics(at string, rec *cellRec, m *run.Measurement, metricsAvailable bool) {
	// The cell's numbers share one block: a pointer to each, one
	// allocation apiece, was a third of a seed document's parse.
	blk := new(struct {
		f [8]float64
		n [2]int64
	})
	f := func(i int, v float64) *float64 { blk.f[i] = v; return &blk.f[i] }
	n := func(i int, v int64) *int64 { blk.n[i] = v; return &blk.n[i] }
	if rec.AggregateTPS != nil {
		m.TotalTPS = f(0, *rec.AggregateTPS)
	}
	if v := p.nonNegative(m.Path, ".output_tps_per_user_p50", rec.OutputTPSPerUserP50); v > 0 {
		m.PerRequestTPS = f(1, v)
	} else if v := p.nonNegative(m.Path, ".per_request_avg_tps", rec.PerRequestAvgTPS); v > 0 {
		m.PerRequestTPS = f(1, v)
	}
	if v := p.nonNegative(m.Path, ".ttft_p50", rec.TTFTP50); v > 0 {
		m.TTFTms = f(2, v*1000)
	}
	if v := p.nonNegative(m.Path, ".inter_token_latency_p50", rec.ITLP50); v > 0 {
		m.TBTms = f(3, v*1000)
	}
	// avg_running_reqs is a mean of scheduler samples; 0 means none were
	// taken (no /metrics), not an idle server.
	if v := p.nonNegative(m.Path, ".avg_running_reqs", rec.AvgRunningReqs); v > 0 && metricsAvailable {
		m.AvgActive = f(4, v)
	}
	if rec.CompletedRequests != nil {
		m.Completed = n(0, int64(p.integer(m.Path, ".completed_request_count", rec.CompletedRequests)))
	}
	switch {
	case rec.ClientOutputTokens != nil:
		m.OutputTokens = n(1, int64(p.integer(m.Path, ".client_output_tokens", rec.ClientOutputTokens)))
	case rec.TotalTokens != nil:
		m.OutputTokens = n(1, int64(p.integer(m.Path, ".total_tokens", rec.TotalTokens)))
	}
	if rec.MeasurementSeconds != nil {
		m.MeasuredS = f(5, p.nonNegative(m.Path, ".measurement_seconds", rec.MeasurementSeconds))
	}
	m.CapacityLimited = rec.CapacityLimited
	if rec.AvgQueueReqs != nil {
		m.AvgQueue = f(6, p.nonNegative(m.Path, ".avg_queue_reqs", rec.AvgQueueReqs))
	}
	if rec.QueueFraction != nil {
		m.QueueFraction = f(7, p.nonNegative(m.Path, ".queue_fraction", rec.QueueFraction))
	}
}
