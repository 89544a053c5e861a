#!/usr/bin/env bats
# training.bats - a user's test of where the training loop's memory lives
# (examples/workloads/training-loop.json), written with the cufs Bats
# library (cufs-bats(7)). Run it with: bats training.bats

: "${CUFS_BATS_DIR:=$(pkg-config --variable=batsdir cuemu)}"
load "$CUFS_BATS_DIR/cufs.bash"

WORKLOAD=${CUFS_EXAMPLES:-$BATS_TEST_DIRNAME/..}/workloads/training-loop.json

setup() {
	cufs_setup
	# Held after its allocations, so the test can set policy first.
	cufs_start_workload train "$WORKLOAD" --hold --linger
	WEIGHTS=$(cufs_wait_label weights)
	GRADS=$(cufs_wait_label grads)
}

teardown() {
	cufs_teardown
}

@test "the weights start on the host, unadvised" {
	assert_resident "$WEIGHTS" cpu 64M
	assert_preferred "$WEIGHTS" none
}

@test "weights kept on the host and mapped by both GPUs never migrate to them" {
	echo cpu >"$CUFS_MNT/allocations/$WEIGHTS/preferred_location"
	echo "gpu0 gpu1" >"$CUFS_MNT/allocations/$WEIGHTS/accessed_by"
	cufs_release train
	cufs_wait_done train
	assert_preferred "$WEIGHTS" cpu
	assert_resident "$WEIGHTS" gpu0 0
	assert_resident "$WEIGHTS" gpu1 0
	assert_counter "$WEIGHTS" remote_accesses -gt 0
	# The gradients, unadvised, were faulted in by both GPUs.
	assert_counter "$GRADS" gpu_faults -gt 0
}
