#!/usr/bin/env bats
# timing.bats - one workload on two shipped platforms ranks them as their
# links would (cuemu-topology(5), "TIMING BY PLATFORM"): where transfers
# dominate, a run's model time is its transfers over the platform's own
# links, with the figures read here from the topology files (jq), so
# GPU-to-GPU traffic ranks the NVSwitch box over the PCIe box by the ratio
# of their GPU links, host-to-device migration ranks GH200's C2C over
# both x86 boxes' PCIe by the ratio of their host links, and the CPU
# reading a GPU's results on GH200 costs their bytes over C2C.

load helpers

EXAMPLES=$top_srcdir/examples/workloads
TOPOLOGIES=$top_srcdir/topologies

setup() {
	cufs_env
	export CUEMU_TOPOLOGY_DIR=$TOPOLOGIES
	unset CUEMU_TOPOLOGY
}

teardown() {
	rm -f "/dev/shm/$CUEMU_MACHINE"-*
	cleanup_all
}

# model_ns WORKLOAD TOPOLOGY: the model time cuemu-run reports for
# examples/workloads/WORKLOAD.json (or the file WORKLOAD) on a fresh
# machine of shipped TOPOLOGY.
model_ns() {
	local m=$CUEMU_MACHINE-$2 out rc f=$1
	[ -f "$f" ] || f=$EXAMPLES/$1.json
	out=$(CUEMU_MACHINE=$m CUEMU_TOPOLOGY=$2 "$CUEMU_RUN_BIN" "$f" 2>&1)
	rc=$?
	rm -f "/dev/shm/$m" "/dev/shm/$m"-*
	[ $rc -eq 0 ] || fail "$1 on $2: $out"
	sed -n 's/^.*: model time \([0-9][0-9]*\) ns$/\1/p' <<<"$out"
}

# link_ns TOPOLOGY KEY BYTES: one transfer of BYTES over TOPOLOGY's link
# KEY as the file gives it: its latency plus the bytes at its GB/s.
link_ns() {
	jq -e --arg k "$2" --argjson b "$3" \
		'.links[$k] | .latency_ns + $b / .gbps | floor' \
		"$TOPOLOGIES/$1.json" || fail "$1.json: no link $2"
}

# copy_ns TOPOLOGY BYTES: a peer copy of BYTES on TOPOLOGY: its
# copies.gpu_to_gpu where it sets one, else its gpu_gpu link.
copy_ns() {
	jq -e --argjson b "$2" \
		'(.copies.gpu_to_gpu // .links.gpu_gpu) | .latency_ns + $b / .gbps | floor' \
		"$TOPOLOGIES/$1.json" || fail "$1.json: no GPU-to-GPU rate"
}

# first_ns TOPOLOGY: what a process's first prefetch from one GPU to
# another, each way, pays on TOPOLOGY (uvm.peer_prefetch_first_ns, or the
# default, cuemu-topology(5)).
first_ns() {
	jq -e '.uvm.peer_prefetch_first_ns // 370000' "$TOPOLOGIES/$1.json" ||
		fail "$1.json: not read"
}

# round_ns TOPOLOGY BYTES: BYTES host to device and back over TOPOLOGY's
# host links.
round_ns() {
	echo $(( $(link_ns "$1" host_to_gpu "$2") + $(link_ns "$1" gpu_to_host "$2") ))
}

# bytes SIZE: a workload's size ("64M") in bytes.
bytes() {
	case $1 in
	*K) echo $(( ${1%K} << 10 )) ;;
	*M) echo $(( ${1%M} << 20 )) ;;
	*G) echo $(( ${1%G} << 30 )) ;;
	*) echo "$1" ;;
	esac
}

# near GOT WANT PCT: GOT is within PCT percent of WANT.
near() {
	awk -v g="$1" -v w="$2" -v p="$3" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d * 100 <= w * p) }' ||
		fail "$1 is not within $3 % of $2"
}

# ratio A B: A / B to two decimals.
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

