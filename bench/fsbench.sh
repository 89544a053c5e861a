#!/bin/sh
# fsbench.sh - what reading /cu costs, beside a minimal libfuse filesystem
# (bench/minfs) read in the same run on the same machine, through the same
# kernel FUSE path. `make bench` runs it after the latency table.
#
# Rows: open+read+close of `devices/gpu0/total_memory`, of an allocation's
# `size` and of a managed allocation's `residency` with 10 and with 100,000
# live allocations; `ls -l allocations/` and `snapshot.json` at 100,000;
# to tell where the time of `ls -l` goes, readdir alone (`ls -f`) and one
# lstat of an entry at 100,000; and the same reads while the process is
# stopped (SIGSTOP), which cufs serves from the state it published.
# The allocations are made by as many alloc-many processes as it takes
# (PER_PROC each), all stopped together.
# A step that takes longer than $FSBENCH_LIMIT seconds (default 60) is
# stopped and reported as such: that is a finding, not a failure to hide.
#
# A small file's row is four FUSE requests for minfs (OPEN, READ, the READ
# that finds the end, RELEASE; libfuse's debug output, -d, counts them),
# which reads directly; cufs mounted without allow_other reads a value
# that did not change from the kernel's page cache, with OPEN and RELEASE
# alone (DESIGN.md, "What a read costs"). The process's own CPU per read
# is noisy on a loaded machine; the rows are medians of reads taken in
# turn with minfs's (fsread).
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
# Under make bench, a name tests/private-machine.sh removes if this
# script cannot (SIGKILL); by hand, beside the user's machine, never it.
CUEMU_MACHINE=${CUEMU_MACHINE:-cuemu}-fsbench-$$
CUEMU_RUNDIR=$work/run
export CUEMU_MACHINE CUEMU_RUNDIR
CU=$work/cu
MIN=$work/min
mkdir -p "$CUEMU_RUNDIR" "$CU" "$MIN"
cufs_pid= minfs_pid= alloc_pids=
# The most allocations one alloc-many makes: each cuMemAlloc is a mapping
# of its own, and a process has at most vm.max_map_count (65530).
PER_PROC=50000

stop_alloc() {
	for p in $alloc_pids; do
		kill "$p" 2>/dev/null
		kill -CONT "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	alloc_pids=
}

# signal_alloc SIG: to every alloc-many running.
signal_alloc() {
	for p in $alloc_pids; do
		kill "-$1" "$p"
	done
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
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-proc-*
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

. "$(dirname "$0")/lib.sh"

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# ---------------------------------------------------------------- results
rows=$work/rows
notes=$work/notes
: >"$rows"
: >"$notes"
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
		printf "%-48s %14s %16s %8s\n", "row", "cufs", "minfs baseline", "ratio"
	}
	{
		r = "-"
		if (num($2) && num($3) && val($3) > 0)
			r = sprintf("%.1fx", val($2) / val($3))
		printf "%-48s %14s %16s %8s\n", $1, $2, $3, r
	}' "$rows"
}

# ---------------------------------------------------------------- measures
# read_us [-s] PATH...: the median of open+read+close of each PATH (-s: of
# lstat), a line each, with as many rounds as fit in about 3 s (5 to
# 2000), as "N us"; or "FAILED: why", or "TIMEOUT >Ns" (on every line).
# The paths are read in turn, round by round (fsread), so that a cufs file
# and the minfs file it is compared with see the same load.
read_us() {
	mode=
	if [ "$1" = -s ]; then mode=-s; shift; fi
	probe=$(timeout "$LIMIT" "$FSREAD" $mode -k 5 "$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		k=$(echo "$probe" | awk '{ s += $1 } END { s = s > 1 ? s : 1;
			k = int(3e6 / s); print k < 5 ? 5 : (k > 2000 ? 2000 : k) }')
		probe=$(timeout "$LIMIT" "$FSREAD" $mode -k "$k" "$@" 2>&1)
		rc=$?
	fi
	for p in "$@"; do
		if [ $rc -eq 124 ]; then echo "TIMEOUT >${LIMIT}s"
		elif [ $rc -ne 0 ]; then echo "FAILED: ${probe##*: }"
		fi
	done
	[ $rc -eq 0 ] || return
	echo "$probe" | awk '{ if ($1 >= 10000) printf "%.1f ms\n", $1 / 1000
		else print $1 " us" }'
}

# pair_row NAME [-s] CUFS_PATH MINFS_PATH: a row of the two, read in turn.
pair_row() {
	name=$1; shift
	both=$(read_us "$@")
	row "$name" "$(echo "$both" | sed -n 1p)" "$(echo "$both" | sed -n 2p)"
}

