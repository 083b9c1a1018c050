-- Demo runs (speedmatrix demo) are synthetic and marked as such on every page;
-- notes are caveat codes a page explains (a tool's TTFT that includes
-- prefill, an inter-token latency that includes the first token).
ALTER TABLE runs
    ADD COLUMN demo boolean NOT NULL DEFAULT false,
    ADD COLUMN notes text[];
