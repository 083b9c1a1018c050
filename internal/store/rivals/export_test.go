package rivals

// FastestSQL is fastestSQL, for the plan test.
const FastestSQL = fastestSQL
