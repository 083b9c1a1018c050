DROP INDEX runs_rival_idx;
DROP TRIGGER history_cells_inserted ON history_cells;
DROP TRIGGER history_cells_updated ON history_cells;
DROP TRIGGER history_cells_deleted ON history_cells;
DROP FUNCTION note_version_changes_pending();
DROP TABLE version_changes_pending;
DROP TABLE version_changes;
