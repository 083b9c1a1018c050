package store

import (
	"github.com/speedmatrix/speedmatrix/internal/store/regressions"
	"github.com/speedmatrix/speedmatrix/internal/store/rivals"
)

// The names of the version changes (package regressions) and of a run's
// rivals (package rivals), where callers of the store find them. Their
// methods are Store's through the embedded parts.
type (
	VersionChangeQuery = regressions.Query
	VersionChange      = regressions.Entry
	VersionSetup       = regressions.Setup
	RivalCell          = rivals.Cell
	Rival              = rivals.Rival
)
