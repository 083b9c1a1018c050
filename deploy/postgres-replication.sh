#!/bin/bash
# Lets the scale profile's replica (deploy/replica-entrypoint.sh) stream from
# this primary: a login role allowed to replicate, and a pg_hba.conf entry for
# it (the image's own "host all all all" does not cover replication).
# postgres:15 runs it once, when it creates the database; on a volume made
# before, run it by hand: docker compose exec db bash /docker-entrypoint-initdb.d/20-replication.sh
# followed by: docker compose restart db
set -euo pipefail
user="${REPLICATION_USER:-replicator}"
password="${REPLICATION_PASSWORD:-replicator}"
data="${PGDATA:-/var/lib/postgresql/data}"
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres \
	-v user="$user" -v password="$password" <<'SQL'
SELECT format('CREATE ROLE %I WITH REPLICATION LOGIN PASSWORD %L', :'user', :'password')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'user') \gexec
SQL
line="host replication $user all scram-sha-256"
grep -qxF "$line" "$data/pg_hba.conf" || echo "$line" >> "$data/pg_hba.conf"
