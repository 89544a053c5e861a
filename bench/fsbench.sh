#!/bin/sh
# fsbench.sh - what reading /cu costs, beside a minimal libfuse filesystem
# (bench/minfs) read in the same run on the same machine, through the same
# kernel FUSE path. `make bench` runs it after the latency table.
#
# Rows: open+read+close of an allocation's `size` with 10 and with 100,000
# live allocations; `ls -l allocations/` and `snapshot.json` at 100,000.
# A step that takes longer than $FSBENCH_LIMIT seconds (default 60) is
# stopped and reported as such: that is a finding, not a failure to hide.
#
# Environment: top_builddir (default .), FSBENCH_N (default 100000),
# FSBENCH_LIMIT. It runs on a private machine segment and run directory,
# and unmounts, stops and removes everything it started on any exit.
set -u

B=${top_builddir:-.}
N=${FSBENCH_N:-100000}
LIMIT=${FSBENCH_LIMIT:-60}
CUFS=$B/cufs/cufs
MINFS=$B/bench/minfs
FSREAD=$B/bench/fsread
ALLOC=$B/bench/alloc-many

for p in "$CUFS" "$MINFS" "$FSREAD" "$ALLOC"; do
	if [ ! -x "$p" ]; then
		echo "fsbench: $p is not built; run make first" >&2
		exit 1
	fi
done
if ! command -v fusermount3 >/dev/null || [ ! -c /dev/fuse ]; then
	echo "fsbench: no FUSE here (fusermount3, /dev/fuse); skipped" >&2
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fsbench.XXXXXX") || exit 1
CUEMU_MACHINE=cuemu-fsbench-$$
CUEMU_RUNDIR=$work/run
export CUEMU_MACHINE CUEMU_RUNDIR
CU=$work/cu
MIN=$work/min
mkdir -p "$CUEMU_RUNDIR" "$CU" "$MIN"
cufs_pid= minfs_pid= alloc_pid=

stop_alloc() {
	if [ -n "$alloc_pid" ]; then
		kill "$alloc_pid" 2>/dev/null
		wait "$alloc_pid" 2>/dev/null
		alloc_pid=
	fi
}

