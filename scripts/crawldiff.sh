#!/bin/sh
# crawldiff.sh — two builds of speedmatrix, old and new, given the same
# data, compared answer by answer: every sample file uploaded to both, the
# rows each stored, signed-in visitors' pages and N (3000) addresses
# crawled from both. What a change of the code's structure must not
# change, this shows; what a change means to differ, it lists for a person
# to judge. On 127.0.0.1 only.
#
#   git archive OLD_COMMIT | tar -x -C /tmp/old && (cd /tmp/old && go build -o /tmp/sm-old ./cmd/speedmatrix)
#   go build -o /tmp/sm-new ./cmd/speedmatrix
#   OLD=/tmp/sm-old NEW=/tmp/sm-new scripts/crawldiff.sh
#
# For each build it creates a scratch database on ADMIN_URL, migrates it,
# stores RUNS (500) demo runs of SEED (1), and makes two submitters with
# upload tokens and password reset links (crawl-solo, an admin, and
# crawl-member of the organisation crawl-lab). Both servers run at once,
# the old one on OLD_ADDR (127.0.0.1:18321), the new one on NEW_ADDR
# (127.0.0.1:18322), both with BASE_URL http://127.0.0.1:BASE_PORT (18320,
# where nothing listens) and asked under that Host, so the links they
# print are the same; uploads are not rate limited.
#
# 1. Uploads: every sample file (testdata/formats, testdata/regress,
#    testdata/hostile, internal/demo/runs, and the directories in
#    EXTRA_SAMPLES) is posted to both in the same order: through the API or
#    the browser's form, draft and publish, then raw again (found, not
#    stored twice); a few with tokens, one deleted, sweeps and dry runs
#    (scripts/crawl/upload.go).
# 2. Stored rows: every table both databases have, every column both have,
#    rows sorted, time stamps reduced to whether they are set, random
#    columns (token, session, password and secret hashes, drafts' ids and
#    owners, claim hashes) left out, bytes by their md5. Run ids depend on
#    the document alone, so the same sample is the same id in both.
# 3. Signed-in visitors: both submitters sign in, the member uploads one
#    sample through the form, the admin hides another of the member's runs
#    as a moderator, the member tries to show it again, hides, shows and
#    edits the first, and their account pages are asked
#    (scripts/crawl/account.go). The rows are compared again. Before and
#    after this step the new build's time stamps are set to the old one's,
#    row by row by primary key, so pages show the same dates.
# 4. Pages: both servers restarted (empty page caches) and crawled at once,
#    breadth-first from the site's pages in every language, error
#    addresses and every address of the uploaded samples' runs, following
#    links and GET forms' choices of the site, one route pattern at a time,
#    up to N addresses; one address in eight is also asked with gzip,
#    brotli, Accept-Language de, If-None-Match and HEAD
#    (scripts/crawl/crawl.go).
#
# Answers are compared by status, every header but Date and
# Content-Length (an ETag only by presence: it names the build; cookies
# without their values), body, and apart, framing (length or chunked),
# after each build's version string, static files' hashes and the random
# ids of drafts and tokens are replaced by placeholders. It prints each
# comparison's counts by route pattern with the first difference of each
# (a unified diff excerpt of the bodies, HTML split at tags, JSON
# indented); OUT (a new directory under /tmp) keeps every record
# (uploads.jsonl, accounts.jsonl, pages.jsonl), the differing bodies and
# the row dumps. KEEP_DB=1 keeps the databases. Needs psql, curl and go.
set -eu

OLD=${OLD:?OLD=path of the old build}
NEW=${NEW:?NEW=path of the new build}
ADMIN_URL=${ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
BASE_PORT=${BASE_PORT:-18320}
OLD_ADDR=${OLD_ADDR:-127.0.0.1:18321}
NEW_ADDR=${NEW_ADDR:-127.0.0.1:18322}
RUNS=${RUNS:-500}
SEED=${SEED:-1}
N=${N:-3000}
EXTRA_SAMPLES=${EXTRA_SAMPLES:-}
KEEP_DB=${KEEP_DB:-}

for a in "$OLD_ADDR" "$NEW_ADDR"; do
	case $a in 127.0.0.1:*) ;; *) echo "crawldiff.sh: only 127.0.0.1 addresses ($a)" >&2; exit 2 ;; esac
