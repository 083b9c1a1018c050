-- A counter of the changes that can make a stored best worse. A best only
-- gets better while uploads hold bestLock shared; only a transaction that
-- holds it exclusively (lockBest, internal/store/browse_rebuild.go, which
-- bumps this in the same transaction) can make one worse. A server
-- remembers, per group, how good the stored bests are known to be, learned
-- from its own committed uploads under one epoch, and leaves out the
-- offers that cannot win while the epoch is still that one
-- (internal/store/best_bounds.go). One row, always.
CREATE TABLE best_epoch (
    one   boolean PRIMARY KEY DEFAULT true CHECK (one),
    epoch bigint NOT NULL
);
INSERT INTO best_epoch (epoch) VALUES (0);

-- Whatever empties or deletes rows of a table of bests outside lockBest
-- (a TRUNCATE of runs, whose trigger empties them; an undone restore; a
-- hand-made DELETE) bumps the epoch too, so no remembered bound outlives
-- the best it was learned from. A rebuild under lockBest bumps it twice:
-- one more update of one row, on a rare path.
CREATE FUNCTION best_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE best_epoch SET epoch = epoch + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER best_cells_epoch AFTER DELETE OR TRUNCATE ON best_cells
    FOR EACH STATEMENT EXECUTE FUNCTION best_epoch_bump();
CREATE TRIGGER version_best_cells_epoch AFTER DELETE OR TRUNCATE ON version_best_cells
    FOR EACH STATEMENT EXECUTE FUNCTION best_epoch_bump();
CREATE TRIGGER submitter_best_cells_epoch AFTER DELETE OR TRUNCATE ON submitter_best_cells
    FOR EACH STATEMENT EXECUTE FUNCTION best_epoch_bump();
