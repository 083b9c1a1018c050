#!/bin/bash
# The scale profile's read replica: on first start, a base backup of the
# primary with pg_basebackup -R (which writes standby.signal and the
# primary's address), then PostgreSQL as a hot standby streaming from it.
# The primary's side is deploy/postgres-replication.sh. Without a
# replication slot the primary keeps no WAL for a replica that is away;
# one stopped too long says so in its log: remove its volume (docker compose
# rm -v db-replica) and it starts over from a new base backup.
set -euo pipefail
data="${PGDATA:-/var/lib/postgresql/data}"
primary="${PRIMARY_HOST:-db}"
user="${REPLICATION_USER:-replicator}"
export PGPASSWORD="${REPLICATION_PASSWORD:-replicator}"
if [ ! -s "$data/PG_VERSION" ]; then
	mkdir -p "$data"
	chown postgres:postgres "$data"
	chmod 700 "$data"
	until pg_isready -q -h "$primary" -U "$user" -d postgres; do
		echo "replica: waiting for $primary"
		sleep 1
	done
	gosu postgres pg_basebackup -h "$primary" -U "$user" -D "$data" -R -X stream -c fast
	# The password is not written by -R; the primary asks for it.
	echo "primary_conninfo = 'host=$primary user=$user password=$PGPASSWORD application_name=db-replica'" \
		>>"$data/postgresql.auto.conf"
fi
# hot_standby_feedback spares the replica's long reads from cancellation by
# the primary's vacuum; a cancelled read is asked again of the primary anyway.
exec gosu postgres postgres -D "$data" -c hot_standby=on -c hot_standby_feedback=on
