#!/usr/bin/env bats
# daemon.bats - cufs(8) as a program: which machine it shows, the run dir
# it makes, its exit statuses, and its unmount on a signal. Each test starts
# the cufs it needs, so that none depends on another.

load helpers

setup() {
	cufs_env
}

teardown() {
	[ -f "$WORK/listener.pid" ] && kill "$(cat "$WORK/listener.pid")" 2>/dev/null
	cleanup_all
	rm -f "/dev/shm/$CUEMU_MACHINE-other"
}

@test "--machine: a process of the mounted machine is shown" {
	start_cufs --machine "$CUEMU_MACHINE"
	start_workload A
	run ls "$MNT/processes"
	assert_line "$A_pid"
}

@test "--machine: a process of another machine in the same run dir is not shown" {
	start_cufs --machine "$CUEMU_MACHINE"
	CUEMU_MACHINE=$CUEMU_MACHINE-other start_workload B
	start_workload A
	[ -S "$CUEMU_RUNDIR/$B_pid.sock" ] || fail "B serves no socket in the run dir"
	run ls "$MNT/processes"
	assert_line "$A_pid"
	refute_line "$B_pid"
	# Ids are a machine's: B's id may be one of A's, but not B's object.
	run cat "$MNT/allocations/$B_managed/pid"
	refute_output "$B_pid"
}

@test "--remove-machine: refused while a process is attached, or for what is no machine; an idle one is removed" {
	other=$CUEMU_MACHINE-other
	CUEMU_MACHINE=$other start_workload B
	run "$CUFS" --remove-machine "$other"
	assert_failure 1
	assert_output "cufs: machine $other has 1 process attached: end it first (cufs shows them under processes/)"
	[ -e "/dev/shm/$other" ]
	run "$CUFS" --remove-machine "$other-proc-$B_pid"
	assert_failure 1
	assert_output "cufs: /dev/shm/$other-proc-$B_pid is not a machine segment"
	[ -e "/dev/shm/$other-proc-$B_pid" ]
	kill "$B_pid"
	wait_for bash -c '! kill -0 "$1" 2>/dev/null' _ "$B_pid"
	run "$CUFS" --remove-machine "$other"
	assert_success
	assert_output ""
	[ ! -e "/dev/shm/$other" ]
	run "$CUFS" --remove-machine "$other"
	assert_failure 1
	assert_output "cufs: machine $other: there is no such machine segment"
	run "$CUFS" --remove-machine "../$other"
	assert_failure 1
	assert_output "cufs: '../$other' is no machine name (letters, digits, '-', '_' or '.')"
	run "$CUFS" --remove-machine
	assert_failure 2
}

@test "--remove-machine: another user's machine is refused, and stays" {
	[ "$(id -u)" = 0 ] || skip "needs root, to run cufs as nobody"
	other=$CUEMU_MACHINE-other
	CUEMU_MACHINE=$other start_workload B
	kill "$B_pid"
	wait_for bash -c '! kill -0 "$1" 2>/dev/null' _ "$B_pid"
	run runuser -u nobody -- "$CUFS" --remove-machine "$other"
	assert_failure 1
	assert_output "cufs: machine $other belongs to root: only they or root may remove it"
	[ -e "/dev/shm/$other" ]
}

# syslog_ns SOCKET COMMAND...: runs COMMAND in a mount namespace of its
# own whose /dev/log is SOCKET (the rest of /dev bound from the host's:
# null, zero, fuse, urandom, random, full, shm), so that what a daemon
# sends syslog arrives at SOCKET. Nothing of it holds Bats's descriptors.
syslog_ns() {
	local sock=$1
	shift
	timeout 60 unshare -m bash -ec '
		mount --make-rprivate /
		nd=$1/newdev
		mkdir -p "$nd"
		mount -t tmpfs tmpfs "$nd"
		for x in null zero fuse urandom random full; do
			touch "$nd/$x"
			mount --bind "/dev/$x" "$nd/$x"
		done
		mkdir "$nd/shm"
		mount --rbind /dev/shm "$nd/shm"
		touch "$nd/log"
		mount --bind "$2" "$nd/log"
		mount --rbind "$nd" /dev
		shift 2
		"$@"' _ "$WORK" "$sock" "$@" 3>&- </dev/null
}

