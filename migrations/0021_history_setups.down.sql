DROP TABLE history_setups;
