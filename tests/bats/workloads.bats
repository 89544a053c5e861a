#!/usr/bin/env bats
# workloads.bats - cuemu-run: every example description runs; a bad one is
# refused before anything runs, with its line and field named; and what a
# run shows of model time in /cu: its streams, its model time, the model
# timestamps of its events, the time its allocations' faults cost.

load helpers

EXAMPLES=$top_srcdir/examples/workloads

setup() {
	cufs_setup
}

teardown() {
	cufs_teardown
}

# bad NAME SED: the halo example changed by SED, as $CUFS_WORK/NAME.json.
bad() {
	sed "$2" "$EXAMPLES/halo-stencil.json" >"$CUFS_WORK/$1.json"
	! cmp -s "$EXAMPLES/halo-stencil.json" "$CUFS_WORK/$1.json" ||
		fail "the change '$2' changed nothing"
}

@test "each example description is valid and runs to its end" {
	local n=0 f
	for f in "$EXAMPLES"/*.json; do
		run "$CUEMU_RUN_BIN" --check "$f"
		assert_success
		# Each on a machine of its own: the scan brings its topology.
		run env CUEMU_MACHINE="$CUEMU_MACHINE-$n" "$CUEMU_RUN_BIN" "$f"
		rm -f "/dev/shm/$CUEMU_MACHINE-$n" "/dev/shm/$CUEMU_MACHINE-$n"-*
		assert_success
		assert_output --regexp "^$(jq -r .name "$f"): model time [1-9][0-9]* ns$"
		n=$((n + 1))
	done
	[ "$n" -ge 4 ] || fail "only $n example workloads"
}

@test "the oversubscribed scan evicts: its data is larger than its GPU" {
	# The mount made the machine: it is made again, of the scan's own.
	cufs_teardown
	cufs_setup --topology "$EXAMPLES/../topologies/small-gpus.json"
	cufs_start_workload S "$EXAMPLES/oversubscribed-scan.json" --linger
	cufs_wait_done S
	id=$(cufs_id S data)
	assert_counter "$id" evictions -gt 0
	assert_counter "$id" bytes_htod -gt $((1536 << 20))
	assert_equal "$(cat "$CUFS_MNT/devices/gpu0/total_memory")" $((1 << 30))
	cufs_stop_workload S
}

@test "a workload's topology on a machine of another shape: said once, naming both" {
	# the mount made the default machine: the scan's two GPUs are not it
	cufs_start_workload S "$EXAMPLES/oversubscribed-scan.json" --linger
	cufs_wait_done S
	run grep -c "asks for 'two 1 GiB GPUs' (2 GPUs), but machine $CUEMU_MACHINE exists already as 'default: 4 x H200' (4 GPUs)" "$CUFS_WORK/S.out"
	assert_output 1
	cufs_stop_workload S
}

@test "cuemu-run(1)'s example prints what the man page says" {
	want=$(grep '^training-loop: model time' "$top_srcdir/man/cuemu-run.1")
	run env CUEMU_MACHINE="$CUEMU_MACHINE-man" "$CUEMU_RUN_BIN" "$EXAMPLES/training-loop.json"
	rm -f "/dev/shm/$CUEMU_MACHINE-man"
	assert_success
	assert_output "$want"
}

@test "a bad field is refused with its line and its path" {
	bad mode 's/"mode": "readwrite" } ],/"mode": "sideways" } ],/'
	run "$CUEMU_RUN_BIN" "$CUFS_WORK/mode.json"
	assert_failure 1
	assert_output "cuemu-run: $CUFS_WORK/mode.json:13: streams[0].steps[1].repeat.steps[0].kernel.access[0].mode: must be \"read\", \"write\" or \"readwrite\""

	bad field 's/"length": "1M" },/"lenght": "1M" },/'
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/field.json"
	assert_failure 1
	assert_output --partial "field.json:18: streams[0].steps[1].repeat.steps[3].kernel.access[0].lenght: no such field here"

	bad size 's/"size": "64M", "device": "gpu1"/"size": "64X", "device": "gpu1"/'
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/size.json"
	assert_failure 1
	assert_output --partial "size.json:7: allocations[1].size: not a size"

	bad range 's/"offset": "63M" } \],/"offset": "65M" } ],/'
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/range.json"
	assert_failure 1
	assert_output --partial "range.json:19: streams[0].steps[1].repeat.steps[3].kernel.access[1].offset: 68157440 is not inside \"left\""
}

@test "names that resolve to nothing, the version and the JSON itself" {
	bad label 's/"label": "right"/"label": "rite"/'
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/label.json"
	assert_failure 1
	assert_output --partial "label.json:18: streams[0].steps[1].repeat.steps[3].kernel.access[0].alloc: no allocation is labelled \"right\""

	bad event 's/{ "record": "east-swept" },//'
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/event.json"
	assert_failure 1
	assert_output --partial "event.json:16: event \"east-swept\" is waited for but never recorded"

	bad version 's/"cuemu_workload": 1/"cuemu_workload": 2/'
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/version.json"
	assert_failure 1
	assert_output --partial "version.json:2: cuemu_workload: version 2: this cuemu-run reads version 1"

	printf '{ "cuemu_workload": 1,\n  "allocations": [\n' >"$CUFS_WORK/cut.json"
	run "$CUEMU_RUN_BIN" --check "$CUFS_WORK/cut.json"
	assert_failure 1
	assert_output --partial "cut.json:3: not JSON:"
}

@test "what only the machine knows is checked before the streams run" {
	bad device 's/"device": "gpu1", "steps"/"device": "gpu7", "steps"/'
	run "$CUEMU_RUN_BIN" "$CUFS_WORK/device.json"
	assert_failure 1
	assert_output "cuemu-run: $CUFS_WORK/device.json:24: stream: gpu7: the machine has 4 GPUs"
	run "$CUEMU_RUN_BIN"
	assert_failure 2
	assert_output --partial "usage: cuemu-run"
}

@test "processes/PID: streams with device, clock and operations; model_time" {
	cufs_start_workload T "$EXAMPLES/training-loop.json" --linger
	cufs_wait_done T
	local p=$CUFS_MNT/processes/$T_pid s n=0 user=0 t
	# The published record follows the streams within 10 ms.
	wait_until 5 grep -qx "completed 12" "$p"/streams/*/operations
	t=$(cat "$p/model_time")
	[ "$t" -gt 0 ] || fail "model_time is $t"
	for s in "$p"/streams/[0-9]*; do
		n=$((n + 1))
		assert_equal "$(cat "$s/id")" "${s##*/}"
		run cat "$s/device"
		assert_output --regexp '^gpu[01]$'
		[ "$(cat "$s/clock_ns")" -le "$t" ] || fail "a stream is past model_time"
		run cat "$s/operations"
		assert_line --regexp '^queued [0-9]+$'
		assert_line --regexp '^completed [0-9]+$'
		[ "$(cat "$s/kind")" = user ] || continue
		user=$((user + 1))
		[ "$(cat "$s/clock_ns")" -gt 0 ] || fail "stream ${s##*/} took no time"
	done
	assert_equal "$user" 3
	jq -e '.streams | length > 0' "$p/json"
	cufs_stop_workload T
}

