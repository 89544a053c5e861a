#!/usr/bin/env bats
# platforms.bats - the machines people buy, by name: cufs --topology NAME
# makes a shipped topology's machine (cuemu-topology(5)), /cu shows its
# GPUs, their links and its paradigm, and the demo workload runs on it.

load helpers

setup() {
	cufs_env
	export CUEMU_TOPOLOGY_DIR=$top_srcdir/topologies
	unset CUEMU_TOPOLOGY
}

teardown() {
	cleanup_all
}

# run_demo: the demo workload for a few steps on the mounted machine.
run_demo() {
	run timeout 120 "$top_builddir/examples/demo" --steps 3
	assert_success
}

@test "GB200 NVL72: 72 GPUs on one NVLink domain, C2C to the Grace CPUs, the demo runs" {
	start_cufs --topology gb200-nvl72
	run ls "$MNT/devices"
	assert_line gpu71
	assert_line cpu
	[ "${#lines[@]}" -eq 74 ] # 72 GPUs, cpu, memory_model
	run cat "$MNT/devices/cpu/numa_nodes"
	assert_output 108
	run cat "$MNT/devices/gpu0/links/gpu71"
	assert_line "kind nvlink"
	run cat "$MNT/devices/gpu70/links/cpu"
	assert_line "kind c2c"
	run cat "$MNT/devices/memory_model"
	assert_output hardware-coherent
	run_demo
}

@test "GH200: one Grace Hopper, hardware-coherent, the demo runs" {
	start_cufs --topology gh200
	run ls "$MNT/devices"
	assert_output "$(printf 'cpu\ngpu0\nmemory_model')"
	run cat "$MNT/devices/gpu0/links/cpu"
	assert_line "kind c2c"
	assert_line "gbps 450"
	run cat "$MNT/devices/memory_model"
	assert_output hardware-coherent
	run_demo
}

# system_alloc: the id in /cu of the workload A's system-allocated buffer.
system_alloc() {
	local base=$1 d
	for d in "$MNT"/allocations/*; do
		[ "$(cat "$d/kind" 2>/dev/null)" = system ] || continue
		[ $(( $(cat "$d/base") )) -eq $(( base & ~4095 )) ] || continue
		basename "$d"
		return 0
	done
	return 1
}

@test "GH200: a malloc'd buffer advised and prefetched shows in /cu and is steered there" {
	start_cufs --topology gh200
	start_workload A
	wl_cmd A "system gpu0"
	[ "$(wl_attr A system_rc)" = 0 ]
	base=$(wl_attr A system_base)
	id=$(system_alloc "$base")
	S=$MNT/allocations/$id
	size=$(cat "$S/size")
	[ "$size" -ge $((4 << 20)) ]
	run cat "$S/residency"
	assert_line "gpu0 $size"
	run cat "$S/preferred_location"
	assert_output gpu0
	echo cpu >"$S/prefetch"
	run cat "$S/residency"
	assert_line "cpu $size"
	echo none >"$S/preferred_location"
	run cat "$S/preferred_location"
	assert_output none
	stop_workload A
}

@test "the default machine: a malloc'd buffer is refused, as without HMM" {
	start_cufs
	start_workload A
	wl_cmd A "system gpu0"
	[ "$(wl_attr A system_rc)" = 1 ] # CUDA_ERROR_INVALID_VALUE
	base=$(wl_attr A system_base)
	run system_alloc "$base"
	assert_failure
	stop_workload A
}

@test "a PCIe box: peers over PCIe, software-coherent" {
	start_cufs --topology pcie-4x-h100
	run cat "$MNT/devices/gpu0/links/gpu3"
	assert_line "kind pcie"
	run cat "$MNT/devices/memory_model"
	assert_output software-coherent
}

@test "an x86 box with HMM: two GPUs on an NVLink bridge, a malloc'd buffer is the GPUs' too" {
	start_cufs --topology hmm-2x-h100
	run ls "$MNT/devices"
	assert_output "$(printf 'cpu\ngpu0\ngpu1\nmemory_model')"
	run cat "$MNT/devices/memory_model"
	assert_output hmm
	run cat "$MNT/devices/gpu0/links/gpu1"
	assert_line "kind nvlink"
	run cat "$MNT/devices/gpu0/links/cpu"
	assert_line "kind pcie"
	start_workload A
	wl_cmd A "system gpu0"
	[ "$(wl_attr A system_rc)" = 0 ]
	id=$(system_alloc "$(wl_attr A system_base)")
	run cat "$MNT/allocations/$id/preferred_location"
	assert_output gpu0
	stop_workload A
}

@test "a name that is no shipped topology: cufs says so" {
	run timeout 20 "$CUFS" -f --topology no-such-box "$MNT"
	assert_failure
	assert_output --partial "no shipped topology"
}
