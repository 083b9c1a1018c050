package report

import "time"

// Timestamp is how account pages show a moment (a token made or used, a
// run edited): UTC to the minute, the same in every language, so a reader
// comparing it with a log or a forum post needs no conversion.
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }
