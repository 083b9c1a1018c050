#!/bin/sh
# scale.sh — every public page's time for one uncached request on sites of
# different sizes (1,000 runs against 1,000,000 by default), and each
# size's ratio to the first, on 127.0.0.1 only (docs/scale.md).
#
#   go build -o /tmp/sm ./cmd/speedmatrix
#   SM=/tmp/sm scripts/scale.sh                                   # scratch 1k and 1M databases
#   SM=/tmp/sm DBS='scale_1k scale_100k scale_1m' scripts/scale.sh  # databases loaded already, kept
#
# With DBS unset it creates two scratch databases on ADMIN_URL (the
# machine's PostgreSQL by default), stores SMALL and LARGE demo runs of one
# seed in them (`speedmatrix demo`: the large one holds the small one's runs
# first) and drops them on exit. DBS names databases loaded already, the
# smallest first (SMALL_DB and LARGE_DB, as before, are the same as
# DBS="$SMALL_DB $LARGE_DB"). It starts `speedmatrix serve` on each, on
# 127.0.0.1 ports from PORT (18206) up, and asks every page ROUNDS times
# (7), the databases in turn, request by request, so that whatever else the
# machine does weighs on all alike. Before each request it announces a
# reset on the server's change channel (as an instance does when it may
# have missed changes), so the page cache holds nothing fresh and every
# request is built from the database. It prints the median milliseconds of
# each page on each database and the ratio of each to the first. A
# benchmark: nothing asserts the ratios. Needs psql and curl; every request
# is bounded by MAX_TIME seconds (30).
#
# The pages are PAGE_LIST below: add a new page's address there. Words in
# braces are taken from the first (smallest) site's own links and asked of
# every site; a line whose word could not be found is left out, with a
# note. PAGES, when set, replaces the list (space-separated, braces allowed).
# SUBMITTER names a proven submitter ({submitter}); without it, the first
# the small site's /runs links to, if any (demo runs name none: see
# docs/scale.md, "A proven submitter on demo databases").
#
# With UPLOADS (a number, 0 by default) it then posts that many uploads of
# the seed run to each site from one client (scripts/uploadload, each a new
# run), the sites in turn, ROUNDS times, and prints each site's median
# milliseconds per upload and its ratio to the first. Every upload adds a
# run to the database.
set -eu

PAGE_LIST='
/
/runs
/runs?sort=peak
/runs?sort=single
{runs_filtered}
{runs_next}
{runs_deep}
/leaderboard
/leaderboard?metric=per_request_tps
/leaderboard?metric=ttft_ms
/leaderboard?ctx=16384&conc=8
/leaderboard?ctx=32768&conc=8
/leaderboard?ctx=131072&conc=64
/leaderboard?queued=1
/leaderboard?flagged=1
/leaderboard?version=0.32.0
{board_filtered}
/leaderboard?hardware={hardware_slug}
/leaderboard?engine={engine_slug}
/leaderboard?quant={quant}
{hardware}
{engine}
{model}
{report}
{history}
/compare?runs={report_id},{report2_id}
/search?q=4090
/sitemap.xml
/sitemap-en.xml
/api/v1/runs
/api/v1/runs?limit=100&after={deep_cursor}
/api/v1/hardware
/api/v1/engines
/api/v1/models
/leaderboard?submitter={submitter}
/submitters/{submitter}
/leaderboard?metric=tokens_per_joule
/leaderboard?ctx=131072&conc=64&metric=tokens_per_joule
/api/v1/leaderboard
/api/v1/leaderboard?ctx=131072&conc=64&metric=tokens_per_joule
{report}?metric=tokens_per_joule&kwh=0.25
/plan?hardware={hardware_slug}&preset=team
/api/v1/plan?hardware={hardware_slug}&preset=chat
/plan?hardware=8x-h200-141gb&preset=team
/api/v1/plan?hardware=8x-h200-141gb&preset=chat
/regressions
/regressions?engine={engine_slug}
/regressions.atom
/api/v1/regressions
'