done
for c in psql curl go; do
	command -v $c >/dev/null || { echo "crawldiff.sh: $c is missing" >&2; exit 2; }
done
for b in "$OLD" "$NEW"; do
	[ -x "$b" ] || { echo "crawldiff.sh: $b is not an executable build" >&2; exit 2; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/crawldiff.XXXXXX)}
mkdir -p "$OUT"
base_url=http://127.0.0.1:$BASE_PORT
db_old=speedmatrix_crawl_old_$$
db_new=speedmatrix_crawl_new_$$
url_of() { printf '%s' "$ADMIN_URL" | sed "s|/postgres?|/$1?|"; }
url_old=$(url_of "$db_old")
url_new=$(url_of "$db_new")

cleanup() {
	for f in "$OUT"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
	rm -f "$OUT"/*.pid
	if [ -z "$KEEP_DB" ]; then
		sleep 1
		for db in "$db_old" "$db_new"; do psql -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
	fi
}
trap cleanup EXIT INT TERM

(cd "$root" && go build -o "$OUT/crawl" ./scripts/crawl)

# prepare BIN DB: a database with the demo runs and two submitters, the
# solo one an admin; prints their upload tokens and password reset
# secrets as SOLO,MEMBER,MEMBER_RESET,SOLO_RESET.
prepare() {
	psql -q "$ADMIN_URL" -c "CREATE DATABASE $2" >/dev/null
	u=$(url_of "$2")
	DATABASE_URL=$u "$1" migrate >/dev/null
	DATABASE_URL=$u "$1" demo --runs "$RUNS" --seed "$SEED" >&2
	DATABASE_URL=$u "$1" submitter create crawl-solo >/dev/null
	DATABASE_URL=$u "$1" submitter create crawl-member --org crawl-lab >/dev/null
	DATABASE_URL=$u "$1" admin grant crawl-solo >/dev/null
	solo=$(DATABASE_URL=$u "$1" token create crawl-solo 2>/dev/null)
	member=$(DATABASE_URL=$u "$1" token create crawl-member 2>/dev/null)
	member_reset=$(DATABASE_URL=$u BASE_URL=$base_url "$1" account reset crawl-member 2>/dev/null | sed 's/.*token=//')
	solo_reset=$(DATABASE_URL=$u BASE_URL=$base_url "$1" account reset crawl-solo 2>/dev/null | sed 's/.*token=//')
	echo "$solo,$member,$member_reset,$solo_reset"
}

# serve SIDE BIN URL ADDR: the server, until stop SIDE.
serve() {
	if curl -fs "http://$4/readyz" >/dev/null 2>&1; then
		echo "crawldiff.sh: something answers on $4 already" >&2
		exit 1
	fi
	DATABASE_URL=$3 ADDR=$4 BASE_URL=$base_url UPLOADS_PER_HOUR_ADDRESS=-1 UPLOADS_PER_HOUR_TOKEN=-1 \
		"$2" serve >>"$OUT/$1.log" 2>&1 &
	echo $! >"$OUT/$1.pid"
	for _ in $(seq 100); do curl -fs "http://$4/readyz" >/dev/null 2>&1 && return 0; sleep 0.2; done
	echo "crawldiff.sh: the $1 server did not start (log: $OUT/$1.log)" >&2
	exit 1
}
stop() {
	kill "$(cat "$OUT/$1.pid")"
	while kill -0 "$(cat "$OUT/$1.pid")" 2>/dev/null; do sleep 0.1; done
	rm -f "$OUT/$1.pid"
}

secrets_old=$(prepare "$OLD" "$db_old")
secrets_new=$(prepare "$NEW" "$db_new")
version_old=$("$OLD" version)
version_new=$("$NEW" version)
flags="-old http://$OLD_ADDR -new http://$NEW_ADDR -host 127.0.0.1:$BASE_PORT -out $OUT -old-version $version_old -new-version $version_new"

# compare_rows PHASE: every table's rows in both databases, compared
# (DIR/rows keeps the last dumps), then the runs named so far one by one.
compare_rows() {
	echo
	echo "== stored rows after the $1: every table, time stamps as set or not, random columns left out"
	mkdir -p "$OUT/rows/old" "$OUT/rows/new"
	tables "$url_old" >"$OUT/rows/tables.old"
	tables "$url_new" >"$OUT/rows/tables.new"
	comm -3 "$OUT/rows/tables.old" "$OUT/rows/tables.new" | awk -F'\t' '{ print ($1 == "" ? "only new: " $2 : "only old: " $1) }'
	same_tables=0
	differ_tables=""
	for t in $(comm -12 "$OUT/rows/tables.old" "$OUT/rows/tables.new"); do
		columns "$url_old" "$t" >"$OUT/rows/$t.cols.old"
		columns "$url_new" "$t" >"$OUT/rows/$t.cols.new"
		extra=$(comm -3 "$OUT/rows/$t.cols.old" "$OUT/rows/$t.cols.new" | tr -d '\t' | tr '\n' ' ')
		[ -z "$extra" ] || echo "$t: columns of one side only, not compared: $extra"
		cols=$(comm -12 "$OUT/rows/$t.cols.old" "$OUT/rows/$t.cols.new" | paste -sd, -)
		for s in old new; do
			u=$url_old; [ $s = new ] && u=$url_new
			psql -qAt "$u" -c "COPY (SELECT $cols FROM $t ORDER BY 1) TO STDOUT" | LC_ALL=C sort >"$OUT/rows/$s/$t.tsv"
		done
		if cmp -s "$OUT/rows/old/$t.tsv" "$OUT/rows/new/$t.tsv"; then
			same_tables=$((same_tables + 1))
		else
			differ_tables="$differ_tables $t"
			echo "$t: rows differ ($(wc -l <"$OUT/rows/old/$t.tsv") old, $(wc -l <"$OUT/rows/new/$t.tsv") new; columns: $cols)"
			diff "$OUT/rows/old/$t.tsv" "$OUT/rows/new/$t.tsv" | cut -c1-300 | head -12 | sed 's/^/   /'
		fi
	done
	echo "$same_tables tables with the same rows; differing:${differ_tables:- none}"
	# The runs the samples became, one by one: a run whose row, source or
	# cells differ is named.
	n_runs=0
	differ_runs=0
	for id in $(cat "$OUT/runs.txt"); do
		n_runs=$((n_runs + 1))
		d=""
		for t in runs run_sources decode_cells prefill_rows; do
			grep -F "$id" "$OUT/rows/old/$t.tsv" >"$OUT/rows/one.old" || true
			grep -F "$id" "$OUT/rows/new/$t.tsv" >"$OUT/rows/one.new" || true
			cmp -s "$OUT/rows/one.old" "$OUT/rows/one.new" || d="$d $t"
		done
		if [ -n "$d" ]; then
			differ_runs=$((differ_runs + 1))
			echo "sample run $id differs in:$d"
		fi
	done
	rm -f "$OUT/rows/one.old" "$OUT/rows/one.new"
	echo "$n_runs runs named so far, $((n_runs - differ_runs)) stored alike (runs, run_sources, decode_cells, prefill_rows)"
}

# align_times: the new build's time stamps become the old one's, by
# primary key, so the pages' dates agree.
align_times() {
	aligned=""
	for t in $(comm -12 "$OUT/rows/tables.old" "$OUT/rows/tables.new"); do
		ts=$(comm -12 "$OUT/rows/$t.cols.old" "$OUT/rows/$t.cols.new" | sed -n 's/^(\(.*\) IS NOT NULL) AS .*/\1/p' | paste -sd, -)
		pk=$(psql -qAt "$url_new" -c "SELECT string_agg(a.attname, ',' ORDER BY a.attname) FROM pg_index i
			JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
			WHERE i.indrelid = '$t'::regclass AND i.indisprimary")
		[ -n "$ts" ] && [ -n "$pk" ] || continue
		psql -qAt "$url_old" -c "COPY (SELECT $pk,$ts FROM $t) TO STDOUT" >"$OUT/rows/$t.times"
		[ -s "$OUT/rows/$t.times" ] || continue
		set_list=$(echo "$ts" | tr ',' '\n' | sed 's/.*/& = o.&/' | paste -sd, -)
		match=$(echo "$pk" | tr ',' '\n' | awk -v t="$t" '{ printf "%s%s.%s = o.%s", (NR > 1 ? " AND " : ""), t, $1, $1 }')
		n=$(psql -v ON_ERROR_STOP=1 -qAt "$url_new" <<-EOF
			CREATE TEMP TABLE o AS SELECT $pk,$ts FROM $t WITH NO DATA;
			\copy o FROM '$OUT/rows/$t.times'
			WITH u AS (UPDATE $t SET $set_list FROM o WHERE $match RETURNING 1) SELECT count(*) FROM u;
		EOF
		)
		aligned="$aligned $t:$n"
	done
	echo "time stamps set to the old build's (table:rows):$aligned"
}

samples="$root/testdata/formats $root/testdata/regress $root/testdata/hostile $root/internal/demo/runs $EXTRA_SAMPLES"
serve old "$OLD" "$url_old" "$OLD_ADDR"
serve new "$NEW" "$url_new" "$NEW_ADDR"
# shellcheck disable=SC2086 # flags and samples are lists of words
"$OUT/crawl" upload $flags -secrets-old "$secrets_old" -secrets-new "$secrets_new" $samples
sleep 2 # each server folds its run counts every second: let both finish
stop old
stop new

# columns SIDE-URL TABLE: the table's columns as compared, one a line:
# time stamps as whether they are set, bytes by their md5, random values
# left out.
columns() {
	psql -qAt "$1" -c "SELECT column_name, data_type, udt_name FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name = '$2' ORDER BY column_name" |
		while IFS='|' read -r col type udt; do
			case "$2.$col" in
			tokens.hash | tokens.prefix | sessions.hash | drafts.id | drafts.owner | runs.claim_hash | \
				email_confirmations.hash | password_resets.hash | pending_signups.hash | drafts.parsed | \
				submitters.password_hash | pending_signups.password_hash) continue ;;
			esac
			case $type in
			timestamp*) echo "($col IS NOT NULL) AS $col" ;;
			bytea) echo "md5($col) AS $col" ;;
			*) case $udt in _bytea) echo "md5($col::text) AS $col" ;; *) echo "$col" ;; esac ;;
			esac
		done | LC_ALL=C sort
}
tables() {
	psql -qAt "$1" -c "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'
		AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY 1"
}

compare_rows uploads
align_times

# Signed-in visitors, on both servers at once again.
serve old "$OLD" "$url_old" "$OLD_ADDR"
serve new "$NEW" "$url_new" "$NEW_ADDR"
# shellcheck disable=SC2086
"$OUT/crawl" accounts $flags -secrets-old "$secrets_old" -secrets-new "$secrets_new" $samples
sleep 2
stop old
stop new
compare_rows "signed-in visitors"
align_times

serve old "$OLD" "$url_old" "$OLD_ADDR"
serve new "$NEW" "$url_new" "$NEW_ADDR"
# shellcheck disable=SC2086
"$OUT/crawl" pages $flags -n "$N" -runs "$OUT/runs.txt"
echo
echo "records, differing bodies and row dumps: $OUT"
