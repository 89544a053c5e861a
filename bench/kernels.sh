#!/bin/sh
# kernels.sh - what counting kernels for /cu costs a launch: the median
# wall time of a launch of a kernel of our own (bench/kernel-launch) with
# nothing published (CUEMU_CONTROL=0: no segment, no socket; the counting
# on the event bus still runs), published with cufs mounted, and mounted
# with a reader taking snapshot.json over and over (cufs-watch's frame).
# Two launches: read_all over 64 MiB already on the GPU (the launch and
# the engine's page lookups) and touch_all over 64 MiB on the CPU (a GPU
# fault a 4 KiB page, each one counted for its kernel and allocation).
# `make bench-kernels` runs it.
#
# Environment: top_builddir (default .), top_srcdir (default: this file's
# parent), KERNELS_RUNS (launches a row, default 9). It runs on a private
# machine segment and run directory, and unmounts, stops and removes
# everything it started on any exit.
set -u

B=${top_builddir:-.}
S=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
RUNS=${KERNELS_RUNS:-9}
CUFS=$B/cufs/cufs
LAUNCH=$B/bench/kernel-launch
export top_srcdir="$S"

for p in "$CUFS" "$LAUNCH"; do
	if [ ! -x "$p" ]; then
		echo "kernels: $p is not built; run make first" >&2
		exit 1
	fi
done
if ! command -v fusermount3 >/dev/null || [ ! -c /dev/fuse ]; then
	echo "kernels: no FUSE here (fusermount3, /dev/fuse); skipped" >&2
	exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/kernelsbench.XXXXXX") || exit 1
CUEMU_MACHINE=${CUEMU_MACHINE:-cuemu}-kernelsbench-$$
CUEMU_RUNDIR=$work/run
export CUEMU_MACHINE CUEMU_RUNDIR
CU=$work/cu
mkdir -p "$CUEMU_RUNDIR" "$CU"
cufs_pid= reader_pid=

cleanup() {
	[ -z "$reader_pid" ] || kill "$reader_pid" 2>/dev/null
	fusermount3 -u -z "$CU" 2>/dev/null
	if [ -n "$cufs_pid" ]; then
		kill "$cufs_pid" 2>/dev/null
		wait "$cufs_pid" 2>/dev/null
	fi
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-proc-*
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

. "$(dirname "$0")/lib.sh"

# row MODE: the three columns of one launch, in microseconds.
row() {
	off=$(CUEMU_CONTROL=0 "$LAUNCH" "$1" 64 "$RUNS") || off=failed
	"$CUFS" -f "$CU" >"$work/cufs.log" 2>&1 &
	cufs_pid=$!
	wait_for 10 test -d "$CU/devices" || {
		echo "kernels: cufs did not mount" >&2
		exit 1
	}
	on=$("$LAUNCH" "$1" 64 "$RUNS") || on=failed
	(while :; do cat "$CU/snapshot.json" >/dev/null 2>&1; done) &
	reader_pid=$!
	read=$("$LAUNCH" "$1" 64 "$RUNS") || read=failed
	kill "$reader_pid" 2>/dev/null
	wait "$reader_pid" 2>/dev/null
	reader_pid=
	# the reader's last cat may still hold a file: let it go lazily
	fusermount3 -u -z "$CU"
	kill "$cufs_pid" 2>/dev/null
	wait "$cufs_pid" 2>/dev/null
	cufs_pid=
	printf '%-44s %12s %12s %14s\n' "$2" "$off" "$on" "$read"
}

printf '\nA kernel launch, wall us (median of %s): unpublished, published with cufs mounted, and with a reader\n' "$RUNS"
printf '%-44s %12s %12s %14s\n' "launch" "unpublished" "mounted" "mounted+reader"
row resident "read_all, 64 MiB on the GPU (16,384 pages)"
row faulting "touch_all, 64 MiB on the CPU (16,384 faults)"
