#!/usr/bin/env bats
# examples.bats - every program of examples/ runs and prints what it is
# meant to show: an example a reader copies must be right. Each runs on the
# test's private machine (tests/private-machine.sh), without a mount.

load helpers

setup() {
	cufs_env
	EX=$top_builddir/examples
}

teardown() {
	cleanup_all
}

@test "every example program is run by this file" {
	local f n missing=
	for f in "$top_srcdir"/examples/*.c; do
		n=$(basename "$f" .c)
		grep -q "^@test \"examples/$n[: ]" "$BATS_TEST_FILENAME" ||
			missing="$missing $n"
	done
	[ -z "$missing" ] || fail "no test runs:$missing"
}

@test "examples/kinds: each kind's memory type, managed flag and range" {
	run timeout 30 "$EX/kinds"
	assert_success
	assert_line --regexp '^device +0x[0-9a-f]+  type=device managed=0 device=0 +id=[1-9][0-9]* +range=0x[0-9a-f]+\+1048576$'
	assert_line --regexp '^pinned +0x[0-9a-f]+  type=host   managed=0 device=0 +id=[1-9][0-9]* +range=0x[0-9a-f]+\+65536$'
	assert_line --regexp '^registered +0x[0-9a-f]+  type=host   managed=0 device=0 +id=[1-9][0-9]* +range=0x[0-9a-f]+\+65536$'
	assert_line --regexp '^managed +0x[0-9a-f]+  type=device managed=1 device=0 +id=[1-9][0-9]* +range=0x[0-9a-f]+\+2097152$'
	refute_output --partial "type=none"
}

@test "examples/mem_device: the allocation costs the device what it took" {
	run timeout 30 "$EX/mem_device"
	assert_success
	assert_output --regexp '^gpu0: [0-9]+ MiB of [0-9]+ MiB free; a 64 MiB allocation took 64 MiB; round trip ok$'
}

@test "examples/mem_pinned: the flags read back, and the copy's model time" {
	run timeout 30 "$EX/mem_pinned"
	assert_success
	assert_line "cuMemHostAlloc flags 0 -> cuMemHostGetFlags 0x2"
	assert_line "cuMemHostAlloc flags 0x1 -> cuMemHostGetFlags 0x3"
	assert_line "cuMemHostAlloc flags 0x4 -> cuMemHostGetFlags 0x6"
	assert_line --regexp '^256 MiB pinned -> gpu0: [0-9]+\.[0-9]{3} ms of model time$'
}

@test "examples/mem_registered: the errors of a second and a partial unregister" {
	run timeout 30 "$EX/mem_registered"
	assert_success
	assert_line "register again: CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"
	assert_line "unregister from the middle: CUDA_ERROR_INVALID_VALUE"
	assert_line "unregister again: CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"
}

@test "examples/mem_managed: one pointer for host and device" {
	run timeout 30 "$EX/mem_managed"
	assert_success
	assert_output "managed round trip through gpu0: v[12345] = 12345"
}

@test "examples/demo: a few steps, then done" {
	run timeout 60 "$EX/demo" --steps 2
	assert_success
	assert_line --regexp '^demo: pid [0-9]+, 4 GPUs; allocations labelled '
	assert_line "demo: done"
}

@test "examples/workload: its ids, then exit on command" {
	run timeout 30 "$EX/workload" --ids "$WORK/w.ids" <<<exit
	assert_success
	run cat "$WORK/w.ids"
	assert_line --regexp '^pid=[0-9]+$'
	assert_line --regexp '^managed=[1-9][0-9]*$'
	assert_line --regexp '^handle=[1-9][0-9]*$'
}
