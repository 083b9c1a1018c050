package report

import (
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// entities are the entity pages a run's report links to: the slugs
// internal/catalog gives the run, which are the slugs the store files it
// under. Derived from the run alone, so a cached page stays right.
func entities(r *run.Run) map[string]string {
	model, _ := catalog.Model(r.Model.ID)
	out := map[string]string{}
	add := func(key, slug string, href func(string) string) {
		if slug != "" {
			out[key] = href(slug)
		}
	}
	add(LinkHardware, catalog.Hardware(r.Hardware).Slug, paths.Hardware)
	add(LinkEngine, catalog.Engine(r.Engine.Name).Slug, paths.Engine)
	add(LinkModel, model.Slug, paths.Model)
	if r.SubmitterVerified { // a claimed name has no page (see Submitter)
		add(LinkSubmitter, catalog.Submitter(r.Submitter).Slug, paths.Submitter)
		add(LinkOrg, r.Org.Slug, paths.Org)
	}
	return out
}
