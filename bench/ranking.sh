#!/bin/sh
# ranking.sh - the shipped platforms side by side: each example workload's
# model time (cuemu-run) on each shipped topology that has the GPUs it
# asks for, in ms, and for the two link-bound ones (peer-ring,
# host-roundtrip) beside what their transfers cost over that topology's
# links as its file gives them (jq): the reference a platform's row is
# read against (DESIGN.md, "Timing by platform"); cpu-readback (the CPU
# reading a GPU's results: C2C in place, or CPU faults) and stream-once,
# bound by GPU faults, for contrast. (halo-stencil is left out: its two streams
# touch the halo unordered, so its time depends on how they interleave.)
# Each run on a machine of its own, removed after.
# Usage: top_builddir=... sh bench/ranking.sh
# Prints a table; asserts nothing (tests/bats/timing.bats does).
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=${top_builddir:-.}
examples=$here/../examples/workloads
export CUEMU_TOPOLOGY_DIR=${CUEMU_TOPOLOGY_DIR:-$here/../topologies}
machine=${CUEMU_MACHINE:-cuemu}-ranking-$$
trap 'rm -f "/dev/shm/$machine"*' EXIT INT TERM

# links_ns WORKLOAD TOPOLOGY: its transfers over the file's links, or "-".
links_ns() {
	f=$CUEMU_TOPOLOGY_DIR/$2.json
	w=$examples/$1.json
	case $1 in
	peer-ring)
		jq -n --slurpfile t "$f" --slurpfile w "$w" '
		  ($w[0].streams[0].steps[0].repeat | .count * (.steps | length)) as $n
		  | ($w[0].allocations[0].size | sub("M$"; "") | tonumber * 1048576) as $b
		  | $t[0].links.gpu_gpu | $n * (.latency_ns + $b / .gbps) | floor' ;;
	host-roundtrip)
		jq -n --slurpfile t "$f" --slurpfile w "$w" '
		  ($w[0].streams[0].steps[0].repeat.count) as $n
		  | ($w[0].allocations[0].size | sub("M$"; "") | tonumber * 1048576) as $b
		  | $t[0].links | $n * (.host_to_gpu.latency_ns + $b / .host_to_gpu.gbps
		      + .gpu_to_host.latency_ns + $b / .gpu_to_host.gbps) | floor' ;;
	*) echo - ;;
	esac
}

ms() {
	case $1 in
	-|'') echo - ;;
	*) awk -v n="$1" 'BEGIN { printf "%.2f", n / 1e6 }' ;;
	esac
}

printf '%-16s %-14s %12s %12s\n' workload topology "model ms" "links ms"
for w in peer-ring host-roundtrip cpu-readback stream-once; do
	for f in "$CUEMU_TOPOLOGY_DIR"/*.json; do
		t=$(basename "$f" .json)
		out=$(CUEMU_MACHINE=$machine CUEMU_TOPOLOGY=$t CUEMU_CONTROL=0 \
			"$b/tools/cuemu-run/cuemu-run" "$examples/$w.json" 2>&1)
		rm -f "/dev/shm/$machine"*
		case $out in
		*"model time"*) ;;
		*) continue ;; # too few GPUs for it
		esac
		ns=${out##*model time }
		ns=${ns%% ns*}
		printf '%-16s %-14s %12s %12s\n' "$w" "$t" "$(ms "$ns")" \
			"$(ms "$(links_ns "$w" "$t")")"
	done
done
