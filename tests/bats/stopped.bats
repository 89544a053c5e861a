#!/usr/bin/env bats
# stopped.bats - what cufs shows of a process comes from the state it
# publishes (runtime/outward/pubseg.h), not from asking it: a stopped
# process, or one whose control thread is stuck, reads as it was; a write
# to it fails with ETIMEDOUT and changes nothing; a killed process leaves
# nothing behind; a corrupt segment fails only its own process's files.
# Every wait is bounded (timeout(1), wait_for).

load helpers

workload_lifecycle

teardown() {
	workload_teardown "$WORK/pause"
}

segment() {
	echo "/dev/shm/$CUEMU_MACHINE-proc-$1"
}

# Every file of the process's objects and of processes/<pid>, read
# within 20 s; prints each path that could not be read.
cat_all() {
	local pid=$1 f
	timeout 20 bash -c '
		for f in "$1"/processes/"$2"/* "$1"/processes/"$2"/*/*/* \
			 $(for d in "$1"/processes/"$2"/{allocations,pools,reservations,handles}/*; do
				echo "$1/$(readlink "$d" | sed "s|^\.\./\.\./\.\./||")"/*
			   done); do
			case $f in */events_pipe) continue ;; esac
			[ -d "$f" ] && continue
			cat "$f" >/dev/null 2>&1 || echo "unreadable: $f"
		done' _ "$MNT" "$pid"
}

@test "stopped: every file reads, as of the moment it stopped" {
	wl_cmd A "prefetch gpu1"
	kill -STOP "$A_pid"
	run timeout 5 ls "$MNT/processes/$A_pid" "$MNT/allocations"
	assert_success
	assert_line "$A_managed"
	run cat_all "$A_pid"
	kill -CONT "$A_pid"
	assert_success
	refute_output --partial unreadable
}

@test "stopped: the residency of a prefetch made just before the stop" {
	wl_cmd A "prefetch gpu1"
	kill -STOP "$A_pid"
	run timeout 5 cat "$MNT/allocations/$A_managed/residency"
	state=$(timeout 5 cat "$MNT/processes/$A_pid/state")
	run2=$(timeout 5 cat "$MNT/allocations/$A_managed/last_prefetch_location")
	kill -CONT "$A_pid"
	assert_line "gpu1 $A_managed_size"
	[ "$state" = stopped ]
	[ "$run2" = gpu1 ]
}

@test "stopped: snapshot.json has the stopped process with its objects" {
	kill -STOP "$A_pid"
	timeout 10 cat "$MNT/snapshot.json" >"$WORK/snap.json"
	kill -CONT "$A_pid"
	json_valid "$WORK/snap.json"
	run jq -r ".processes[\"$A_pid\"].allocations[\"$A_managed\"].kind" \
		"$WORK/snap.json"
	assert_output managed
}

@test "a control thread stuck: reads go on, state says so, a write fails with ETIMEDOUT" {
	CUEMU_CONTROL_PAUSE_FILE=$WORK/pause start_workload F
	L=$MNT/allocations/$F_device/label
	run cat "$L"
	assert_output weights
	touch "$WORK/pause"
	run timeout 5 cat "$L"
	assert_output weights
	run timeout 5 cat "$MNT/processes/$F_pid/state"
	assert_output "not answering"
	run write_errno "$L" renamed
	assert_output ETIMEDOUT
	grep -q "to pid $F_pid not sent: the process did not answer" "$WORK/cufs.log"
	rm -f "$WORK/pause"
	wait_for bash -c '[ "$(cat "$1")" = running ]' _ "$MNT/processes/$F_pid/state"
	run cat "$L"
	assert_output weights # the write that timed out never ran
	echo renamed >"$L"
	run cat "$L"
	assert_output renamed
}

@test "kill -9 in the middle of updates leaves no entry and no segment" {
	start_workload K
	# Commands in flight, so that the kill lands among their updates.
	timeout 5 bash -c 'for i in $(seq 40); do
		printf "prefetch gpu%d\n" $((i % 4))
	done >"$1"' _ "$WORK/K.fifo" &
	writer=$!
	sleep 0.3
	kill -9 "$K_pid"
	wait "$writer" || true
	rm -f "$WORK/K.pid"
	wait_for bash -c "! ls '$MNT/processes' | grep -qx $K_pid"
	run ls "$MNT/allocations"
	refute_line "$K_managed"
	assert_line "$A_managed"
	wait_for test ! -e "$(segment "$K_pid")"
	run cat "$MNT/allocations/$K_managed/kind"
	assert_failure
	run cat "$MNT/devices/gpu0/total_memory"
	assert_success
}

@test "a corrupt segment gives EIO for its process only" {
	start_workload B
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.write(b"\0" * 8)' "$(segment "$B_pid")"
	wait_for bash -c '! cat "$1" >/dev/null' _ "$MNT/processes/$B_pid/cmdline"
	run timeout 5 cat "$MNT/processes/$B_pid/cmdline"
	assert_output --partial "Input/output error"
	run timeout 5 cat "$MNT/allocations/$A_managed/kind"
	assert_output managed
	run timeout 5 ls "$MNT/allocations"
	assert_success
	assert_line "$A_managed"
	refute_line "$B_managed"
	grep -q "proc-$B_pid is not a readable segment" "$WORK/cufs.log"
}

@test "a truncated segment gives EIO for its process only" {
	start_workload B
	truncate -s 4096 "$(segment "$B_pid")"
	wait_for bash -c '! cat "$1" >/dev/null' _ "$MNT/processes/$B_pid/cmdline"
	run timeout 5 cat "$MNT/processes/$B_pid/counters"
	assert_output --partial "Input/output error"
	run timeout 5 cat "$MNT/allocations/$A_managed/kind"
	assert_output managed
	run timeout 5 cat "$MNT/snapshot.json"
	assert_success
}
