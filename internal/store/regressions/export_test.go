package regressions

// ListSQL is listSQL, for the plan test.
func ListSQL(q Query) (string, []any) { return listSQL(q) }

// SetupCellsSQL is setupCellsSQL, for the plan test.
const SetupCellsSQL = setupCellsSQL
