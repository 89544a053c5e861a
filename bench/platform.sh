#!/bin/sh
# platform.sh - the rows of a machine people buy, at its size: a shipped
# topology (default gb200-nvl72, 72 GPUs and 108 NUMA nodes) made on a
# machine of its own, then
#   - a process's start to its first allocation, a cuMemAdvise over a
#     range and a prefetch (cuemu-bench's rows, on that machine), and
#   - `ls /cu/devices` and a read of /cu/snapshot.json through cufs
#     --topology NAME, median of 21 runs, in ms.
# Usage: top_builddir=... [TOPOLOGY=name] sh bench/platform.sh
# Reads as a table beside the default machine's rows; asserts nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
b=${top_builddir:-.}
topo=${TOPOLOGY:-gb200-nvl72}
export CUEMU_TOPOLOGY_DIR=${CUEMU_TOPOLOGY_DIR:-$here/../topologies}
export CUEMU_MACHINE=${CUEMU_MACHINE:-cuemu}-platform-$$
work=$(mktemp -d)
mnt=$work/cu
mkdir "$mnt"
cleanup() {
	fusermount3 -u "$mnt" 2>/dev/null || fusermount3 -u -z "$mnt" 2>/dev/null
	[ -n "${cpid:-}" ] && kill "$cpid" 2>/dev/null
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-*
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "== $topo: API rows (cuemu-bench on that machine)"
CUEMU_TOPOLOGY=$topo CUEMU_CONTROL=0 "$b/bench/cuemu-bench" \
	--filter "@1 range" 2>&1
CUEMU_TOPOLOGY=$topo CUEMU_CONTROL=0 "$b/bench/cuemu-bench" \
	--filter "start to first" 2>&1

# median_ms COMMAND...: the median wall time of 21 runs, in ms.
median_ms() {
	for i in $(seq 21); do
		s=$(date +%s%N)
		"$@" >/dev/null 2>&1
		echo $((($(date +%s%N) - s) / 1000))
	done | sort -n | sed -n 11p | awk '{ printf "%.2f", $1 / 1000 }'
}

"$b/cufs/cufs" -f --topology "$topo" "$mnt" >"$work/cufs.log" 2>&1 &
cpid=$!
wait_for 10 test -d "$mnt/devices" || { cat "$work/cufs.log"; exit 1; }
n=$(ls "$mnt/devices" | grep -c '^gpu')
echo "== $topo: /cu ($n GPUs)"
printf '%-52s | %s ms\n' "ls /cu/devices" "$(median_ms ls "$mnt/devices")"
printf '%-52s | %s ms\n' "cat /cu/snapshot.json" \
	"$(median_ms cat "$mnt/snapshot.json")"
