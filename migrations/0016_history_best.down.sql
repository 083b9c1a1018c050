DROP TABLE history_cells, history_versions;
