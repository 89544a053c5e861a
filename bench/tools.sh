#!/bin/sh
# tools.sh - what one frame of each operator's tool costs over /cu, with 10
# and with 10,000 live allocations (half device memory, half managed), and
# what cufs-events costs to format 10,000 event lines. Each row is the
# median of $TOOLS_RUNS runs (default 5) in milliseconds; reading
# snapshot.json alone is the floor every tool stands on. `make bench`
# runs it.
#
# Environment: top_builddir (default .), top_srcdir (default: this file's
# parent), TOOLS_N (default 10000), TOOLS_RUNS, TOOLS_LIMIT (seconds a
# step may take, default 60; a step stopped there is reported as such). It
# runs on a private machine segment and run directory, and unmounts, stops
# and removes everything it started on any exit.
set -u

B=${top_builddir:-.}
S=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
N=${TOOLS_N:-10000}
RUNS=${TOOLS_RUNS:-5}
LIMIT=${TOOLS_LIMIT:-60}
CUFS=$B/cufs/cufs
ALLOC=$B/bench/alloc-many

for p in "$CUFS" "$ALLOC"; do
	if [ ! -x "$p" ]; then
		echo "tools: $p is not built; run make first" >&2
		exit 1
	fi
done
if ! command -v jq >/dev/null; then
	echo "tools: no jq here (apt-get install jq); skipped" >&2
	exit 0
fi
if ! command -v fusermount3 >/dev/null || [ ! -c /dev/fuse ]; then
	echo "tools: no FUSE here (fusermount3, /dev/fuse); skipped" >&2
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/toolsbench.XXXXXX") || exit 1
# Under make bench, a name tests/private-machine.sh removes if this
# script cannot (SIGKILL); by hand, beside the user's machine, never it.
CUEMU_MACHINE=${CUEMU_MACHINE:-cuemu}-toolsbench-$$
CUEMU_RUNDIR=$work/run
export CUEMU_MACHINE CUEMU_RUNDIR
CU=$work/cu
mkdir -p "$CUEMU_RUNDIR" "$CU"
cufs_pid= alloc_pid=

stop_alloc() {
	if [ -n "$alloc_pid" ]; then
		kill "$alloc_pid" 2>/dev/null
		wait "$alloc_pid" 2>/dev/null
		alloc_pid=
	fi
}

cleanup() {
	stop_alloc
	fusermount3 -u -z "$CU" 2>/dev/null
	if [ -n "$cufs_pid" ]; then
		kill "$cufs_pid" 2>/dev/null
		wait "$cufs_pid" 2>/dev/null
	fi
	rm -f "/dev/shm/$CUEMU_MACHINE"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

. "$(dirname "$0")/lib.sh"

# median_ms COMMAND...: the median wall time of $RUNS runs, or "stopped"
# when one ran past $LIMIT seconds, or "failed".
median_ms() {
	: >"$work/times"
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		t0=$(now_ms)
		timeout "$LIMIT" "$@" >/dev/null 2>"$work/err"
		rc=$?
		t1=$(now_ms)
		if [ "$rc" = 124 ]; then
			echo "stopped at ${LIMIT}s"
			return
		elif [ "$rc" != 0 ]; then
			echo "failed: $(head -n 1 "$work/err" | cut -c 1-40)"
			return
		fi
		echo $((t1 - t0)) >>"$work/times"
		i=$((i + 1))
	done
	sort -n "$work/times" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

# The allocations: half device memory, half managed (which is what the
# map and residency show).
start_allocs() {
	n=$1
	stop_alloc
	"$ALLOC" $((n - n / 2)) $((n / 2)) >"$work/alloc.out" 2>&1 &
	alloc_pid=$!
	wait_for "$LIMIT" grep -q ready "$work/alloc.out" || {
		echo "tools: alloc-many $n did not get ready" >&2
		exit 1
	}
	wait_for 10 sh -c "[ \$(jq '[.processes[].allocations[]] | length' '$CU/snapshot.json') -ge $n ]" || {
		echo "tools: /cu does not show $n allocations" >&2
		exit 1
	}
}

"$CUFS" -f "$CU" >"$work/cufs.log" 2>&1 &
cufs_pid=$!
wait_for 10 test -d "$CU/devices" || {
	echo "tools: cufs did not mount" >&2
	cat "$work/cufs.log" >&2
	exit 1
}

# A log of N event lines of the kinds cufs-events prints, for its row.
awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++)
	printf("4242 %.3f migrate alloc=%d cpu->gpu%d bytes=2097152 (fault)\n",
		1795392227 + i / 1000, i % 50, i % 4) }' >"$work/events.log"

ROWS="snapshot.json|cat $CU/snapshot.json
cufs-watch -1|$S/scripts/cufs-watch -m $CU -1
cufs-watch --map -1|$S/scripts/cufs-watch -m $CU -1 --map -w 120 -H 60
cufs-tune -n|$S/scripts/cufs-tune -m $CU -n
cufs-prometheus|$S/scripts/cufs-prometheus -m $CU -o $work/cufs.prom"

for n in 10 "$N"; do
	start_allocs "$n"
	echo "$ROWS" | while IFS='|' read -r name cmd; do
		# shellcheck disable=SC2086 # the command's words
		echo "$name|$(median_ms $cmd)"
	done >"$work/rows.$n"
done
stop_alloc
events_ms=$(median_ms "$S/scripts/cufs-events" -f "$work/events.log")

echo
echo "Operators' tools: one frame over /cu, median of $RUNS runs, ms"
printf '%-34s %14s %14s\n' "" "10 allocs" "$N allocs"
paste -d '|' "$work/rows.10" "$work/rows.$N" |
	while IFS='|' read -r name a _ b; do
		printf '%-34s %14s %14s\n' "$name" "$a" "$b"
	done
printf '%-34s %14s %14s\n' "cufs-events -f ($N event lines)" "" "$events_ms"
