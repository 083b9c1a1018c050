-- Builds whatever an interrupted bulk load left deferred before the list goes.
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT restore FROM bulk_deferred_indexes ORDER BY table_name, name LOOP
        EXECUTE r.restore;
    END LOOP;
END $$;
DROP TABLE bulk_deferred_indexes;