SM=${SM:-/tmp/sm}
ADMIN_URL=${ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
PORT=${PORT:-18206}
SMALL=${SMALL:-1000}
LARGE=${LARGE:-1000000}
ROUNDS=${ROUNDS:-7}
MAX_TIME=${MAX_TIME:-30}
DEEP=${DEEP:-10} # pages of /runs followed on the small site for {runs_deep}
UPLOADS=${UPLOADS:-0}

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

# prepare NAME RUNS: a scratch database with RUNS demo runs. It runs in a
# command substitution, a subshell: the caller marks it to be dropped.
prepare() {
	db=speedmatrix_scale_$1_$$
	psql -q "$ADMIN_URL" -c "CREATE DATABASE $db" >/dev/null
	DATABASE_URL=$(url_of "$db") "$SM" migrate >/dev/null
	DATABASE_URL=$(url_of "$db") "$SM" demo --runs "$2" | tail -1 >&2
	echo "$db"
}
if [ -z "${DBS:-}" ] && [ -n "${SMALL_DB:-}" ] && [ -n "${LARGE_DB:-}" ]; then DBS="$SMALL_DB $LARGE_DB"; fi
if [ -z "${DBS:-}" ]; then
	small=$(prepare small "$SMALL") && dropped="$small"
	large=$(prepare large "$LARGE") && dropped="$dropped $large"
	DBS="$small $large"
fi

# start I DB: a fresh server on DB at 127.0.0.1:PORT+I.
start() {
	addr=127.0.0.1:$((PORT + $1))
	DATABASE_URL=$(url_of "$2") UPLOADS_PER_HOUR_ADDRESS=-1 ADDR=$addr "$SM" serve >"$work/$1.log" 2>&1 &
	echo $! >"$work/$1.pid"
	for _ in $(seq 150); do curl -fs "http://$addr/readyz" >/dev/null 2>&1 && return; sleep 0.2; done
	echo "scale.sh: the server on $2 did not start" >&2; cat "$work/$1.log" >&2; exit 1
}
i=0
for db in $DBS; do start $i "$db"; i=$((i + 1)); done
base=http://127.0.0.1:$PORT

# pick PAGE PREFIX: the first link on the first site's PAGE that starts with PREFIX.
pick() {
	curl -fs --max-time "$MAX_TIME" "$base$1" | grep -o "href=\"$2[^\"#]*\"" | head -1 |
		sed 's/^href="//; s/"$//; s/&amp;/\&/g'
}
# pick2 PAGE PREFIX: the second such link.
pick2() {
	curl -fs --max-time "$MAX_TIME" "$base$1" | grep -o "href=\"$2[^\"#]*\"" | sort -u | sed -n 2p |
		sed 's/^href="//; s/"$//; s/&amp;/\&/g'
}

report=$(pick /runs /runs/)
hardware=$(pick /runs /hardware/)
engine=$(pick /runs /engines/)
model=$(pick /runs /models/)
history=$(pick "$report" /history?)
[ -n "$history" ] || history=$(pick "$hardware" /history?)
# next PAGE: the address of the list page after PAGE (its rel="next" link).
next() {
	curl -fs --max-time "$MAX_TIME" "$base$1" | grep -o 'rel="next" href="[^"]*"' | head -1 |
		sed 's/^rel="next" href="//; s/"$//; s/&amp;/\&/g'
}
runs_next=$(next /runs)
# A deep cursor: DEEP pages into the small site's list, whose runs are the
# large sites' oldest, so there it is nearly a million runs deep.
runs_deep=$runs_next
for _ in $(seq "$DEEP"); do
	n=$(next "$runs_deep")
	[ -z "$n" ] || runs_deep=$n
done
deep_cursor=${runs_deep#*after=}
quant=$(pick "$report" '/runs?quant=' | sed 's|^/runs?quant=||')
submitter=${SUBMITTER:-$(pick /runs /submitters/ | sed 's|^/submitters/||')}
values="
runs_filtered=$(pick "$hardware" '/runs?')
runs_next=$runs_next
runs_deep=$runs_deep
deep_cursor=$deep_cursor
board_filtered=$(pick "$model" '/leaderboard?')
hardware=$hardware
hardware_slug=${hardware#/hardware/}
engine=$engine
engine_slug=${engine#/engines/}
model=$model
report=$report
report_id=${report#/runs/}
report2_id=$(pick2 /runs /runs/ | sed 's|^/runs/||')
history=$history
quant=$quant
submitter=$submitter
"

# expand LINE: LINE with every {word} replaced by its value, or nothing
# (and a note) when a word has none.
expand() {
	line=$1
	while :; do
		case $line in *\{*\}*) ;; *) break ;; esac
		word=${line#*\{}
		word=${word%%\}*}
		value=$(printf '%s\n' "$values" | sed -n "s|^$word=||p" | head -1)
		if [ -z "$value" ]; then
			echo "scale.sh: left out $1: no {$word} on the first site" >&2
			return
		fi
		value=$(printf '%s' "$value" | sed 's/[&|\\]/\\&/g') # literal in sed's replacement
		line=$(printf '%s' "$line" | sed "s|{$word}|$value|")
	done
	printf '%s\n' "$line"
}
pages=""
for p in ${PAGES:-$PAGE_LIST}; do
	e=$(expand "$p")
	[ -z "$e" ] || pages="$pages $e"
done

echo "scale.sh: asking$pages" >&2

# ask I DB PAGE: one uncached request's status and seconds. The reset
# reaches the server on its listening connection within milliseconds; the
# pause makes sure it has before the request.
ask() {
	psql -q "$(url_of "$2")" -c "NOTIFY speedmatrix_changes, '{\"reset\":true}'" >/dev/null
	sleep 0.1
	curl -s -o /dev/null --max-time "$MAX_TIME" -H 'Accept-Encoding: gzip' -w '%{http_code} %{time_total}\n' \
		"http://127.0.0.1:$((PORT + $1))$3"
}

# median FILE PAGE: the median of FILE's times in milliseconds.
median() {
	awk -v p="$2" '$1 != 200 {print "scale.sh: " p ": HTTP " $1 > "/dev/stderr"} {print $2}' "$1" |
		sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]*1000}'
}

n=0
for db in $DBS; do n=$((n + 1)); done
for p in $pages; do
	for i in $(seq 0 $((n - 1))); do : >"$work/t$i"; done
	for _ in $(seq "$ROUNDS"); do
		i=0
		for db in $DBS; do ask $i "$db" "$p" >>"$work/t$i"; i=$((i + 1)); done
	done
	row="| \`$p\`"
	first=""
	ratios=""
	for i in $(seq 0 $((n - 1))); do
		m=$(median "$work/t$i" "$p")
		row="$row | $m"
		if [ -z "$first" ]; then first=$m; else ratios="$ratios | $(awk -v a="$first" -v b="$m" 'BEGIN {printf "%.2f", b/a}')"; fi
	done
	echo "$row$ratios |" >>"$work/table"
done

echo "# $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $ROUNDS uncached requests per page and database, in turn; median ms"
head="| page"
line="|---"
ratios=""
rline=""
first=""
for db in $DBS; do
	runs=$(psql -Atq "$(url_of "$db")" -c 'SELECT count(*) FROM runs')
	head="$head | $db ($runs runs)"
	line="$line|---"
	if [ -z "$first" ]; then first=$db; else ratios="$ratios | $db ÷ $first"; rline="$rline|---"; fi
done
echo
echo "$head$ratios |"
echo "$line$rline|"
cat "$work/table"

[ "$UPLOADS" -gt 0 ] || exit 0
here=$(cd "$(dirname "$0")/.." && pwd)
(cd "$here" && go build -o "$work/uploadload" ./scripts/uploadload)
for i in $(seq 0 $((n - 1))); do : >"$work/u$i"; done
for _ in $(seq "$ROUNDS"); do
	i=0
	for db in $DBS; do
		(cd "$here" && "$work/uploadload" -url "http://127.0.0.1:$((PORT + i))" -clients 1 -uploads "$UPLOADS") |
			awk '/uploads from/ {sub(/^\(/, "", $9); printf "%.3f\n", 1000 / $9}' >>"$work/u$i"
		i=$((i + 1))
	done
done
row="| upload (ms, 1 client, $UPLOADS × $ROUNDS)"
first=""
ratios=""
for i in $(seq 0 $((n - 1))); do
	m=$(sort -n "$work/u$i" | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]}')
	row="$row | $m"
	if [ -z "$first" ]; then first=$m; else ratios="$ratios | $(awk -v a="$first" -v b="$m" 'BEGIN {printf "%.2f", b/a}')"; fi
done
echo "$row$ratios |"
