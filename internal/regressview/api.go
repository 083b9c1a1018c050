package regressview

import (
	"time"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/differs"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// APIChange is one regression or speedup as GET /api/v1/regressions
// returns it.
type APIChange struct {
	// Kind is "regression" or "speedup".
	Kind string `json:"kind"`
	// The setup, by slug, and the engine's display name.
	Hardware     string `json:"hardware"`
	Engine       string `json:"engine"`
	EngineName   string `json:"engine_name"`
	Model        string `json:"model"`
	Quantization string `json:"quantization"`
	OldVersion   string `json:"old_version"`
	NewVersion   string `json:"new_version"`
	// ChangePercent is the change shown: at HeadlineCell when that cell
	// decided, else the median over Cells.
	ChangePercent float64  `json:"change_percent"`
	HeadlineCell  *APICell `json:"headline_cell,omitempty"`
	// Cells are every cell both versions measured valid.
	Cells  []APICell `json:"cells"`
	OldRun APIRun    `json:"old_run"`
	NewRun APIRun    `json:"new_run"`
	// SetupChanged lists what changed beside the engine version.
	SetupChanged []APISetupChange `json:"setup_changed"`
	// SeenAt is when the newer version's run was uploaded.
	SeenAt time.Time `json:"seen_at"`
	// URL is the change on /regressions; Report the upstream text
	// (Markdown); IssueURL the engine's new-issue page filled in, when
	// the engine has a known tracker.
	URL      string `json:"url"`
	Report   string `json:"report_markdown"`
	IssueURL string `json:"issue_url,omitempty"`
}

// APICell is one shared cell: each version's best valid total tok/s.
type APICell struct {
	Context       int     `json:"context"`
	Concurrency   int     `json:"concurrency"`
	OldTotalTPS   float64 `json:"old_total_tps"`
	NewTotalTPS   float64 `json:"new_total_tps"`
	ChangePercent float64 `json:"change_percent"`
}

// APIRun is a run that stands for a version.
type APIRun struct {
	ID            string `json:"id"`
	URL           string `json:"url"`
	LaunchCommand string `json:"launch_command"`
	Driver        string `json:"driver"`
}

// APISetupChange is one fact that changed beside the engine version: a
// launch flag (Flag set, canonical name) or another field.
type APISetupChange struct {
	Field string `json:"field"`
	Flag  string `json:"flag,omitempty"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// API is entries as the API returns them; en words the upstream reports,
// origin makes the addresses absolute.
func API(en *i18n.Localizer, origin string, entries []store.VersionChange) []APIChange {
	out := make([]APIChange, 0, len(entries))
	for _, e := range entries {
		up := Upstream(en, origin, e)
		c := APIChange{Kind: string(e.Kind), Hardware: e.Hardware, Engine: e.Engine,
			EngineName: catalog.Engine(e.New.Engine.Name).Name, Model: e.Model, Quantization: e.Quantization,
			OldVersion: e.OldVersion, NewVersion: e.NewVersion, ChangePercent: e.Percent, SeenAt: e.SeenAt,
			OldRun: APIRun{ID: e.OldRun, URL: paths.RunURL(origin, e.OldRun), LaunchCommand: e.Old.Engine.LaunchCommand, Driver: e.Old.Hardware.Driver},
			NewRun: APIRun{ID: e.NewRun, URL: paths.RunURL(origin, e.NewRun), LaunchCommand: e.New.Engine.LaunchCommand, Driver: e.New.Hardware.Driver},
			URL:    origin + Href(e), Report: up.Markdown(), IssueURL: up.IssueURL(),
			SetupChanged: []APISetupChange{}}
		for _, x := range e.Cells {
			ac := APICell{Context: x.Context, Concurrency: x.Concurrency, OldTotalTPS: x.Old, NewTotalTPS: x.New,
				ChangePercent: x.Change() * 100}
			c.Cells = append(c.Cells, ac)
			if e.HasHeadline && x.Cell == e.Headline.Cell {
				c.HeadlineCell = &ac
			}
		}
		for _, d := range differs.SetupChanges(e.Old, e.New) {
			c.SetupChanged = append(c.SetupChanged, APISetupChange{Field: d.Field, Flag: d.Flag, Old: d.Other, New: d.This})
		}
		out = append(out, c)
	}
	return out
}
