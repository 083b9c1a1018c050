// Package history is /history's view: one cell of one setup (model,
// hardware, engine, quantization) measured across the engine's versions,
// ordered by version and with each version's change over the one before.
package history

import "github.com/speedmatrix/speedmatrix/internal/versions"

// Compare orders two engine versions: -1, 0 or 1 (versions.Compare).
func Compare(a, b string) int { return versions.Compare(a, b) }