@test "a daemon's messages go to syslog: a write it could not deliver is said there" {
	[ "$(id -u)" = 0 ] || skip "needs root, for a mount namespace"
	command -v unshare >/dev/null || skip "no unshare(1)"
	# The syslog socket: each datagram a line of $WORK/syslog.
	setsid timeout 60 python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(0.2)
with open(sys.argv[2], "ab", buffering=0) as f:
    while True:
        try:
            f.write(s.recv(65536) + b"\n")
        except socket.timeout:
            pass
' "$WORK/log.sock" "$WORK/syslog" 3>&- </dev/null >/dev/null 2>&1 &
	echo $! >"$WORK/listener.pid"
	wait_for test -S "$WORK/log.sock"
	start_workload A
	kill -STOP "$A_pid"
	# cufs without -f, a daemon; a write to the stopped process; unmount.
	run syslog_ns "$WORK/log.sock" bash -c '
		"$1" "$2" || exit 1
		trap "fusermount3 -u \"$2\"" EXIT
		for i in $(seq 100); do [ -d "$2/processes/$3" ] && break; sleep 0.1; done
		echo renamed >"$2/allocations/$4/label" 2>/dev/null && echo "write succeeded"
		exit 0' _ "$CUFS" "$MNT" "$A_pid" "$A_managed"
	kill -CONT "$A_pid"
	echo "$output" >&2
	assert_success
	refute_output --partial "write succeeded"
	wait_for grep -q "not sent: the process is stopped" "$WORK/syslog"
	cat "$WORK/syslog" >&2
	run grep -c "cufs\[[0-9]*\]: cufs: write of .*/label to pid $A_pid not sent: the process is stopped (SIGSTOP or a debugger); ETIMEDOUT" "$WORK/syslog"
	assert_output 1
}

@test "the run dir is created with mode 0700 when it does not exist" {
	rmdir "$CUEMU_RUNDIR"
	start_cufs --rundir "$CUEMU_RUNDIR"
	run stat -c %a "$CUEMU_RUNDIR"
	assert_output 700
}

@test "exit status 1: the run dir cannot be used" {
	touch "$WORK/file"
	run timeout 10 "$CUFS" -f --rundir "$WORK/file/run" "$MNT"
	assert_failure 1
	refute mounted
}

@test "exit status 1: the machine cannot be used" {
	run env CUEMU_TOPOLOGY="$WORK/no-such-topology.json" \
		timeout 10 "$CUFS" -f "$MNT"
	assert_failure 1
	# the library's reason, said once, and no JSON
	assert_output --regexp "^cuemu: topology rejected: $WORK/no-such-topology.json: .*No such file or directory\$"
	assert_equal "${#lines[@]}" 1
	refute mounted
}

@test "exit status 1: a topology refused is said once, as a sentence" {
	echo '{"device_count": 0}' >"$WORK/zero.json"
	run env CUEMU_TOPOLOGY="$WORK/zero.json" timeout 10 "$CUFS" -f "$MNT"
	assert_failure 1
	assert_output "cuemu: topology rejected: $WORK/zero.json: device_count: must be 1..127"
	refute mounted
}

@test "exit status 1: a machine name refused is said as a sentence, not JSON" {
	run env CUEMU_MACHINE=bad/name timeout 10 "$CUFS" -f "$MNT"
	assert_failure 1
	assert_output "cufs: machine bad/name: CUEMU_MACHINE 'bad/name' must be letters, digits, '-', '_' or '.'"
	refute mounted
}

@test "exit status 4: a second cufs on a cufs mount is refused, the first serves on" {
	start_cufs
	run timeout 10 "$CUFS" -f "$MNT"
	assert_failure 4
	assert_output "cufs: $(realpath "$MNT") is a cufs mount already: unmount it first (fusermount3 -u $(realpath "$MNT"))"
	# one cufs mount there, and it answers
	assert_equal "$(awk -v d="$(realpath "$MNT")" '$2 == d' /proc/mounts | wc -l)" 1
	run cat "$MNT/devices/gpu0/total_memory"
	assert_success
}

@test "exit status 2: no mount point and no /cu says /cu is the default, and to make it" {
	[ ! -e /cu ] || skip "/cu exists on this host"
	run timeout 10 "$CUFS" -f
	assert_failure 2
	assert_output "cufs: no mount point given, and the default, /cu, cannot be used (No such file or directory): create it (mkdir /cu) or name another (cufs DIR)"
}

@test "exit status 2: --machine without a name" {
	run timeout 10 "$CUFS" -f "$MNT" --machine
	assert_failure 2
}

# Two words are a source and a mount point, as mount(8) passes them; a
# third is one too many.
@test "exit status 2: more words than a source and a mount point" {
	mkdir "$WORK/cu2"
	run timeout 10 "$CUFS" -f cufs "$MNT" "$WORK/cu2"
	assert_failure 2
	refute mounted
}

# cufs(8), EXIT STATUS: "2 for a bad command line". An option cufs does
# not know goes to libfuse, which refuses it.
@test "exit status 2: an option nobody knows" {
	run timeout 10 "$CUFS" -f --no-such-option "$MNT"
	assert_failure 2
	assert_output --partial "no-such-option"
	refute mounted
}

@test "exit status 2: a FUSE option nobody knows" {
	run timeout 10 "$CUFS" -f -o no_such_option "$MNT"
	assert_failure 2
	assert_output --partial "no_such_option"
	refute mounted
}

@test "exit status 0: --help and --version" {
	run timeout 10 "$CUFS" --help
	assert_success
	run timeout 10 "$CUFS" --version
	assert_success
}

# unmounted PID: cufs PID has ended and $MNT is no longer a mount.
unmounted() {
	! kill -0 "$1" 2>/dev/null && ! grep -q " $MNT " /proc/mounts
}

