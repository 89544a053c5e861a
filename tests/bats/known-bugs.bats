#!/usr/bin/env bats
# known-bugs.bats - promises of cufs(8) and cufs(5) that the code does not
# keep yet. Each test is written as the page reads and fails today; it is
# not in TESTS. When the runtime or cufs is fixed, move the test to the file
# of its subject (daemon.bats, cufs.bats, errno.bats) and add it to TESTS.
#
#   bats tests/bats/known-bugs.bats

load helpers

setup() {
	cufs_env
}

teardown() {
	cleanup_all
}

# cufs(5), POOLS, access: "EOPNOTSUPP for taking access away from the pool's
# own device". The write fails with ENODEV (CUDA_ERROR_INVALID_DEVICE).
@test "known bug: taking access away from a pool's own device is EOPNOTSUPP" {
	start_cufs
	start_workload A
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
	run write_errno "$P/access" "gpu0 none"
	assert_output EOPNOTSUPP
}

# cufs(8), ROBUSTNESS: "A process that does not answer within 2 seconds
# makes a read of its objects fail with EIO". For an object cufs has not
# listed yet, the read fails with ENOENT after the 2 s.
@test "known bug: a stopped process's object not yet listed reads EIO, not ENOENT" {
	start_cufs
	start_workload A
	kill -STOP "$A_pid"
	run timeout 5 cat "$MNT/allocations/$A_managed/kind"
	kill -CONT "$A_pid"
	assert_output --partial "Input/output error"
}
