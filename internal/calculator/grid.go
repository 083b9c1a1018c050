package calculator

// Contexts and Concurrencies are the grid llm-inference-bench measures by
// default, so a bound grid lines up with a report's.
var (
	Contexts      = []int{0, 16384, 32768, 65536, 131072}
	Concurrencies = []int{1, 2, 4, 8, 16, 32, 64, 128}
)

// GridCell is the bound at one context × concurrency, and whether that
// many requests at that context fit in memory.
type GridCell struct {
	Context, Concurrency int
	Bound                Bound
	Fits                 bool
}

// Grid is the bound at every context × concurrency, rows by context.
func Grid(in Input, contexts, concurrencies []int) [][]GridCell {
	rows := make([][]GridCell, len(contexts))
	for i, ctx := range contexts {
		rows[i] = make([]GridCell, len(concurrencies))
		for j, conc := range concurrencies {
			in.Context, in.Concurrency = ctx, conc
			r := Calculate(in)
			rows[i][j] = GridCell{Context: ctx, Concurrency: conc, Bound: r.Bound, Fits: r.Memory.Fits}
		}
	}
	return rows
}
