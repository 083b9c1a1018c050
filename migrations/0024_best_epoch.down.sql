DROP TRIGGER submitter_best_cells_epoch ON submitter_best_cells;
DROP TRIGGER version_best_cells_epoch ON version_best_cells;
DROP TRIGGER best_cells_epoch ON best_cells;
DROP FUNCTION best_epoch_bump();
DROP TABLE best_epoch;
