-- At a million runs (docs/performance.md): the reads that grew with the
-- number of runs.
--
-- sitemap.xml lists the runs that are neither hidden nor demo data, newest
-- first. Through the newest-first index, a site of demo runs was read
-- whole to find none; this index holds only the runs it lists.
CREATE INDEX runs_sitemap_idx ON runs (uploaded_at DESC, id) WHERE NOT hidden AND NOT demo;

-- A setup's history (Store.History, HistoryChoices, SetupVersions,
-- SetupsWithHistory) reads the rankable runs of one model (variant or
-- base), hardware, engine and quantization that name an engine version:
-- found through hardware or engine alone, they were picked out of every
-- run of that hardware. These hold only the runs a history reads, keyed by
-- the setup and ending in the version, so the versions of a setup are
-- read from the index.
CREATE INDEX runs_setup_idx ON runs (hardware_slug, engine_slug, model_slug, quantization_slug, engine_version)
    WHERE engine_version <> '' AND NOT hidden AND NOT above_bound AND profile <> 'quick';
CREATE INDEX runs_setup_base_idx ON runs (hardware_slug, engine_slug, model_base_slug, quantization_slug, engine_version)
    WHERE engine_version <> '' AND NOT hidden AND NOT above_bound AND profile <> 'quick';
