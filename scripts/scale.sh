#!/bin/sh
# scale.sh — every public page kind's time for one uncached request with
# SMALL runs (1,000) and with LARGE runs (1,000,000), and their ratio, on
# 127.0.0.1 only (docs/performance.md, "At a million runs").
#
#   go build -o /tmp/sm ./cmd/speedmatrix
#   SM=/tmp/sm scripts/scale.sh
#
# It creates two scratch databases on ADMIN_URL (the machine's PostgreSQL by
# default), stores SMALL and LARGE demo runs of one seed in them
# (`speedmatrix demo`, the bulk load: the large one holds the small one's
# runs first), starts `speedmatrix serve` on each, the small one on ADDR
# (127.0.0.1:18206) and the large one on LARGE_ADDR (127.0.0.1:18207), and
# asks every page ROUNDS times (5) of both in turn, request by request, so
# that whatever else the machine does weighs on both alike. Before each
# request the script announces a reset on the servers' change channel (as
# an instance does when it may have missed changes), so the page cache
# holds nothing fresh and every request is built from the database: a new
# query string no longer makes a miss, since a cached page keeps only the
# parameters it reads. It prints the median time of each
# page on both and the ratio. The paths are picked on the small site's pages (the first
# report, hardware, engine, model, filtered lists, history) and asked of
# both. SMALL_DB and LARGE_DB name databases loaded already, which are
# then kept; scratch databases are dropped on exit, with the server it
# started. Every request is bounded by MAX_TIME seconds (30). Needs psql
# and curl. A benchmark: nothing asserts the ratios.
#
# SUBMITTER names a submitter whose board (/leaderboard?submitter=…) and
# page (/submitters/…) are asked too; without it, the first submitter the
# small site's /runs links to, if any. The demo load names no proven
# submitter, so with demo databases make one on both first (docs/performance.md,
# "A proven submitter on demo databases"). PAGES, when set, is the
# pages to ask instead of every kind (space-separated paths).
set -eu

SM=${SM:-/tmp/sm}
ADMIN_URL=${ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
ADDR=${ADDR:-127.0.0.1:18206}
LARGE_ADDR=${LARGE_ADDR:-127.0.0.1:18207}
SMALL=${SMALL:-1000}
LARGE=${LARGE:-1000000}
ROUNDS=${ROUNDS:-5}
MAX_TIME=${MAX_TIME:-30}

for a in "$ADDR" "$LARGE_ADDR"; do
	case $a in 127.0.0.1:*) ;; *) echo "scale.sh: only 127.0.0.1 addresses ($a)" >&2; exit 2 ;; esac
done
for c in psql curl; do
	command -v $c >/dev/null || { echo "scale.sh: $c is missing" >&2; exit 2; }
done
[ -x "$SM" ] || { echo "scale.sh: build the server first: go build -o $SM ./cmd/speedmatrix" >&2; exit 2; }