@test "peer copies and GPU-to-GPU prefetches: the NVSwitch box beats the PCIe box by their links' ratio" {
	local w=$EXAMPLES/peer-ring.json size n dgx pcie
	size=$(bytes "$(jq -r '.allocations[0].size' "$w")")
	# Every step of the ring moves one buffer from one GPU to another:
	# half of them peer copies, half prefetches, whose first round takes
	# each of its four directions the first time.
	n=$(jq '.streams[0].steps[0].repeat | .count * (.steps | length)' "$w")
	[ "$n" -ge 8 ]
	dgx=$(model_ns peer-ring dgx-h200)
	pcie=$(model_ns peer-ring pcie-4x-h100)
	want_dgx=$(( n / 2 * ($(copy_ns dgx-h200 "$size") + $(link_ns dgx-h200 gpu_gpu "$size")) + 4 * $(first_ns dgx-h200) ))
	want_pcie=$(( n / 2 * ($(copy_ns pcie-4x-h100 "$size") + $(link_ns pcie-4x-h100 gpu_gpu "$size")) + 4 * $(first_ns pcie-4x-h100) ))
	echo "dgx-h200 $dgx ns (links $want_dgx), pcie-4x-h100 $pcie ns (links $want_pcie)"
	[ "$dgx" -lt "$pcie" ]
	near "$dgx" "$want_dgx" 5
	near "$pcie" "$want_pcie" 5
	echo "ratio $(ratio "$pcie" "$dgx"), links $(ratio "$want_pcie" "$want_dgx")"
	near "$(ratio "$pcie" "$dgx")" "$(ratio "$want_pcie" "$want_dgx")" 10
}

@test "host-to-device migration: GH200's C2C beats both x86 boxes' PCIe by their links' ratio" {
	local w=$EXAMPLES/host-roundtrip.json size n gh dgx pcie
	size=$(bytes "$(jq -r '.allocations[0].size' "$w")")
	n=$(jq '.streams[0].steps[0].repeat.count' "$w")
	[ "$n" -ge 2 ]
	gh=$(model_ns host-roundtrip gh200)
	dgx=$(model_ns host-roundtrip dgx-h200)
	pcie=$(model_ns host-roundtrip pcie-4x-h100)
	want_gh200=$(( n * $(round_ns gh200 "$size") ))
	want_dgx=$(( n * $(round_ns dgx-h200 "$size") ))
	want_pcie=$(( n * $(round_ns pcie-4x-h100 "$size") ))
	echo "gh200 $gh ns (links $want_gh200), dgx-h200 $dgx ns (links $want_dgx), pcie-4x-h100 $pcie ns (links $want_pcie)"
	[ "$gh" -lt "$dgx" ]
	[ "$gh" -lt "$pcie" ]
	near "$gh" "$want_gh200" 5
	near "$dgx" "$want_dgx" 5
	near "$pcie" "$want_pcie" 5
	echo "ratio $(ratio "$dgx" "$gh"), links $(ratio "$want_dgx" "$want_gh200")"
	near "$(ratio "$dgx" "$gh")" "$(ratio "$want_dgx" "$want_gh200")" 10
}

@test "the CPU reads a GPU's results: on GH200 in place, their bytes over C2C, ahead of the DGX's faults" {
	local w=$EXAMPLES/cpu-readback.json size blk gh half dgx want
	size=$(bytes "$(jq -r '.allocations[0].size' "$w")")
	# The CPU opens 64 KiB blocks, each a read over the GPU's link.
	blk=$(link_ns gh200 gpu_to_host 65536)
	gh=$(model_ns cpu-readback gh200)
	want=$(( size / 65536 * blk ))
	jq '.streams[0].steps[1].cpu.length = "'$((size / 2))'"' "$w" \
		>"$WORK/half.json"
	half=$(model_ns "$WORK/half.json" gh200)
	dgx=$(model_ns cpu-readback dgx-h200)
	echo "gh200 $gh ns (reads $want), half the reads $half ns, dgx-h200 $dgx ns"
	[ "$gh" -gt "$want" ] # the kernel's own time comes first
	near "$gh" "$want" 5
	near "$(( gh - half ))" "$(( want / 2 ))" 5
	[ "$gh" -lt "$dgx" ]
}
