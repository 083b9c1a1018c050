DROP INDEX runs_sitemap_idx, runs_setup_idx, runs_setup_base_idx;