work=$(mktemp -d)
dropped=""
cleanup() {
	for f in "$work"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; done
	sleep 1
	for db in $dropped; do psql -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

url_of() { printf '%s' "$ADMIN_URL" | sed "s|/postgres?|/$1?|"; }

# prepare NAME RUNS: a database with RUNS demo runs, created unless given.
# It runs in a command substitution, a subshell: the caller marks the
# database to be dropped.
prepare() {
	db=speedmatrix_scale_$1_$$
	psql -q "$ADMIN_URL" -c "CREATE DATABASE $db" >/dev/null
	DATABASE_URL=$(url_of "$db") "$SM" migrate >/dev/null
	DATABASE_URL=$(url_of "$db") "$SM" demo --runs "$2" | tail -1 >&2
	echo "$db"
}
small_db=${SMALL_DB:-$(prepare small "$SMALL")}
[ -n "${SMALL_DB:-}" ] || dropped="$dropped $small_db"
large_db=${LARGE_DB:-$(prepare large "$LARGE")}
[ -n "${LARGE_DB:-}" ] || dropped="$dropped $large_db"

base=http://$ADDR
# start NAME DB ADDR: a fresh server on DB, answering on ADDR.
start() {
	DATABASE_URL=$(url_of "$2") UPLOADS_PER_HOUR_ADDRESS=-1 ADDR=$3 "$SM" serve >"$work/$1.log" 2>&1 &
	echo $! >"$work/$1.pid"
	for _ in $(seq 150); do curl -fs "http://$3/readyz" >/dev/null 2>&1 && return; sleep 0.2; done
	echo "scale.sh: the server on $2 did not start" >&2; cat "$work/$1.log" >&2; exit 1
}

# pick PAGE PREFIX: the first link on PAGE that starts with PREFIX.
pick() {
	curl -fs --max-time "$MAX_TIME" "$base$1" | grep -o "href=\"$2[^\"#]*\"" | head -1 |
		sed 's/^href="//; s/"$//; s/&amp;/\&/g'
}

start small "$small_db" "$ADDR"
start large "$large_db" "$LARGE_ADDR"
report=$(pick /runs /runs/)
hardware=$(pick /runs /hardware/)
engine=$(pick /runs /engines/)
model=$(pick /runs /models/)
history=$(pick "$report" /history?)
[ -n "$history" ] || history=$(pick "$hardware" /history?)
runs_filtered=$(pick "$hardware" '/runs?')
runs_next=$(pick /runs '/runs?after=')
board_filtered=$(pick "$model" '/leaderboard?')
pages="/ /runs $runs_filtered $runs_next /runs?sort=peak /leaderboard $board_filtered /leaderboard?ctx=32768&conc=8
/leaderboard?flagged=1 /leaderboard?version=0.32.0
$hardware $engine $model $history $report /search?q=4090 /sitemap.xml /sitemap-en.xml
/api/v1/runs /api/v1/hardware /api/v1/engines /api/v1/models"
submitter=${SUBMITTER:-$(pick /runs /submitters/ | sed 's|^/submitters/||')}
[ -z "$submitter" ] || pages="$pages /leaderboard?submitter=$submitter /submitters/$submitter"
pages=${PAGES:-$pages}

# ask ADDR DB PAGE: one uncached request's status and seconds. The reset
# reaches the server on its listening connection within milliseconds; the
# pause makes sure it has before the request.
ask() {
	psql -q "$(url_of "$2")" -c "NOTIFY speedmatrix_changes, '{\"reset\":true}'" >/dev/null
	sleep 0.1
	curl -s -o /dev/null --max-time "$MAX_TIME" -H 'Accept-Encoding: gzip' -w '%{http_code} %{time_total}\n' \
		"http://$1$3"
}

# median FILE PAGE: the median of FILE's times in milliseconds.
median() {
	awk -v p="$2" '$1 != 200 {print "scale.sh: " p ": HTTP " $1 > "/dev/stderr"} {print $2}' "$1" |
		sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]*1000}'
}

for p in $pages; do
	: >"$work/s" && : >"$work/l"
	for i in $(seq "$ROUNDS"); do
		ask "$ADDR" "$small_db" "$p" >>"$work/s"
		ask "$LARGE_ADDR" "$large_db" "$p" >>"$work/l"
	done
	echo "$(median "$work/s" "$p")" >>"$work/small.txt"
	echo "$(median "$work/l" "$p")" >>"$work/large.txt"
done

echo "# $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS uncached requests per page, median"
echo "# small: $small_db ($(psql -Atq "$(url_of "$small_db")" -c 'SELECT count(*) FROM runs') runs), large: $large_db ($(psql -Atq "$(url_of "$large_db")" -c 'SELECT count(*) FROM runs') runs)"
echo
echo "| page | small (ms) | large (ms) | ratio |"
echo "|---|---|---|---|"
i=0
for p in $pages; do
	i=$((i + 1))
	a=$(sed -n "${i}p" "$work/small.txt")
	b=$(sed -n "${i}p" "$work/large.txt")
	echo "| \`$p\` | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", b/a}') |"
done
