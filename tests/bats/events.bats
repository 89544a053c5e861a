#!/usr/bin/env bats
# events.bats - cufs(5), EVENTS: a read of /cu/events with O_NONBLOCK fails
# with EAGAIN when there is no line, poll(2) says when lines are ready, and
# a reader that falls behind gets the newest 4096 lines (that one is in
# known-bugs.bats: cufs keeps more). Each test has its own mount and
# workload; every wait has a bound.

load helpers

setup() {
	cufs_env
	start_cufs
	start_workload A
}

teardown() {
	cleanup_all
}

@test "events: O_NONBLOCK with no line ready fails with EAGAIN" {
	run timeout 10 python3 -c '
import errno, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
try:
    os.read(fd, 4096)
    print("a line")
except OSError as e:
    print(errno.errorcode[e.errno])' "$MNT/events"
	assert_output EAGAIN
}

# The reader opens the file, says "open" through a file, and polls for at
# most 10 s; the test makes an event once the reader is open.
@test "events: poll(2) wakes when a new line is ready, and the read returns it" {
	timeout 20 python3 -c '
import os, select, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
open(sys.argv[2], "w").close()
p = select.poll()
p.register(fd, select.POLLIN)
print("ready" if p.poll(10000) else "no wake")
sys.stdout.flush()
print(os.read(fd, 65536).decode(), end="")' "$MNT/events" "$WORK/open" \
		>"$WORK/poll.out" 2>&1 3>&- &
	reader=$!
	wait_for test -e "$WORK/open" || fail "the reader did not open events"
	wl_cmd A "prefetch gpu1"
	wait "$reader" || fail "the reader failed: $(cat "$WORK/poll.out")"
	run head -1 "$WORK/poll.out"
	assert_output ready
	run grep -c "^$A_pid .* prefetch alloc=$A_managed " "$WORK/poll.out"
	assert_output 1
}
