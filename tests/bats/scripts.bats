#!/usr/bin/env bats
# scripts.bats - the shell tools over /cu: the policy tuner writes advice the
# workload's API then reports, the watch view shows where memory lives, and
# the Prometheus exporter writes a valid textfile; each answers --help.

load helpers

SCRIPTS=${top_srcdir:-$BATS_TEST_DIRNAME/../..}/scripts

# One mount for the file; a fresh workload A for each test, so that each
# test starts from the workload's own state and can run alone.
workload_lifecycle

@test "each tool answers --help and refuses a bad option with status 2" {
	for t in cufs-tune cufs-watch cufs-prometheus cufs-events cufs-experiment; do
		run "$SCRIPTS/$t" --help
		assert_success
		assert_output --partial "Usage: $t"
		# which option, on one line, not the whole help
		run "$SCRIPTS/$t" -x
		assert_failure 2
		assert_output "$t: '-x' is no option of $t ($t --help lists them)"
	done
}

@test "each tool refuses a directory that is not a cufs mount" {
	for t in cufs-tune cufs-watch cufs-prometheus; do
		run "$SCRIPTS/$t" -m "$WORK"
		assert_failure 2
		assert_output --partial "is not a cufs mount"
	done
}

@test "cufs-tune: dry run changes nothing, then the preferred location follows the last prefetch" {
	wl_cmd A "prefetch gpu2"
	run cat "$MNT/allocations/$A_managed/preferred_location"
	assert_output none
	run "$SCRIPTS/cufs-tune" -m "$MNT" -n
	assert_success
	assert_output --partial "allocation $A_managed (pid $A_pid): preferred_location none -> gpu2"
	run wl_attr A preferred_location
	assert_output none

	run "$SCRIPTS/cufs-tune" -m "$MNT" -p "$A_pid"
	assert_success
	assert_output --partial "preferred_location none -> gpu2"
	run cat "$MNT/allocations/$A_managed/preferred_location"
	assert_output gpu2
	run wl_attr A preferred_location
	assert_output gpu2

	# Nothing left to do: a second run changes nothing and says nothing.
	run "$SCRIPTS/cufs-tune" -m "$MNT"
	assert_success
	refute_output --partial "allocation $A_managed"
}

@test "cufs-tune: -p of another pid leaves the workload alone" {
	wl_cmd A "prefetch gpu1"
	run "$SCRIPTS/cufs-tune" -m "$MNT" -p 1
	assert_success
	run wl_attr A preferred_location
	assert_output none
}

@test "cufs-watch -1: devices with use and capacity, allocations with where they live" {
	wl_cmd A "prefetch gpu3"
	run "$SCRIPTS/cufs-watch" -m "$MNT" -1
	assert_success
	assert_line --regexp '^gpu0 +[0-9.]+[KMG]?i?B +141\.0GiB$'
	assert_line --regexp "^$A_managed +$A_pid +managed +.*gpu3=8\\.0MiB"
	assert_line --regexp "^$A_pinned +$A_pid +host +.* cpu="
}

@test "cufs-watch: the host's NUMA nodes are shown inside cpu, not beside it" {
	# CPU faults bring it back from gpu1: pages the kernel placed
	wl_cmd A "prefetch gpu1"
	wl_cmd A "touch"
	run "$SCRIPTS/cufs-watch" -m "$MNT" -1
	assert_success
	assert_line --regexp "^$A_managed +$A_pid +managed +.* cpu=8\\.0MiB \\(numa[0-9]+ [0-9.]+[KMG]?i?B( numa[0-9]+ [0-9.]+[KMG]?i?B)*\\)\$"
	refute_output --regexp "numa[0-9]+="
}

@test "cufs-watch: a mount that goes away is said once, and it exits" {
	# a mount of its own, its pid file apart from the file's mount's
	mkdir -p "$WORK/cu2" "$WORK/w2"
	CUFS_WORK=$WORK/w2 cufs_mount "$WORK/cu2"
	("$SCRIPTS/cufs-watch" -m "$WORK/cu2" -i 0.2 >/dev/null 2>"$WORK/watch.err" 3>&- &
	 echo $! >"$WORK/watch.pid")
	sleep 0.5
	CUFS_WORK=$WORK/w2 cufs_unmount "$WORK/cu2"
	pid=$(cat "$WORK/watch.pid")
	wait_for bash -c "! kill -0 $pid" || { kill "$pid"; fail "cufs-watch still runs"; }
	run cat "$WORK/watch.err"
	assert_output "cufs-watch: $WORK/cu2 is no longer a cufs mount (cufs stopped or unmounted)"
}

