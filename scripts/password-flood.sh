#!/bin/sh
# password-flood.sh — the sign-in flood an attacker tried, against a real
# server process on 127.0.0.1: one account, then N (50) wrong passwords for
# it at once with curl. Prints the answers by status and the server's peak
# RSS (VmHWM) before and after.
#
#   go build -o /tmp/sm ./cmd/speedmatrix
#   SM=/tmp/sm scripts/password-flood.sh
#
# It creates a scratch database (speedmatrix_flood_$$) on ADMIN_URL, starts
# the server on ADDR (127.0.0.1:18931), and on exit stops it and drops the
# database. Needs psql and curl. Each argon2id hash takes 64 MiB: with the
# hashing slots the peak stays near one hash per core above the idle
# server, and at most ten guesses (the limit) answer 401.
set -eu

SM=${SM:-/tmp/sm}
ADMIN_URL=${ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
ADDR=${ADDR:-127.0.0.1:18931}
N=${N:-50}
case $ADDR in 127.0.0.1:*) ;; *) echo "password-flood.sh: only 127.0.0.1 addresses ($ADDR)" >&2; exit 2 ;; esac

db=speedmatrix_flood_$$
work=$(mktemp -d)
cleanup() {
	[ -f "$work/sm.pid" ] && kill "$(cat "$work/sm.pid")" 2>/dev/null || true
	sleep 1
	psql -q "$ADMIN_URL" -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

psql -q "$ADMIN_URL" -c "CREATE DATABASE $db" >/dev/null
DATABASE_URL=$(echo "$ADMIN_URL" | sed "s#/postgres?#/$db?#") ADDR=$ADDR "$SM" serve >"$work/sm.log" 2>&1 &
echo $! >"$work/sm.pid"
pid=$(cat "$work/sm.pid")
i=0
until curl -sf "http://$ADDR/readyz" >/dev/null; do
	i=$((i + 1))
	[ $i -lt 150 ] || { cat "$work/sm.log" >&2; exit 1; }
	sleep 0.2
done

curl -s -o /dev/null -w 'sign-up: %{http_code}\n' \
	-d 'handle=victim&email=victim@example.com&password=correct+horse+battery' "http://$ADDR/signup"
echo "before: $(grep VmHWM /proc/$pid/status)"
i=0
while [ $i -lt "$N" ]; do
	i=$((i + 1))
	curl -s -o /dev/null -w '%{http_code}\n' \
		-d "email=victim@example.com&password=wrong+guess+$i" "http://$ADDR/login" >>"$work/codes" &
done
wait_for=$N
while [ "$(wc -l <"$work/codes" 2>/dev/null || echo 0)" -lt "$wait_for" ]; do sleep 0.2; done
echo "answers (count, status):"
sort "$work/codes" | uniq -c
echo "after:  $(grep VmHWM /proc/$pid/status)"
