-- The tables of bests without the tokens-per-joule metric.
DELETE FROM best_cells WHERE metric = 'tokens_per_joule';
DELETE FROM version_best_cells WHERE metric = 'tokens_per_joule';
DELETE FROM submitter_best_cells WHERE metric = 'tokens_per_joule';
ALTER TABLE best_cells DROP CONSTRAINT best_cells_metric_check,
    ADD CONSTRAINT best_cells_metric_check CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms'));
ALTER TABLE version_best_cells DROP CONSTRAINT version_best_cells_metric_check,
    ADD CONSTRAINT version_best_cells_metric_check CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms'));
ALTER TABLE submitter_best_cells DROP CONSTRAINT submitter_best_cells_metric_check,
    ADD CONSTRAINT submitter_best_cells_metric_check CHECK (metric IN ('total_tps', 'per_request_tps', 'ttft_ms'));
