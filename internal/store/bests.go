package store

import "github.com/speedmatrix/speedmatrix/internal/store/bests"

// The browse index's names (package bests), where callers of the store
// have always found them. Its methods are Store's through the embedded
// *bests.Bests.

// Identity kinds: the kinds of the identities table, and of entity pages.
const (
	KindHardware     = bests.KindHardware
	KindEngine       = bests.KindEngine
	KindModel        = bests.KindModel
	KindModelBase    = bests.KindModelBase
	KindSubmitter    = bests.KindSubmitter
	KindQuantization = bests.KindQuantization
)

// Leaderboard metrics.
const (
	MetricTotal      = bests.MetricTotal
	MetricPerRequest = bests.MetricPerRequest
	MetricTTFT       = bests.MetricTTFT
	MetricTPJ        = bests.MetricTPJ
)

// Metrics lists the leaderboard metrics in the order forms offer them.
var Metrics = bests.Metrics

// Run list orders.
const (
	SortNewest = bests.SortNewest
	SortSingle = bests.SortSingle
	SortPeak   = bests.SortPeak
)

// ErrBadCursor is returned for a cursor this build did not write.
var ErrBadCursor = bests.ErrBadCursor

// DecodeCursor reads a cursor written by Cursor.Encode; "" is the start.
func DecodeCursor(s string) (*Cursor, error) { return bests.DecodeCursor(s) }

// The browse index's types (package bests says what each is).
type (
	Found          = bests.Found
	Group          = bests.Group
	GridPoint      = bests.GridPoint
	RunFilter      = bests.RunFilter
	LeaderQuery    = bests.LeaderQuery
	LeaderRow      = bests.LeaderRow
	RunSort        = bests.RunSort
	Cursor         = bests.Cursor
	RunItem        = bests.RunItem
	RunSummary     = bests.RunSummary
	IdentityRuns   = bests.IdentityRuns
	VersionRuns    = bests.VersionRuns
	HistoryQuery   = bests.HistoryQuery
	HistoryPoint   = bests.HistoryPoint
	HistoryOptions = bests.HistoryOptions
	Setup          = bests.Setup
)