# ls_ms OPTS DIR REPS OUTFILE: the median wall time of `ls OPTS DIR` as
# "N ms", stopping early when the reps so far took more than LIMIT seconds
# together; or "FAILED: why", or "TIMEOUT >Ns".
ls_ms() {
	times=
	spent=0
	i=0
	while [ "$i" -lt "$3" ] && [ "$spent" -lt $((LIMIT * 1000)) ]; do
		t0=$(now_ms)
		if ! timeout "$LIMIT" ls $1 "$2" >"$4" 2>"$4.err"; then
			if [ "$(($(now_ms) - t0))" -ge $((LIMIT * 1000)) ]; then
				echo "TIMEOUT >${LIMIT}s"
			else
				echo "FAILED: $(head -c 60 "$4.err")"
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

# start_alloc COUNT: COUNT live allocations, ready: alloc-many processes
# of PER_PROC each, the last one started with the rest and the managed
# allocation (so that the largest id is its). cufs shows them all.
start_alloc() {
	stop_alloc
	t0=$(now_ms)
	left=$1
	k=0
	while [ "$left" -gt 0 ]; do
		n=$left m=1
		if [ "$n" -gt "$PER_PROC" ]; then n=$PER_PROC m=0; fi
		"$ALLOC" "$n" "$m" >"$work/alloc$k.out" 2>"$work/alloc$k.err" &
		alloc_pids="$alloc_pids $!"
		if ! wait_for "$LIMIT" grep -q ready "$work/alloc$k.out"; then
			echo "fsbench: alloc-many $n not ready in ${LIMIT}s:" \
			     "$(cat "$work/alloc$k.err")" >&2
			exit 1
		fi
		# cufs rescans /dev/shm at most every 100 ms; processes/
		# rescans now, so that the rows below see this process.
		if ! wait_for 10 test -d "$CU/processes/$!"; then
			echo "fsbench: cufs does not show process $!" >&2
			exit 1
		fi
		left=$((left - n))
		k=$((k + 1))
	done
	# Each process publishes its allocations in its own time: the rows
	# read ids from a listing, so wait until it holds every one.
	if ! wait_for "$LIMIT" listed_at_least "$1"; then
		echo "fsbench: cufs lists fewer than $1 allocations after" \
		     "${LIMIT}s" >&2
		exit 1
	fi
	echo "alloc-many $1 ($k processes): ready in $(($(now_ms) - t0)) ms" \
	     >>"$notes"
}

# listed_at_least N: allocations/ lists N allocations or more.
listed_at_least() {
	[ "$(ls -f "$CU/allocations" | grep -cE '^[0-9]+$')" -ge "$1" ]
}

# first_id LISTING: the id of the allocation labelled fsbench-first, from
# a listing of allocations/ (the smallest ids are the first ones made).
first_id() {
	for id in $(grep -E '^[0-9]+$' "$1" | sort -n | head -3); do
		if [ "$(cat "$CU/allocations/$id/label" 2>/dev/null)" = fsbench-first ]
		then
			echo "$id"
			return
		fi
	done
}

# managed_id LISTING: the managed allocation alloc-many made last.
managed_id() {
	grep -E '^[0-9]+$' "$1" | sort -n | tail -1
}

# small_reads WHEN: the rows of one attribute file each.
small_reads() {
	pair_row "open+read+close devices/gpu0/total_memory $1" \
	    "$CU/devices/gpu0/total_memory" "$MIN/files/1"
	pair_row "open+read+close allocations/<id>/size $1" \
	    "$CU/allocations/$id/size" "$MIN/files/1"
	pair_row "open+read+close allocations/<id>/residency $1" \
	    "$CU/allocations/$mid/residency" "$MIN/files/1"
}

# ---------------------------------------------------------------- 10 live
start_alloc 10
ls -f "$CU/allocations" >"$work/ls10" 2>&1
id=$(first_id "$work/ls10")
mid=$(managed_id "$work/ls10")
if [ -z "$id" ]; then
	echo "fsbench: no allocation labelled fsbench-first in $CU/allocations" >&2
	head "$work/ls10" >&2
	exit 1
fi
small_reads "@10"
signal_alloc STOP
small_reads "@10 stopped"
signal_alloc CONT

# ---------------------------------------------------------------- N live
start_alloc "$N"
# readdir alone (ls -f: no stat of the entries), which also finds the id
row "ls -f allocations/ (readdir only) @$N" \
    "$(ls_ms -f "$CU/allocations" 3 "$work/lsN")" \
    "$(ls_ms -f "$MIN/files" 3 "$work/lsminf")"
entries=$(grep -cE '^[0-9]+$' "$work/lsN")
echo "ls -f listed ${entries:-0} allocations" >>"$notes"
id=$(first_id "$work/lsN")
mid=$(managed_id "$work/lsN")

# big_reads WHEN: lstat, ls -l and snapshot.json at N.
big_reads() {
	# the minfs file sits in a directory of N entries too
	if [ -n "$id" ]; then
		pair_row "lstat allocations/<id> (ls -l, per entry) $1" \
		    -s "$CU/allocations/$id" "$MIN/files/1"
	else
		row "lstat allocations/<id> (ls -l, per entry) $1" \
		    "FAILED: id not listed" "$(read_us -s "$MIN/files/1")"
	fi
	lsr=$(ls_ms -l "$CU/allocations" 3 "$work/lsl")
	row "ls -l allocations/ $1" "$lsr" "$(ls_ms -l "$MIN/files" 3 "$work/lsmin")"
	# snapshot.json: its time, and minfs reading a file of the same size
	snap=$(timeout "$LIMIT" "$FSREAD" -k 3 "$CU/snapshot.json" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		set -- "$1" $snap
		row "cat snapshot.json $1 ($5 bytes)" \
		    "$(awk -v u="$2" 'BEGIN { printf "%.1f ms", u / 1000 }')" \
		    "$(read_us "$MIN/big/$5" | awk '$2 == "us" {
			printf "%.1f ms", $1 / 1000; next } { print }')"
	elif [ $rc -eq 124 ]; then
		row "cat snapshot.json $1" "TIMEOUT >${LIMIT}s" "-"
	else
		row "cat snapshot.json $1" "FAILED: ${snap##*: }" "-"
	fi
}

small_reads "@$N"
big_reads "@$N"
signal_alloc STOP
small_reads "@$N stopped"
big_reads "@$N stopped"
signal_alloc CONT
stop_alloc

print_table
echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$notes"
sed 's/^/  /' "$notes"