@test "SIGTERM unmounts cleanly: the mount is gone and cufs ends" {
	start_cufs
	pid=$(cat "$WORK/cufs.pid")
	kill -TERM "$pid"
	wait_for unmounted "$pid" || fail "still mounted or running after SIGTERM"
	run ls "$MNT"
	assert_success
	assert_output ""
}

@test "SIGTERM ends cufs while readers wait for lines of events_pipe" {
	start_cufs
	pid=$(cat "$WORK/cufs.pid")
	local readers=() i
	for i in 1 2 3; do
		timeout -k 1 20 cat "$MNT/events_pipe" >/dev/null 2>&1 &
		readers+=($!)
	done
	sleep 0.5
	kill -TERM "$pid"
	wait_for unmounted "$pid" || {
		kill -9 "$pid" 2>/dev/null
		fail "still mounted or running after SIGTERM, readers waiting"
	}
	wait "${readers[@]}" || true
}

@test "SIGINT unmounts cleanly: the mount is gone and cufs ends" {
	start_cufs
	pid=$(cat "$WORK/cufs.pid")
	kill -INT "$pid"
	wait_for unmounted "$pid" || fail "still mounted or running after SIGINT"
	run ls "$MNT"
	assert_success
	assert_output ""
}

# stopped_by SIGNAL: starts cufs in the foreground as a terminal does
# (SIGINT not ignored), sends it SIGNAL once it is mounted, and prints its
# exit status, or "still running" when it did not end within 10 s.
stopped_by() {
	local pid rc=0
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$CUFS" -f "$MNT" \
		>>"$WORK/cufs.log" 2>&1 3>&- &
	pid=$!
	echo "$pid" >"$WORK/cufs.pid"
	wait_for mounted || { kill -KILL "$pid"; wait "$pid"; echo "did not mount"; return; }
	kill "-$1" "$pid"
	if ! wait_for unmounted "$pid"; then
		kill -KILL "$pid"
		wait "$pid"
		echo "still running"
		return
	fi
	wait "$pid" || rc=$?
	echo "$rc"
}

# cufs(8), EXIT STATUS: "0 after a clean unmount"; SIGNALS: "cufs unmounts
# cleanly on SIGINT or SIGTERM".
@test "exit status 0 after SIGTERM's clean unmount" {
	run stopped_by TERM
	assert_output 0
}

@test "exit status 0 after SIGINT's clean unmount" {
	run stopped_by INT
	assert_output 0
}

@test "exit status 0 after fusermount3 -u from outside" {
	mkdir -p "$MNT"
	"$CUFS" -f "$MNT" >>"$WORK/cufs.log" 2>&1 3>&- &
	pid=$!
	echo "$pid" >"$WORK/cufs.pid"
	wait_for mounted || fail "cufs did not mount"
	fusermount3 -u "$MNT"
	wait_for unmounted "$pid" || fail "still running after the unmount"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 0 ] || fail "cufs exited $rc after fusermount3 -u"
}

@test "fusermount3 -u unmounts from outside, and cufs ends" {
	start_cufs
	pid=$(cat "$WORK/cufs.pid")
	fusermount3 -u "$MNT"
	wait_for unmounted "$pid" || fail "still mounted or running"
}

@test "a file's text is taken when it is opened" {
	start_cufs
	start_workload A
	F=$MNT/allocations/$A_managed/preferred_location
	exec 5<"$F"
	echo gpu1 >"$F"
	run cat <&5
	exec 5<&-
	assert_output none
	run cat "$F"
	assert_output gpu1
}

# cufs(8), ROBUSTNESS: "A file already open keeps the text it had", also
# when its process exits: cat fstat()s its input first, which asks cufs by
# path for an object that is gone.
@test "a file already open keeps its text after its process exits" {
	start_cufs
	start_workload A
	exec 5<"$MNT/allocations/$A_managed/kind"
	stop_workload A
	wait_for bash -c "! test -e '$MNT/processes/$A_pid'" ||
		{ exec 5<&-; fail "A's directory is still shown"; }
	run timeout 10 cat <&5
	exec 5<&-
	assert_success
	assert_output managed
}

@test "accessed_by: a list of words makes the set exactly that" {
	start_cufs
	start_workload A
	M=$MNT/allocations/$A_managed
	echo +gpu2 >"$M/accessed_by"
	echo "gpu0 cpu" >"$M/accessed_by"
	run cat "$M/accessed_by"
	assert_output "gpu0 cpu"
	# The workload's query cannot show cpu (it takes CU_DEVICE_CPU, -1,
	# for padding), so the API's side is checked for the GPU only.
	run wl_attr A accessed_by
	assert_output gpu0
}

@test "accessed_by: none empties the set" {
	start_cufs
	start_workload A
	M=$MNT/allocations/$A_managed
	echo "gpu1 cpu" >"$M/accessed_by"
	echo none >"$M/accessed_by"
	run cat "$M/accessed_by"
	assert_output ""
	run wl_attr A accessed_by
	assert_success
	assert_output ""
}
