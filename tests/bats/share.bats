#!/usr/bin/env bats
# share.bats - sharing device memory as /cu shows it: a legacy IPC handle
# opened in a second process appears as an allocation of kind "ipc" in it
# and as an exported allocation in the first, and is gone from both once
# the importer has closed it and the exporter freed it; a multicast object
# with its devices and bindings.

load helpers

workload_lifecycle

teardown() {
	workload_teardown "$WORK"/*.handle
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

@test "multicast: an object with its size, devices and bindings, then gone" {
	wl_cmd A "multicast $WORK/mc.id"
	id=$(cat "$WORK/mc.id")
	[ -n "$id" ]
	wait_for test -d "$MNT/multicast/$id"
	run ls "$MNT/processes/$A_pid/multicast"
	assert_output "$id"
	run cat "$MNT/multicast/$id/size" "$MNT/multicast/$id/team" \
		"$MNT/multicast/$id/devices" "$MNT/multicast/$id/binding_count"
	assert_output "$(printf '4194304\n2\ngpu0 gpu1\n2')"
	run cat "$MNT/multicast/$id/bindings"
	assert_line --regexp '^gpu0@0x0 size=2097152 handle=[0-9]+ handle_offset=0x0$'
	assert_line --regexp '^gpu1@0x0 size=2097152 handle=[0-9]+ handle_offset=0x0$'
	run ls "$MNT/handles"
	refute_line "$id"
	run write_errno "$MNT/multicast/$id/size" 8M
	refute_output ok
	wl_cmd A multicast_unbind
	run cat "$MNT/multicast/$id/binding_count"
	assert_output 1
	run cat "$MNT/multicast/$id/bindings"
	refute_line --partial gpu1@
	wl_cmd A multicast_release
	wait_for bash -c "! test -e '$MNT/multicast/$id'"
	run ls "$MNT/processes/$A_pid/multicast"
	assert_output ""
}
