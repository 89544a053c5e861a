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

# timed_write FILE TEXT: one write(2) of TEXT; prints its errno's name (or
# ok) and the seconds the open and the write took.
timed_write() {
	timeout 30 python3 -c '
import errno, os, sys, time
t = time.monotonic()
try:
    fd = os.open(sys.argv[1], os.O_WRONLY)
    try:
        os.write(fd, (sys.argv[2] + "\n").encode())
        r = "ok"
    finally:
        os.close(fd)
except OSError as e:
    r = errno.errorcode[e.errno]
print("%s %.3f" % (r, time.monotonic() - t))
' "$1" "$2"
}

# slowest_read SECONDS FILE...: reads every FILE over and over for SECONDS;
# prints the longest one read took and the files that failed.
slowest_read() {
	timeout 60 python3 -c '
import sys, time
end, worst = time.monotonic() + float(sys.argv[1]), 0.0
while time.monotonic() < end:
    for f in sys.argv[2:]:
        t = time.monotonic()
        try:
            open(f, "rb").read()
        except OSError as e:
            print("failed %s: %s" % (f, e))
        worst = max(worst, time.monotonic() - t)
print("slowest %.3f" % worst)
' "$@"
}

# Each line of the timed_write outputs named: a write that took over
# SECONDS, or ended with an errno not in the ERRNOS pattern.
writes_beyond() {
	local secs=$1 errnos=$2
	shift 2
	awk -v s="$secs" -v e="^($errnos)\$" '$2 > s || $1 !~ e' "$@"
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

@test "stopped: a write fails with ETIMEDOUT and last_error says why, until the process records one of its own" {
	L=$MNT/allocations/$A_managed/label
	kill -STOP "$A_pid"
	run write_errno "$L" renamed
	le=$(timeout 5 cat "$MNT/processes/$A_pid/last_error")
	kill -CONT "$A_pid"
	assert_output ETIMEDOUT
	echo "$le" >&2
	grep -qx "result CUDA_ERROR_TIMEOUT" <<<"$le"
	grep -q "^message cufs: write of .*/label to pid $A_pid not sent: the process is stopped" <<<"$le"
	# cufs's note stays while the process has recorded nothing since
	run timeout 5 cat "$MNT/processes/$A_pid/last_error"
	assert_line "result CUDA_ERROR_TIMEOUT"
	# the process's own refusal takes its place
	run bash -c "echo gpu9 > '$MNT/allocations/$A_managed/prefetch'"
	assert_failure
	run timeout 5 cat "$MNT/processes/$A_pid/last_error"
	assert_line "result CUDA_ERROR_INVALID_DEVICE"
}

# The note is laid over the process's record for each read: the record
# is the cache's, shared by every FUSE thread, and was once changed in
# place, so that one reader freed the last_error another was printing
# (cufs aborted in jansson under load).
@test "stopped: the undelivered write's note is read by many readers at once, and cufs stays" {
	L=$MNT/allocations/$A_managed/label
	kill -STOP "$A_pid"
	run write_errno "$L" renamed
	assert_output ETIMEDOUT
	local pids=() i
	for i in $(seq 8); do
		timeout 20 bash -c 'for k in $(seq 60); do
			grep -qx "result CUDA_ERROR_TIMEOUT" "$1/last_error" &&
			grep -q "CUDA_ERROR_TIMEOUT" "$1/json" || exit 1
		done' _ "$MNT/processes/$A_pid" &
		pids+=($!)
	done
	local failed=0
	for i in "${pids[@]}"; do
		wait "$i" || failed=$((failed + 1))
	done
	kill -CONT "$A_pid"
	[ "$failed" = 0 ]
	mounted
	run timeout 5 cat "$MNT/processes/$A_pid/last_error"
	assert_line "result CUDA_ERROR_TIMEOUT"
}

@test "a control thread stuck: reads go on, state says so, a write fails with ETIMEDOUT" {
	CUEMU_CONTROL_PAUSE_FILE=$WORK/pause start_workload F
	L=$MNT/allocations/$F_device/label
	run cat "$L"
	assert_output weights
	touch "$WORK/pause"
	run timeout 5 cat "$L"
	assert_output weights
	# Known from the event relay's requests (ten a second, 2 s each at
	# most), never by asking in the read.
	wait_for bash -c '[ "$(cat "$1")" = "not answering" ]' _ "$MNT/processes/$F_pid/state"
	run slowest_read 1 "$MNT/processes/$F_pid/state"
	assert_output --regexp '^slowest 0\.[0-4]'
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

@test "writes to a process that does not answer: none takes over one timeout" {
	CUEMU_CONTROL_PAUSE_FILE=$WORK/pause start_workload F
	local files=("$MNT/allocations/$F_device/label"
		     "$MNT/allocations/$F_pinned/label"
		     "$MNT/allocations/$F_managed/label")
	touch "$WORK/pause"
	local pids=() i
	# Two writes to each file: the kernel sends the second when the
	# first has ended; the three files' writes meet in cufs.
	for i in 0 1 2 3 4 5; do
		timed_write "${files[i % 3]}" "w$i" >"$WORK/w$i" &
		pids+=($!)
	done
	wait "${pids[@]}"
	rm -f "$WORK/pause"
	cat "$WORK"/w[0-5] >&2
	# None waits for two timeouts (2 s each): one goes first, one waits
	# for it, any more are refused at once, and once one timed out the
	# next are not sent.
	run writes_beyond 3.0 'ETIMEDOUT|EAGAIN' "$WORK"/w[0-5]
	assert_output ""
	cat "$WORK"/w[0-5] | grep -q '^EAGAIN '
	grep -q "to pid $F_pid not sent: another write to it is waiting already; EAGAIN" "$WORK/cufs.log"
	grep -q "to pid $F_pid not sent: the process did not answer cufs's last request" "$WORK/cufs.log"
	wait_for bash -c '[ "$(cat "$1")" = running ]' _ "$MNT/processes/$F_pid/state"
	for i in 0 1 2; do
		run cat "${files[i]}"
		refute_output --regexp '^w[0-5]$' # none of them ran
	done
	# A write to the same process after it answers again is done.
	echo renamed >"${files[0]}"
	run cat "${files[0]}"
	assert_output renamed
}

@test "writes waiting on a process that gets stopped fail at once" {
	CUEMU_CONTROL_PAUSE_FILE=$WORK/pause start_workload F
	L=$MNT/allocations/$F_device/label
	touch "$WORK/pause"
	timed_write "$L" w1 >"$WORK/w1" &
	local p1=$!
	sleep 0.2
	timed_write "$L" w2 >"$WORK/w2" &
	local p2=$!
	sleep 0.3
	kill -STOP "$F_pid"
	wait "$p1" "$p2"
	kill -CONT "$F_pid"
	rm -f "$WORK/pause"
	cat "$WORK"/w[12] >&2
	# Both end within 1.5 s of their start, not at the 2 s of the
	# write's start window.
	run writes_beyond 1.5 'ETIMEDOUT|EAGAIN' "$WORK"/w[12]
	assert_output ""
	# Stopped while they waited ("was"); on a loaded machine a write can
	# reach cufs only after the stop, and is refused at once ("is").
	grep -Eq "to pid $F_pid not sent: the process (was|is) stopped" \
		"$WORK/cufs.log"
	wait_for bash -c '[ "$(cat "$1")" = running ]' _ "$MNT/processes/$F_pid/state"
	run cat "$L"
	assert_output weights
}

@test "writes pending on a stuck process and stream readers leave other reads fast" {
	CUEMU_CONTROL_PAUSE_FILE=$WORK/pause start_workload F
	L=$MNT/allocations/$F_device/label
	touch "$WORK/pause"
	local pids=() i
	# More waiting requests than libfuse's 10 threads: 16 readers of
	# streams (each waits for lines in a thread), 8 writers in a loop.
	for i in $(seq 16); do
		timeout 6 cat "$MNT/events_pipe" >/dev/null &
		pids+=($!)
	done
	for i in $(seq 8); do
		timeout 6 bash -c 'while :; do echo x >"$1"; done' _ "$L" 2>/dev/null &
		pids+=($!)
	done
	sleep 0.5
	run slowest_read 3 "$MNT/allocations/$A_managed/kind" \
		"$MNT/processes/$A_pid/state" "$MNT/processes/$F_pid/state" \
		"$MNT/processes/$F_pid/cmdline" "$MNT/devices/gpu0/used_memory"
	kill "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
	rm -f "$WORK/pause"
	refute_output --partial failed
	assert_output --regexp '^slowest 0\.[0-4]'
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