cleanup() {
	stop_alloc
	for m in "$CU" "$MIN"; do
		fusermount3 -u -z "$m" 2>/dev/null
	done
	for p in $cufs_pid $minfs_pid; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -f "/dev/shm/$CUEMU_MACHINE"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# wait_for SECONDS COMMAND...: polls until the command succeeds.
wait_for() {
	t=$1
	shift
	end=$(($(now_ms) + t * 1000))
	until "$@" 2>/dev/null; do
		[ "$(now_ms)" -lt "$end" ] || return 1
		sleep 0.05
	done
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# ---------------------------------------------------------------- results
rows=$work/rows
: >"$rows"
# row NAME CUFS MINFS: one table line; ratio when both are numbers.
row() {
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$rows"
}

print_table() {
	echo
	echo "cufs beside minfs (same run, same machine; medians)"
	awk -F '\t' '
	function num(s) { return s ~ /^[0-9.]+ (us|ms)/ }
	function val(s) { split(s, a, " "); return a[2] == "ms" ? a[1] * 1000 : a[1] }
	BEGIN {
		printf "%-46s %16s %16s %8s\n", "row", "cufs", "minfs baseline", "ratio"
	}
	{
		r = (num($2) && num($3) && val($3) > 0) ?
		    sprintf("%.1fx", val($2) / val($3)) : "-"
		printf "%-46s %16s %16s %8s\n", $1, $2, $3, r
	}' "$rows"
}

# ---------------------------------------------------------------- measures
# read_us PATH: "median_us" of open+read+close, with as many rounds as fit
# in about 3 s (5 to 2000); "FAILED: why" or "TIMEOUT" otherwise.
read_us() {
	probe=$(timeout "$LIMIT" "$FSREAD" -k 5 "$1" 2>&1)
	rc=$?
	if [ $rc -eq 124 ]; then echo "TIMEOUT >${LIMIT}s"; return; fi
	if [ $rc -ne 0 ]; then echo "FAILED: ${probe##*: }"; return; fi
	set -- "$1" $probe
	k=$(awk -v m="$2" 'BEGIN { k = int(3e6 / (m > 1 ? m : 1));
		print k < 5 ? 5 : (k > 2000 ? 2000 : k) }')
	out=$(timeout "$LIMIT" "$FSREAD" -k "$k" "$1" 2>&1)
	rc=$?
	if [ $rc -eq 124 ]; then echo "TIMEOUT >${LIMIT}s"; return; fi
	if [ $rc -ne 0 ]; then echo "FAILED: ${out##*: }"; return; fi
	set -- $out
	echo "$1 us"
}

# ls_ms DIR REPS OUTFILE: the median wall time of `ls -l DIR`, stopping
# early when the reps so far took more than LIMIT seconds together.
ls_ms() {
	times=
	spent=0
	i=0
	while [ "$i" -lt "$2" ] && [ "$spent" -lt $((LIMIT * 1000)) ]; do
		t0=$(now_ms)
		if ! timeout "$LIMIT" ls -l "$1" >"$3" 2>"$3.err"; then
			if [ "$(($(now_ms) - t0))" -ge $((LIMIT * 1000)) ]; then
				echo "TIMEOUT >${LIMIT}s"
			else
				echo "FAILED: $(head -c 60 "$3.err")"
			fi
			return
		fi
		dt=$(($(now_ms) - t0))
		times="$times $dt"
		spent=$((spent + dt))
		i=$((i + 1))
	done
	echo "$(printf '%s\n' $times | median) ms"
}

# ---------------------------------------------------------------- mounts
"$MINFS" -n "$N" -f "$MIN" >"$work/minfs.log" 2>&1 &
minfs_pid=$!
"$CUFS" -f "$CU" >"$work/cufs.log" 2>&1 &
cufs_pid=$!
if ! wait_for 10 test -d "$MIN/files" || ! wait_for 10 test -d "$CU/allocations"
then
	echo "fsbench: a mount did not come up" >&2
	cat "$work/minfs.log" "$work/cufs.log" >&2
	exit 1
fi

# start_alloc COUNT: alloc-many with COUNT live allocations, ready.
start_alloc() {
	stop_alloc
	t0=$(now_ms)
	"$ALLOC" "$1" >"$work/alloc.out" 2>"$work/alloc.err" &
	alloc_pid=$!
	if ! wait_for "$LIMIT" grep -q ready "$work/alloc.out"; then
		echo "fsbench: alloc-many $1 not ready in ${LIMIT}s:" \
		     "$(cat "$work/alloc.err")" >&2
		exit 1
	fi
	echo "alloc-many $1: ready in $(($(now_ms) - t0)) ms" >&2
}

# first_id LISTING: the id of the allocation labelled fsbench-first, from
# an `ls -l allocations/` listing (the smallest id is the first one made).
first_id() {
	for id in $(awk '$NF ~ /^[0-9]+$/ { print $NF }' "$1" | sort -n | head -3)
	do
		if [ "$(cat "$CU/allocations/$id/label" 2>/dev/null)" = fsbench-first ]
		then
			echo "$id"
			return
		fi
	done
}

base_small=$(read_us "$MIN/files/1")

start_alloc 10
ls -l "$CU/allocations" >"$work/ls10" 2>&1
id=$(first_id "$work/ls10")
if [ -z "$id" ]; then
	echo "fsbench: no allocation labelled fsbench-first in $CU/allocations" >&2
	head "$work/ls10" >&2
	exit 1
fi
row "open+read+close allocations/<id>/size @10" \
    "$(read_us "$CU/allocations/$id/size")" "$base_small"

start_alloc "$N"
lsr=$(ls_ms "$CU/allocations" 3 "$work/lsN")
id=$(first_id "$work/lsN")
if [ -n "$id" ]; then
	cur=$(read_us "$CU/allocations/$id/size")
else
	cur="FAILED: id not listed"
fi
# the minfs file sits in a directory of N entries too
row "open+read+close allocations/<id>/size @$N" "$cur" \
    "$(read_us "$MIN/files/1")"
row "ls -l allocations/ @$N" "$lsr" "$(ls_ms "$MIN/files" 3 "$work/lsmin")"
entries=$(grep -c . "$work/lsN" 2>/dev/null || echo 0)

# snapshot.json: its time, and minfs reading a file of the same size
snap=$(timeout "$LIMIT" "$FSREAD" -k 3 "$CU/snapshot.json" 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	set -- $snap
	bytes=$4
	row "cat snapshot.json @$N ($bytes bytes)" "$(awk -v u="$1" \
	    'BEGIN { printf "%.1f ms", u / 1000 }')" "$(read_us "$MIN/big/$bytes" |
	    awk '$2 == "us" { printf "%.1f ms", $1 / 1000; next } { print }')"
elif [ $rc -eq 124 ]; then
	row "cat snapshot.json @$N" "TIMEOUT >${LIMIT}s" "-"
else
	row "cat snapshot.json @$N" "FAILED: ${snap##*: }" "-"
fi
stop_alloc

print_table
echo "(ls -l listed $((entries - 1)) allocations; $(nproc) CPUs;" \
     "load $(cut -d' ' -f1-3 /proc/loadavg))"
