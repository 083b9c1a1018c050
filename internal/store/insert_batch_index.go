package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The set-based forms of indexRun's statements, for a batch of fresh runs
// whose ids are $1 in insertion order. Each leaves what indexRun run on the
// runs one by one leaves (TestInsertRunsMatchesInsertRun): one statement
// per table instead of several per run, which is what makes bulk loads
// fast (a statement costs about a millisecond of planning and execution).

// setIdentitiesBatchSQL is setIdentitiesSQL for every run of the batch.
const setIdentitiesBatchSQL = `
UPDATE runs r SET
    hardware_slug = v.hw, engine_slug = v.engine, model_slug = v.model, model_base_slug = v.base,
    submitter_slug = v.submitter, quantization_slug = v.quant, catalog_version = $8,` + runNumbersSet + `
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
    AS v (id, hw, engine, model, base, submitter, quant)
WHERE r.id = v.id`

// nameIdentitiesBatchSQL is nameIdentitySQL for every (kind, slug, name)
// in order: the first spelling seen names a slug.
const nameIdentitiesBatchSQL = `
INSERT INTO identities (kind, slug, name)
SELECT DISTINCT ON (kind, slug) kind, slug, name
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS v (kind, slug, name, n)
ORDER BY kind, slug, n
ON CONFLICT (kind, slug) DO NOTHING`

// offerBestBatchSQL offers the best cell of the batch per key: a chain of
// offers keeps the smallest (sort_value, uploaded_at, run_id), which is the
// batch's smallest compared once with the stored one. Offers no better than
// the stored best are left out before the upsert: ON CONFLICT DO UPDATE
// locks (writes) every conflicting row even when its WHERE rejects the
// update, which made a batch of 250 runs cost ~0.9 s at 13k runs stored.
const offerBestBatchSQL = `
INSERT INTO best_cells AS b ` + bestCellsColumns + `
SELECT * FROM (
    SELECT DISTINCT ON (` + bestCellsKey + `) * FROM (` + bestCellsSelect + ` AND c.run_id = ANY($1)) AS x
    ORDER BY ` + bestCellsKey + `, sort_value, uploaded_at, id) AS y
WHERE NOT EXISTS (SELECT FROM best_cells o
    WHERE (o.context, o.concurrency, o.metric, o.status, o.model_slug, o.hardware_slug, o.engine_slug, o.quantization_slug, o.demo) =
        (y.context, y.concurrency, y.metric, y.status, y.model_slug, y.hardware_slug, y.engine_slug, y.quantization_slug, y.demo)
    AND (o.sort_value, o.uploaded_at, o.run_id) <= (y.sort_value, y.uploaded_at, y.id))
ON CONFLICT (` + bestCellsKey + `) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)`

// countGroupsBatchSQL is countGroupSQL for every run of the batch.
// model_base_slug follows from model_slug, so min() picks the one value.
const countGroupsBatchSQL = `
INSERT INTO browse_groups AS g (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, count(*)
FROM runs WHERE id = ANY($1)
GROUP BY model_slug, hardware_slug, engine_slug, engine_version, quantization_slug
ON CONFLICT (model_slug, hardware_slug, engine_slug, engine_version, quantization_slug) DO UPDATE SET runs = g.runs + excluded.runs`

// indexBatch files fresh runs (rows and cells written in tx) for browsing,
// as indexRun(…, fresh) on each in order would. One round trip.
func indexBatch(ctx context.Context, tx pgx.Tx, ids []string, runs []*run.Run) error {
	if len(ids) == 0 {
		return nil
	}
	var cols [6][]string // hw, engine, model, base, submitter, quant
	var kinds, slugs, names []string
	for _, r := range runs {
		hw, engine, model, base, submitter, quant := runIdentities(r)
		for i, ident := range []catalog.Identity{hw, engine, model, base, submitter, quant} {
			cols[i] = append(cols[i], ident.Slug)
			if ident.Slug != "" {
				kinds = append(kinds, identityKinds[i])
				slugs = append(slugs, ident.Slug)
				names = append(names, ident.Name)
			}
		}
	}
	b := &pgx.Batch{}
	b.Queue(setIdentitiesBatchSQL, ids, cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], catalog.Version)
	b.Queue(nameIdentitiesBatchSQL, kinds, slugs, names)
	b.Queue(offerBestBatchSQL, ids)
	b.Queue(countGroupsBatchSQL, ids)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	return nil
}

// identityKinds names runIdentities' results as the identities table does.
var identityKinds = [6]string{KindHardware, KindEngine, KindModel, KindModelBase, KindSubmitter, KindQuantization}
