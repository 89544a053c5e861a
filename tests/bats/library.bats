#!/usr/bin/env bats
# library.bats - the users' Bats library (share/bats/cufs.bash,
# cufs-bats(7)): a private machine and mount set up and removed, workloads
# started and held, allocations found by label, and each assertion passing
# when it holds and failing with a message that shows what is there.

load helpers

EXAMPLES=$top_srcdir/examples/workloads

setup() {
	cufs_setup
	cufs_start_workload W "$EXAMPLES/stream-once.json" --hold --linger
	ID=$(cufs_wait_label input)
}

teardown() {
	cufs_teardown
}

@test "cufs_setup: a machine and mount of the test's own; teardown removes them" {
	local work=$CUFS_WORK machine=$CUEMU_MACHINE
	cufs_mounted
	[ -e "/dev/shm/$machine" ]
	grep -q " $CUFS_MNT fuse" /proc/mounts
	cufs_teardown
	! grep -q " $work/cu " /proc/mounts || fail "still mounted"
	[ ! -e "/dev/shm/$machine" ] || fail "machine left"
	[ ! -e "$work" ] || fail "scratch left"
	run cufs_teardown # twice is harmless
	assert_success
}

@test "a held workload's allocations are found by label before it runs" {
	assert_equal "$ID" "$(cufs_id W input)"
	run cat "$CUFS_MNT/allocations/$ID/label"
	assert_output input
	assert_equal "$(cat "$CUFS_MNT/processes/$W_pid/pid")" "$W_pid"
	# Held: the GPU has not touched it yet.
	assert_counter "$ID" gpu_faults == 0
	run cufs_wait_label no-such-label 0.3
	assert_failure
	assert_output --partial "-- no allocation labelled 'no-such-label' in $CUFS_MNT --"
	assert_output --partial "labels: input"
}

@test "assert_resident: passes when it holds, else shows the residency" {
	assert_resident "$ID" cpu 256M
	assert_resident "$ID" gpu0 0
	run assert_resident "$ID" gpu0 256M
	assert_failure
	assert_line --index 0 "-- allocation $ID (input) is not resident as expected --"
	assert_line --index 1 "location  : gpu0"
	assert_line --index 2 "expected  : 268435456 bytes"
	assert_line --index 3 "actual    : 0 bytes"
	assert_line --index 4 "residency :"
	assert_line "  gpu0 0"
	assert_line "  cpu 268435456"
	[ "${lines[${#lines[@]} - 1]}" = -- ] || fail "no closing line"
	cufs_release W
	cufs_wait_done W
	assert_resident "$ID" gpu0 256M
	run assert_resident "$ID" gpu0 lots
	assert_failure
	assert_output --partial "assert_resident: 'lots' is not a size"
}

@test "assert_preferred: passes when it holds, else says what it is" {
	assert_preferred "$ID" none
	echo gpu1 >"$CUFS_MNT/allocations/$ID/preferred_location"
	assert_preferred "$ID" gpu1
	run assert_preferred "$ID" cpu
	assert_failure
	assert_output --partial "-- allocation $ID (input) prefers another location --"
	assert_output --partial "expected : cpu"
	assert_output --partial "actual   : gpu1"
	run assert_preferred 999999 cpu
	assert_failure
	assert_output --partial "-- no allocation 999999 --"
}

@test "assert_counter: each comparison, and a failure lists the counters" {
	cufs_release W
	cufs_wait_done W
	assert_counter "$ID" gpu_faults -gt 0
	assert_counter "$ID" gpu_faults '>' 0
	assert_counter "$ID" cpu_faults == 0
	assert_counter "$ID" bytes_htod '>=' 268435456
	assert_counter "$ID" evictions '<' 1
	run assert_counter "$ID" evictions -gt 0
	assert_failure
	assert_output --partial "-- allocation $ID (input): counter evictions is 0, not -gt 0 --"
	assert_output --partial "  gpu_faults "
	run assert_counter "$ID" no_such_counter == 0
	assert_failure
	assert_output --partial "has no counter 'no_such_counter'"
	run assert_counter "$ID" evictions '~' 0
	assert_failure
	assert_output --partial "'~' is no comparison"
}

@test "wait_until: waits for a command, else says what it last printed" {
	( sleep 0.3; : >"$CUFS_WORK/flag" ) &
	wait_until 5 test -e "$CUFS_WORK/flag"
	run wait_until 0.3 sh -c 'echo still waiting; false'
	assert_failure
	assert_output "-- wait_until: not true within 0.3 s --
command : sh -c echo still waiting; false
output  : still waiting
--"
	run wait_until soon true
	assert_failure
	assert_output --partial "'soon' is not a number of seconds"
}

@test "a workload that fails is reported with its output" {
	cat >"$CUFS_WORK/big.json" <<JSON
{ "cuemu_workload": 1,
  "allocations": [ { "label": "huge", "kind": "device", "size": "1T" } ],
  "streams": [ { "name": "s", "steps": [ { "synchronize": true } ] } ] }
JSON
	run cufs_start_workload B "$CUFS_WORK/big.json"
	assert_failure
	assert_output --partial "-- workload B ended or hung before its allocations were made --"
	assert_output --partial "big.json:2: allocation: CUDA_ERROR_OUT_OF_MEMORY"
	run cufs_wait_workload B 10
	assert_failure
	assert_output --partial "-- workload B exited 1 --"
}
