#!/usr/bin/env bats
# share.bats - sharing device memory as /cu shows it: a legacy IPC handle
# opened in a second process appears as an allocation of kind "ipc" in it
# and as an exported allocation in the first, and is gone from both once
# the importer has closed it and the exporter freed it; a multicast object
# with its devices and bindings.

load helpers

setup_file() {
	cufs_env
	start_cufs
}

setup() {
	mounted || start_cufs
	start_workload A
}

teardown() {
	stop_workloads
	rm -f "$WORK"/*.fifo "$WORK"/*.out "$WORK"/*.ids "$WORK"/*.handle
}

teardown_file() {
	cleanup_all
}

# The ids of process PID's allocations of kind KIND, one a line.
ids_of_kind() {
	local d
	for d in "$MNT/processes/$1/allocations"/*; do
		[ "$(cat "$d/kind" 2>/dev/null)" = "$2" ] && basename "$d"
	done
	return 0
}

@test "ipc: an opened handle is seen from both processes, then gone" {
	start_workload B
	run cat "$MNT/allocations/$A_device/ipc_exported"
	assert_output 0
	wl_cmd A "ipc_export $WORK/a.handle"
	run cat "$MNT/allocations/$A_device/ipc_exported"
	assert_output 1
	wl_cmd B "ipc_open $WORK/a.handle"
	wl_cmd B "ipc_open $WORK/a.handle"
	wait_for test -n "$(ids_of_kind "$B_pid" ipc)"
	id=$(ids_of_kind "$B_pid" ipc)
	[ -n "$id" ]
	run cat "$MNT/allocations/$id/exporter" "$MNT/allocations/$id/exporter_id" \
		"$MNT/allocations/$id/size" "$MNT/allocations/$id/opens" \
		"$MNT/allocations/$id/pid"
	assert_output "$(printf '%s\n%s\n4194304\n2\n%s' "$A_pid" "$A_device" "$B_pid")"
	run ls "$MNT/processes/$A_pid/allocations"
	assert_line "$A_device"
	wl_cmd B ipc_close
	run cat "$MNT/allocations/$id/opens"
	assert_output 1
	wl_cmd B ipc_close
	wait_for bash -c "! test -e '$MNT/allocations/$id'"
	run ls "$MNT/processes/$B_pid/allocations"
	refute_line "$id"
	wl_cmd A free_device
	wait_for bash -c "! test -e '$MNT/allocations/$A_device'"
	run ls "$MNT/processes/$A_pid/allocations"
	refute_line "$A_device"
	stop_workload B
}
