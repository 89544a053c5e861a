#!/usr/bin/env bats
# devices.bats - which of the machine's GPUs a process sees, as /cu shows
# it: processes/<pid>/visible_devices maps each of the process's ordinals
# to the machine's GPU (its name under devices/, UUID and PCI bus id), and
# what the process allocates on an ordinal is used on that GPU.

load helpers

workload_lifecycle

# Each test starts the workloads it needs, under the CUDA_VISIBLE_DEVICES
# it tests.
setup() {
	mounted || start_cufs
}

@test "visible_devices: every GPU in the machine's order when nothing is chosen" {
	unset CUDA_VISIBLE_DEVICES CUDA_DEVICE_ORDER
	start_workload A
	P=$MNT/processes/$A_pid
	run cat "$P/device_order"
	assert_output FASTEST_FIRST
	run cat "$P/visible_devices"
	assert_line --index 0 "gpu0 gpu0 $(cat "$MNT/devices/gpu0/uuid") 0000:18:00.0"
	assert_line --index 3 "gpu3 gpu3 $(cat "$MNT/devices/gpu3/uuid") 0000:48:00.0"
	[ "${#lines[@]}" -eq 4 ]
}

@test "visible_devices: CUDA_VISIBLE_DEVICES=2,GPU-<prefix of gpu0> maps ordinals 0 and 1" {
	u0=$(cat "$MNT/devices/gpu0/uuid")
	CUDA_VISIBLE_DEVICES="2,${u0:0:12}" start_workload A
	P=$MNT/processes/$A_pid
	run cat "$P/visible_devices"
	assert_line --index 0 "gpu0 gpu2 $(cat "$MNT/devices/gpu2/uuid") 0000:38:00.0"
	assert_line --index 1 "gpu1 gpu0 $u0 0000:18:00.0"
	[ "${#lines[@]}" -eq 2 ]
	# What it holds is used on the machine's gpu2 and gpu0, never on the
	# GPUs it cannot see.
	[ "$(cat "$MNT/devices/gpu2/used_memory")" -gt 0 ]
	[ "$(cat "$MNT/devices/gpu1/used_memory")" -eq 0 ]
	[ "$(cat "$MNT/devices/gpu3/used_memory")" -eq 0 ]
	run jq -r ".processes[\"$A_pid\"].process.visible_devices.gpu0[0]" \
		"$MNT/snapshot.json"
	assert_output gpu2
}

@test "a process that sees no GPU never starts: CUDA_VISIBLE_DEVICES=-1" {
	CUDA_VISIBLE_DEVICES=-1 run "$WORKLOAD" --ids "$WORK/n.ids"
	assert_failure
	[ -z "$(ls "$MNT/processes")" ]
}
