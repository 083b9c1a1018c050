package browse

import "github.com/speedmatrix/speedmatrix/internal/report"

// The browse pages' view models, built here from the store's lists and
// rendered by templates, which never see a store type.

// Link is an address and its text; an empty Href shows the text alone.
type Link struct{ Href, Text string }

// Option is one choice of a filter's <select>.
type Option struct {
	Value, Label string
	Selected     bool
}

// Select is one <select> of a filter form.
type Select struct {
	Name, Label string
	Options     []Option
}

// FilterForm is the GET form of /runs and /leaderboard: it works without
// JavaScript, and its fields are the page's URL parameters.
type FilterForm struct {
	Action  string
	Selects []Select
	// EngineVersion is typed: versions are many and free-form.
	EngineVersion string
	// Queued shows the leaderboard's queued toggle when not nil;
	// IncludeFlagged its toggle for runs above the physical bound.
	Queued         *bool
	IncludeFlagged *bool
	ClearHref      string
}

// BrowseRun is one run in a browse list (/runs, home, entity pages).
type BrowseRun struct {
	ID, Title, Href                    string
	Hardware, Engine, Model, Submitter Link
	EngineVersion, Quantization        string
	// Uploaded is the upload's day as the reader's language says it
	// ("3 days ago", "14.03.2025"); UploadedISO is that day for <time>.
	Uploaded, UploadedISO string
	// Single and Peak are the best single-stream and peak total tok/s,
	// formatted; "—" when the run has no valid cell for them.
	Single, Peak string
	Demo         bool
	// Flags mark the run's plausibility flags, each in its words.
	Flags []report.Badge
}

// RunsPage is /runs.
type RunsPage struct {
	Form     FilterForm
	Runs     []BrowseRun
	NextHref string
	// FirstHref is the first page, shown once the reader paged on.
	FirstHref string
}

// LeaderRow is one group's best cell on a leaderboard.
type LeaderRow struct {
	Rank                               int
	RunID                              string
	Href                               string // the run, with the cell highlighted
	Model, Hardware, Engine, Submitter Link
	Quantization, EngineVersion, Value string
	Demo                               bool
	Flags                              []report.Badge
	// Claimed marks a submitter's name typed into the upload, not an
	// account's: the row shows the name with a mark the legend explains.
	Claimed bool
	// Bar is the row's value as a share of the board's best, in percent
	// (for a lower-is-better metric the best ÷ the value): the length of
	// the row's inline bar.
	Bar int
}

// LeaderboardPage is /leaderboard.
type LeaderboardPage struct {
	Form FilterForm
	// Heading names the cell and metric: "0 context × 1 request · total tok/s".
	Heading string
	// Note says what the metric measures where the heading cannot (the
	// board power, not the machine's); Unpowered how many runs it
	// leaves out for want of a power measurement ("" when none).
	Note, Unpowered string
	Rows            []LeaderRow
	// Queued are the best queued cells, flagged, shown below when asked.
	Queued     []LeaderRow
	ShowQueued bool
}

// Best is an entity's best known result at one grid point.
type Best struct {
	Cell, Value, Href string
	Model, Hardware   Link
	Engine            Link
	Demo              bool
	Flags             []report.Badge
}

// LinkGroup is a labelled list of links ("Engines seen on it").
type LinkGroup struct {
	Label string
	Links []Link
}

// EntityPage is /hardware/{slug}, /engines/{slug}, /models/{slug} and
// /submitters/{handle}.
type EntityPage struct {
	Kind, Name string
	// Description is the page's meta description: "Hardware · RTX 3060 12GB".
	Description                  string
	Groups                       []LinkGroup
	Bests                        []Best
	Runs                         []BrowseRun
	AllRunsHref, LeaderboardHref string
}

// SearchPage is /search.
type SearchPage struct {
	Query string
	Hits  []LinkGroup
}

// HomeData is what the home page shows beside its pitch.
type HomeData struct {
	Recent []BrowseRun
	Teaser []LeaderRow
}
