package browse

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// browseStore is what the browse area needs of the database.
type browseStore interface {
	ListRuns(ctx context.Context, f store.RunFilter, sort store.RunSort, after *store.Cursor, limit int) ([]store.RunItem, bool, error)
	Leaderboard(ctx context.Context, q store.LeaderQuery) ([]store.LeaderRow, error)
	// Unpowered counts the runs a tokens-per-joule board leaves out.
	Unpowered(ctx context.Context, q store.LeaderQuery) (int, error)
	// RunOrgs are the organisations runs were uploaded for, by run id.
	RunOrgs(ctx context.Context, ids []string) (map[string]run.Org, error)
	IdentityName(ctx context.Context, kind, slug string) (string, error)
	IdentityNames(ctx context.Context, kind string, slugs []string) (map[string]string, error)
	IdentityLists(ctx context.Context, kinds []string, limit int) (map[string][]catalog.Identity, error)
	SeenWith(ctx context.Context, kind, slug string, kinds []string) ([]store.Found, error)
	EngineVersions(ctx context.Context, engine string) ([]store.VersionRuns, error)
	BestAt(ctx context.Context, kind, slug string, points []store.GridPoint) (map[store.GridPoint]store.LeaderRow, error)
	Search(ctx context.Context, text string, limit int) ([]store.Found, error)
}

// badParam refuses a query parameter's value, naming the parameter: a
// value the page does not read (?metric=fast), or one written another way
// than the one it reads (?ctx=007 for 7).
func badParam(name string) error {
	return &kit.HTTPError{Status: http.StatusBadRequest, Key: "error.bad_param", Data: map[string]any{"Name": name}}
}

// paramOf is the query parameter a badParam error names, and whether err
// is one: the API refuses that parameter in its own format.
func paramOf(err error) (string, bool) {
	var he *kit.HTTPError
	if !errors.As(err, &he) || he.Key != "error.bad_param" {
		return "", false
	}
	name, ok := he.Data["Name"].(string)
	return name, ok
}

// maxParam bounds a filter value: slugs are short.
const maxParam = 200

// readFilter reads the filters from the URL.
func readFilter(q url.Values) (store.RunFilter, error) {
	f := store.RunFilter{Model: q.Get("model"), Hardware: q.Get("hardware"), Engine: q.Get("engine"),
		EngineVersion: q.Get("version"), Quantization: q.Get("quant"), Submitter: q.Get("submitter")}
	for _, v := range []string{f.Model, f.Hardware, f.Engine, f.EngineVersion, f.Quantization, f.Submitter} {
		if len(v) > maxParam {
			return f, kit.ErrBadRequest
		}
	}
	return f, nil
}

// maxChoices bounds each filter's list of choices.
const maxChoices = 500

// filterChoices loads what the filter forms offer: every identity of each
// kind they list.
func (s *Handlers) filterChoices(ctx context.Context) (browse.Choices, error) {
	return s.store.IdentityLists(ctx, browse.ChoiceKinds(), maxChoices)
}
