package report

import (
	"context"
	"errors"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/differs"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/regressview"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
)

// differsStore is what a report's "What differs" reads: the fastest other
// runs of its setup, those runs, and the changes between engine versions
// its run's version is part of.
type differsStore interface {
	FastestOthers(ctx context.Context, id string, cells []store.RivalCell) ([]store.Rival, error)
	VersionChanges(ctx context.Context, q store.VersionChangeQuery) ([]store.VersionChange, error)
}

// whatDiffers is the report's "What differs" section: the fastest other
// run of the same hardware, model and quantization at the run's
// single-stream and peak cells and what differs from it, and links to the
// regressions and speedups of the run's engine version on its setup.
func (s *Handlers) whatDiffers(ctx context.Context, l *i18n.Localizer, rep *store.RunReport) (templ.Component, error) {
	r := rep.Run
	var cells []store.RivalCell
	for _, c := range differs.Cells(r) {
		cells = append(cells, store.RivalCell{Context: c.Context, Concurrency: c.Concurrency})
	}
	found, err := s.store.FastestOthers(ctx, r.ID, cells)
	if err != nil {
		return nil, err
	}
	byCell := make([]differs.Found, len(found))
	for i, f := range found {
		byCell[i] = differs.Found{Cell: differs.Cell{Context: f.Context, Concurrency: f.Concurrency}, RunID: f.RunID}
	}
	rivals, err := differs.Group(byCell, func(id string) (*run.Run, error) {
		o, err := s.store.GetRun(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil // hidden since it was found: no comparison (NewSection skips it)
		}
		return o, err
	})
	if err != nil {
		return nil, err
	}
	var links []regressview.Link
	if st := rep.Setup; st.Model != "" && st.Hardware != "" && st.Engine != "" && rep.Version != "" {
		changes, err := s.store.VersionChanges(ctx, store.VersionChangeQuery{Model: st.Model, Hardware: st.Hardware,
			Engine: st.Engine, Quantization: st.Quantization, Version: rep.Version})
		if err != nil {
			return nil, err
		}
		links = regressview.Links(l, changes)
	}
	return templates.WhatDiffers(differs.NewSection(l, r, rivals), links), nil
}