@test "events carry model time; allocations the model time of their faults" {
	cufs_start_workload T "$EXAMPLES/stream-once.json" --linger
	cufs_wait_done T
	id=$(cufs_id T input)
	assert_counter "$id" fault_ns -gt 0
	assert_counter "$id" migration_ns == 0
	run grep " fault alloc=$id " "$CUFS_MNT/processes/$T_pid/events"
	assert_success
	assert_line --regexp " model_ns=[0-9]+$"
	# A prefetch is a migration, not a fault.
	echo cpu >"$CUFS_MNT/allocations/$id/prefetch"
	wait_until 5 assert_counter "$id" migration_ns -gt 0
	cufs_stop_workload T
}

@test "a topology given as a workload is named as one, with what to do" {
	run "$CUEMU_RUN_BIN" "$EXAMPLES/../topologies/small-gpus.json"
	assert_failure 1
	assert_output --partial "small-gpus.json:1: (top): this is a topology (cuemu-topology(5)), not a workload: name it in a workload's \"topology\" field, or run with CUEMU_TOPOLOGY=FILE"
}

@test "examples/workloads holds workloads only: cuemu-run takes each" {
	local f
	for f in "$EXAMPLES"/*.json; do
		run "$CUEMU_RUN_BIN" --check "$f"
		assert_success
	done
}
