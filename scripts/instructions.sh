#!/bin/sh
# instructions.sh — instructions per iteration of one Go benchmark, counted
# by valgrind's callgrind: the same count for the same code whatever else
# the machine is doing, where times on a shared two-core machine move by 2×.
#
#   go test -c -o /tmp/web.test ./web/site
#   scripts/instructions.sh /tmp/web.test CachedReportCold      # → 6739670 instructions/op
#
# It runs the benchmark twice under callgrind, with LOW and HIGH iterations
# (50 and 250), and prints (total(HIGH) - total(LOW)) / (HIGH - LOW): the
# set-up (a scratch database, migrations, the seed run) cancels out. One
# processor, no collector and no asynchronous preemption keep the count
# repeatable (to 0.1 % here): the scheduler's spinning and the collector's
# timing otherwise add noise. So it counts the code's own work, not the
# garbage it leaves (see -benchmem for that). Needs valgrind
# (apt-get install -y valgrind) and, for web's benchmarks, TEST_DATABASE_URL.
set -eu
bin=$1 bench=$2 low=${LOW:-50} high=${HIGH:-250}
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is missing (apt-get install -y valgrind)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() { # iterations → total instructions
	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
		--callgrind-out-file="$out/cg.$1" "$bin" -test.run '^$' -test.bench "^Benchmark$bench\$" \
		-test.benchtime "${1}x" >"$out/log.$1" 2>&1 || { cat "$out/log.$1" >&2; exit 1; }
	callgrind_annotate "$out/cg.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
a=$(count "$low")
b=$(count "$high")
echo "$(( (b - a) / (high - low) )) instructions/op ($bench, $low and $high iterations)"
