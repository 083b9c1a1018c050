#!/bin/sh
# load.sh — a bounded load test of the seed report with wrk, on 127.0.0.1 only.
#
#   go build -o /tmp/sm ./cmd/speedmatrix
#   DATA_DIR=/tmp/smdata ADDR=127.0.0.1:18080 /tmp/sm serve   # prints the seed run's id
#   scripts/load.sh RUN_ID            # or RUN_ID=... ADDR=... scripts/load.sh
#
# Runs wrk for DURATION (10s) with CONNS (4) connections on THREADS (2)
# threads against GET /runs/RUN_ID, then the same with If-None-Match (the
# 304 revalidation), and prints req/s and the latency percentiles. wrk runs
# on the same 2 cores as the server and PostgreSQL: quote ratios, not
# absolutes. Needs wrk (apt-get install -y wrk) and curl.
set -eu

ADDR=${ADDR:-127.0.0.1:18080}
RUN_ID=${1:-${RUN_ID:-}}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-4}
THREADS=${THREADS:-2}

case $ADDR in
127.0.0.1:*|localhost:*) ;;
*) echo "load.sh: only loopback addresses (ADDR=$ADDR)" >&2; exit 2 ;;
esac
[ -n "$RUN_ID" ] || { echo "usage: load.sh RUN_ID (the seed run's id, printed by 'speedmatrix serve')" >&2; exit 2; }
command -v wrk >/dev/null || { echo "load.sh: wrk is missing: apt-get install -y wrk" >&2; exit 2; }

URL="http://$ADDR/runs/$RUN_ID"
hdrs=$(mktemp)
trap 'rm -f "$hdrs"' EXIT
size=$(curl -fsS -o /dev/null -D "$hdrs" -w '%{size_download}' "$URL") || { echo "load.sh: GET $URL failed" >&2; exit 1; }
etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: *//p' "$hdrs" | tr -d '\r')
echo "# $URL: $size bytes, ETag $etag"
echo "# $(nproc) CPUs; wrk -t$THREADS -c$CONNS -d$DURATION --latency"

run() {
	label=$1; shift
	echo
	echo "== $label"
	wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "$@" "$URL" |
		awk '/Requests\/sec|Transfer\/sec|Non-2xx|Socket errors/ {print} /Latency Distribution/ {d=1; print; next} d && /%/ {print} d && !/%/ {d=0}'
}

run "GET (200, rendered per request)"
[ -z "$etag" ] || run "GET If-None-Match (304)" -H "If-None-Match: $etag"
