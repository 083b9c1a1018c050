-- Indexes a bulk load into an empty database dropped to build once at its
-- end (sorting every row once is far cheaper than inserting tens of
-- millions of entries one by one into indexes larger than memory), each
-- with the statement that makes it again. The rows and the drops are one
-- transaction, so a load interrupted before its end leaves here exactly
-- what is missing, and the next load (or its end) builds it.
CREATE TABLE bulk_deferred_indexes (
    name text PRIMARY KEY,
    table_name text NOT NULL,
    restore text NOT NULL
);