@test "cufs-prometheus: a textfile of device and allocation metrics, replaced atomically" {
	wl_cmd A "prefetch gpu3"
	run "$SCRIPTS/cufs-prometheus" -m "$MNT" -o "$WORK/cufs.prom"
	assert_success
	[ ! -e "$WORK/cufs.prom.tmp" ]
	run grep -c '^cufs_device_memory_total_bytes{device="gpu[0-3]"} 151397597184$' "$WORK/cufs.prom"
	assert_output 4
	run grep -E "^cufs_allocation_resident_bytes\\{id=\"$A_managed\",pid=\"$A_pid\",kind=\"managed\",.*location=\"gpu3\"\\} 8388608$" "$WORK/cufs.prom"
	assert_success
	run grep -E "^cufs_allocation_migrated_bytes_total\\{id=\"$A_managed\",.*direction=\"htod\"\\} [0-9]+$" "$WORK/cufs.prom"
	assert_success
	# Every sample line is name{labels} value, or name value; a model time
	# is seconds, with a fraction.
	run grep -vE '^(# (HELP|TYPE) .*|[a-z_]+(\{[^}]*\})? [0-9]+(\.[0-9]+)?)$' "$WORK/cufs.prom"
	assert_failure
	run grep -E "^cufs_allocation_fault_seconds_total\{id=\"$A_managed\",.*\} [0-9]+\.[0-9]{9}$" "$WORK/cufs.prom"
	assert_success
}

@test "cufs-demo: mounts, runs the workload, shows it, and leaves nothing behind" {
	run timeout 60 env -u CUEMU_MACHINE -u CUEMU_RUNDIR \
		top_builddir="$top_builddir" "$SCRIPTS/cufs-demo" --steps 3
	assert_success
	assert_output --regexp 'cufs mounted at /tmp/cufs-demo\.[A-Za-z0-9]+/cu'
	assert_line --partial 'demo: done'
	assert_line --regexp '^gpu3 +'
	assert_line 'cufs-demo: cleaned up'
	dir=$(printf '%s\n' "$output" | sed -n 's/.*mounted at \(.*\)\/cu .*/\1/p')
	[ -n "$dir" ] && [ ! -e "$dir" ]
	run grep -c "$dir" /proc/mounts
	assert_output 0
}

@test "cufs-demo: its terminal gone (SIGHUP), it stops all it started and leaves nothing" {
	# a session of its own, as in a terminal: the hangup reaches all of it.
	# SIGHUP as a terminal's session has it: make check run under nohup
	# hands on an ignored SIGHUP, which a shell's trap cannot take back.
	setsid env --default-signal=HUP -u CUEMU_MACHINE -u CUEMU_RUNDIR \
		top_builddir="$top_builddir" \
		"$SCRIPTS/cufs-demo" --no-watch >"$WORK/demo.out" 2>&1 3>&- &
	demo=$!
	echo "$demo" >"$WORK/demo.pid"
	wait_for grep -q 'cufs mounted at' "$WORK/demo.out" ||
		fail "the demo did not mount: $(cat "$WORK/demo.out")"
	dir=$(sed -n 's/.*mounted at \(.*\)\/cu .*/\1/p' "$WORK/demo.out")
	# the workload published its state
	wait_for bash -c "ls /dev/shm | grep -q '^cufs-demo-$demo-proc-'" ||
		fail "no published segment of the demo's workload"
	kill -HUP -- "-$demo"
	wait_for bash -c "! kill -0 $demo" || fail "the demo still runs after SIGHUP"
	rm -f "$WORK/demo.pid"
	run bash -c "ls /dev/shm | grep '^cufs-demo-$demo'"
	assert_output ""
	run grep -c "$dir" /proc/mounts
	assert_output 0
	# nothing it started runs on
	run pgrep -f "$dir"
	assert_failure
}

# The demo's machine is cufs-demo-<its pid>: it exists while the demo runs
# and is gone once the demo is done.
@test "cufs-demo: removes its machine segment when it is done" {
	env -u CUEMU_MACHINE -u CUEMU_RUNDIR top_builddir="$top_builddir" \
		"$SCRIPTS/cufs-demo" --steps 3 >"$WORK/demo.out" 2>&1 3>&- &
	demo=$!
	echo "$demo" >"$WORK/demo.pid"
	wait_for grep -q 'cufs mounted at' "$WORK/demo.out" ||
		fail "the demo did not mount: $(cat "$WORK/demo.out")"
	[ -e "/dev/shm/cufs-demo-$demo" ] || fail "no segment cufs-demo-$demo while it runs"
	wait_for bash -c "! kill -0 $demo" || fail "the demo did not finish its 3 steps"
	rm -f "$WORK/demo.pid"
	run grep -c 'cufs-demo: cleaned up' "$WORK/demo.out"
	assert_output 1
	run test -e "/dev/shm/cufs-demo-$demo"
	assert_failure
}
