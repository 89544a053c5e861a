#!/usr/bin/env bats
# hostile.bats - a write to /cu is accepted only when the whole of it
# parses: anything else is EINVAL, changes nothing, and says why in the
# process's last_error. Numbers too large for a signed word read back as
# written. Each case is one that was once accepted, cut short or misread.

load helpers

workload_lifecycle

setup() {
	workload_setup
	M=$MNT/allocations/$A_managed
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
}

# write_bytes FILE PYTHON-BYTES: writes exactly those bytes in one write(2)
# and prints "ok" or the errno's name. Bounded by timeout(1).
write_bytes() {
	timeout 10 python3 -c '
import errno, os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
try:
    os.write(fd, eval(sys.argv[2]))
    print("ok")
except OSError as e:
    print(errno.errorcode[e.errno])
' "$1" "$2"
}

# refused FILE PYTHON-BYTES: the write is EINVAL and last_error says
# CUDA_ERROR_INVALID_VALUE.
refused() {
	run write_bytes "$1" "$2"
	assert_output EINVAL
	run last_result "$A_pid"
	assert_output CUDA_ERROR_INVALID_VALUE
}

@test "accessed_by: an empty line, blanks, a list cut at a length, two lines: each EINVAL, the set unchanged" {
	echo gpu1 >"$M/accessed_by"
	refused "$M/accessed_by" 'b"\n"'
	refused "$M/accessed_by" 'b"   \n"'
	refused "$M/accessed_by" 'b"gpu0" + b" " * 300 + b"garbage\n"'
	refused "$M/accessed_by" 'b"gpu1\ngpu2\n"'
	run cat "$M/accessed_by"
	assert_output gpu1
}

@test "read_mostly: only 0 or 1, nothing before or after" {
	for v in "1 extra" 1garbage 10 " 1x" 18446744073709551616 0junk 01; do
		refused "$M/read_mostly" "b\"$v\\n\""
	done
	run cat "$M/read_mostly"
	assert_output 0
	echo 1 >"$M/read_mostly"
	run cat "$M/read_mostly"
	assert_output 1
}

@test "advise: a word after the location is refused, not ignored" {
	refused "$M/advise" 'b"set_accessed_by gpu1 junk\n"'
	run cat "$M/accessed_by"
	assert_output ""
}

@test "preferred_location and prefetch: one location and nothing else" {
	refused "$M/preferred_location" 'b"gpu1 gpu2\n"'
	refused "$M/prefetch" 'b"gpu1\ngpu2\n"'
	run cat "$M/preferred_location"
	assert_output none
}

@test "a value that is not UTF-8 is EINVAL, and last_error says why" {
	refused "$M/preferred_location" 'b"gpu\xff\n"'
	run grep -c 'not UTF-8' "$MNT/processes/$A_pid/last_error"
	assert_output 1
}

@test "a value with a NUL byte is EINVAL, and last_error says why" {
	refused "$M/preferred_location" 'b"gpu1\x00gpu2\n"'
	run grep -c 'NUL' "$MNT/processes/$A_pid/last_error"
	assert_output 1
}

@test "label: 63 bytes of UTF-8 are kept whole, 64 are refused, the old label stays" {
	L=$MNT/allocations/$A_device/label
	whole=$(printf 'a%.0s' $(seq 61))é
	echo "$whole" >"$L"
	run cat "$L"
	assert_output "$whole"
	refused "$L" "b\"a\" * 62 + \"é\".encode() + b\"\\n\""
	run cat "$L"
	assert_output "$whole"
	run cat "$MNT/allocations/$A_device/kind"
	assert_output device
}

@test "label: a second line or a control character is refused" {
	L=$MNT/allocations/$A_device/label
	echo kept >"$L"
	refused "$L" 'b"one\ntwo\n"'
	refused "$L" 'b"bell\x07\n"'
	run cat "$L"
	assert_output kept
}

@test "release_threshold 2^64-1 reads back as written" {
	echo 18446744073709551615 >"$P/release_threshold"
	run cat "$P/release_threshold"
	assert_output 18446744073709551615
}

@test "taking the pool's own device's access away is ENODEV, as the real driver answers" {
	run write_errno "$P/access" "gpu0 none"
	assert_output ENODEV
	run last_result "$A_pid"
	assert_output CUDA_ERROR_INVALID_DEVICE
	run grep -x "gpu0 rw" "$P/access"
	assert_success
}

# silent_listener: a socket named for the listener's own pid (a live
# process, as a workload stopped before cufs first spoke to it) that
# accepts and never answers. Its pid goes to $WORK/silent.pids.
silent_listener() {
	timeout 60 python3 -c '
import os, socket, sys
s = socket.socket(socket.AF_UNIX)
d = os.open(sys.argv[1], os.O_PATH)  # the run dir may lie deep
s.bind("/proc/self/fd/%d/%d.sock" % (d, os.getpid())); s.listen(64)
open(sys.argv[2], "a").write("%d\n" % os.getpid())
held = []
while True:
    c, _ = s.accept(); held.append(c)' "$CUEMU_RUNDIR" "$WORK/silent.pids" 3>&- &
}

@test "sockets that never answer hello hold up no listing and no other process's files" {
	for i in 1 2 3; do
		silent_listener
	done
	wait_for bash -c "[ \$(cat '$WORK/silent.pids' 2>/dev/null | wc -l) = 3 ]"
	run timeout 2 ls "$MNT/processes"
	assert_success
	assert_line "$A_pid"
	for p in $(cat "$WORK/silent.pids"); do
		refute_line "$p"
	done
	run timeout 2 cat "$MNT/allocations/$A_managed/kind"
	assert_success
	assert_output managed
	for p in $(cat "$WORK/silent.pids"); do
		kill "$p" 2>/dev/null || true
		rm -f "$CUEMU_RUNDIR/$p.sock"
	done
	rm -f "$WORK/silent.pids"
}
