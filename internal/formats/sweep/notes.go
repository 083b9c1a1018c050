package sweep

// Caveat codes for run.Parsed.Notes: where a tool means something else by a
// number and it could not be converted, or where part of a file was left
// out. The report page words each as formats.note.<code> (locales/*.toml);
// docs/formats.md explains them.
const (
	// NoteTruncated: the file ends early (a crashed or interrupted run);
	// the complete records were read.
	NoteTruncated = "truncated_file"
	// NoteRateRowsSkipped: records driven by a request rate without a cap
	// on concurrent requests were left out.
	NoteRateRowsSkipped = "rate_rows_skipped"
	// NoteTBTIsTPOT: time between tokens is a per-request mean that
	// excludes the first token (TPOT), not the median of all gaps.
	NoteTBTIsTPOT = "tbt_is_tpot"
	// NoteTBTFromMeanRate: time between tokens is 1000 ÷ the mean
	// generation rate (llama-bench), not a measured median.
	NoteTBTFromMeanRate = "tbt_from_mean_rate"
	// NotePGTestsIgnored: llama-bench pp+tg tests mix prefill and decode in
	// one rate and were left out.
	NotePGTestsIgnored = "pg_tests_ignored"
	// NotePrefillAtDepth: a llama-bench prefill row measured n_prompt
	// tokens on top of a pre-filled context: its rate is prefill speed at
	// that depth, and it has no TTFT.
	NotePrefillAtDepth = "prefill_at_depth"
	// NoteITLIncludesFirstToken: the tool's inter-token latency counts the
	// wait for the first token (llmperf).
	NoteITLIncludesFirstToken = "itl_includes_first_token"
	// NotePerRequestIncludesTTFT: per-request tok/s divides by the whole
	// request time, first token included (llmperf).
	NotePerRequestIncludesTTFT = "per_request_includes_ttft"
	// NoteTokensRecounted: output tokens were counted by the client with
	// another model's tokenizer (llmperf's llama tokenizer).
	NoteTokensRecounted = "tokens_recounted"
)

// Notes lists every code, for tests that check each has its words.
var Notes = []string{NoteTruncated, NoteRateRowsSkipped, NoteTBTIsTPOT, NoteTBTFromMeanRate,
	NotePGTestsIgnored, NotePrefillAtDepth, NoteITLIncludesFirstToken, NotePerRequestIncludesTTFT, NoteTokensRecounted}
