#!/usr/bin/env bats
# events.bats - the event log end to end: events read as a log file (cat
# ends, tail -n, tail -f), events_pipe as a stream, the per-process views,
# and every place a reader can fall behind saying so. Every wait is
# bounded; what a test starts is a $WORK/*.pid file, stopped by teardown.

load helpers

# Each test has a cufs and a workload of its own: what one test writes,
# floods or drops is not the next one's starting point.
# The workload's last line of its start is in the log, so that what a
# test reads or streams next comes after it.
setup() {
	cufs_env
	start_cufs
	start_workload A
	wait_for grep -q "^$A_pid .* vmm_access reservation=$A_reservation " \
		"$MNT/events" || fail "A's start is not in the log"
}

teardown() {
	cleanup_all
}

# bg NAME CMD...: runs CMD in the background as NAME, for teardown to stop.
bg() {
	local name=$1
	shift
	"$@" 3>&- &
	echo $! >"$WORK/$name.pid"
}

# fds_of NAME FILE: the /proc fd links by which NAME, or the command it
# runs (timeout(1) runs it as a child), has FILE open.
fds_of() {
	local pid p fd
	pid=$(cat "$WORK/$1.pid") || return 0
	for p in "$pid" $(pgrep -P "$pid"); do
		for fd in /proc/"$p"/fd/*; do
			[ "$(readlink "$fd")" = "$2" ] && echo "$fd"
		done
	done
	return 0
}

# has_open NAME FILE: NAME has FILE open (its open(2) has returned).
has_open() {
	[ -n "$(fds_of "$1" "$2")" ]
}

# read_to_end NAME FILE: NAME has FILE open and has read all of it that
# there is now (its offset is the file's size).
read_to_end() {
	local fd pos
	for fd in $(fds_of "$1" "$2"); do
		pos=$(sed -n 's/^pos:[[:space:]]*//p' "${fd%/fd/*}/fdinfo/${fd##*/}")
		[ "$pos" -gt 0 ] && [ "$pos" = "$(stat -c %s "$2")" ] && return 0
	done
	return 1
}

# bg_wait NAME: waits for NAME to end; its status.
bg_wait() {
	local rc=0
	wait "$(cat "$WORK/$1.pid")" || rc=$?
	rm -f "$WORK/$1.pid"
	return $rc
}

# fake NAME START PER TEXT: a process that answers like libcuemu for the
# event log: its log's first line is seq START (those before were dropped
# by its ring), each events request adds PER lines "TEXT <seq>", and an
# answer has at most what was asked and only the newest 4096. It publishes
# a segment with its process record (runtime/outward/pubseg.h), as
# libcuemu does, so that cufs shows it.
fake() {
	python3 -c '
import json, os, socket, struct, sys
start, per, text = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pid = os.getpid()
stat = open("/proc/self/stat").read()
started = int(stat[stat.rindex(")") + 2:].split()[19])
rec = json.dumps({"pid": pid, "uid": os.getuid(), "cmdline": "fake",
                  "machine": os.environ["CUEMU_MACHINE"]}).encode()
head = struct.pack("<QIIQiIQQQQQQIIQ", 0x627570756d657563, 1, 96, 12288,
                   pid, os.getuid(), started, 1, 4096, 16, 8192, 4096, 0, 0, 1)
slot = struct.pack("<QQIIQQ", 0, 0, 1, len(rec), 0, 4096)
seg = "/dev/shm/%s-proc-%d" % (os.environ["CUEMU_MACHINE"], pid)
with open(seg + ".new", "wb") as f:
    f.write(head.ljust(4096, b"\0") + slot.ljust(4096, b"\0") +
            rec.ljust(4096, b"\0"))
os.rename(seg + ".new", seg)
s = socket.socket(socket.AF_UNIX)
# through the run dir, as libcuemu binds: it may lie deeper than a socket
# address holds
d = os.open(os.environ["CUEMU_RUNDIR"], os.O_PATH)
s.bind("/proc/self/fd/%d/%d.sock" % (d, pid))
s.listen(8)
last = start - 1
while True:
    c, _ = s.accept()
    for raw in c.makefile("rb"):
        req = json.loads(raw)
        a = {"ok": True, "pid": pid, "uid": os.getuid(), "cmdline": "fake",
             "version": "0", "machine": os.environ["CUEMU_MACHINE"],
             "ids": [], "value": {}}
        if req.get("op") == "events":
            last += per
            q = max(req.get("since", 0) + 1, start, last - 4095)
            n = min(last - q + 1, req.get("max", 1024))
            a["events"] = [{"seq": k, "line": "%s %d" % (text, k)}
                           for k in range(q, q + max(n, 0))]
            a["last"] = q + max(n, 0) - 1
        c.sendall((json.dumps(a) + "\n").encode())
' "$2" "$3" "$4" 3>&- &
	echo $! >"$WORK/$1.pid"
	wait_for test -S "$CUEMU_RUNDIR/$!.sock"
}

# dropped FILE KEY: one counter of an events_dropped file.
dropped() {
	sed -n "s/^$2 //p" "$1"
}

# dropped_over KEY N: whether the top events_dropped's KEY is over N.
dropped_over() {
	[ "$(dropped "$MNT/events_dropped" "$1")" -gt "$2" ]
}

DROPPED_RE='[0-9]+\.[0-9]{3} dropped lines=[0-9]+ in='

# ---------------------------------------------------------------- the log

@test "events: the root and each process have the log, the stream and the counters" {
	for d in "$MNT" "$MNT/processes/$A_pid"; do
		run ls "$d"
		assert_line events
		assert_line events_pipe
		assert_line events_dropped
		[ -f "$d/events" ] && [ -f "$d/events_pipe" ] || fail "$d"
	done
	run cat "$MNT/events_dropped"
	assert_output "$(printf 'process 0\nbudget 0\nlog 0\nreaders 0')"
}

@test "events: cat gives the lines kept so far, each prefixed by pid, and ends" {
	# The workload logged its objects before anyone read: they are kept.
	wait_for grep -q "^$A_pid .* alloc .*managed" "$MNT/events"
	run timeout 5 cat "$MNT/events"
	assert_success
	assert_line --regexp "^$A_pid [0-9]+\.[0-9]{3} pool_create "
	# Its size is what cat read, and grows with the log.
	[ "$(stat -c %s "$MNT/events")" = "$(timeout 5 cat "$MNT/events" | wc -c)" ]
}

@test "events: a read at an offset gives the log's bytes there" {
	timeout 5 cat "$MNT/events" >"$WORK/all"
	size=$(stat -c %s "$WORK/all")
	[ "$size" -gt 200 ]
	run timeout 5 dd if="$MNT/events" bs=1 skip=37 count=150 status=none
	[ "$output" = "$(tail -c +38 "$WORK/all" | head -c 150)" ]
	run timeout 5 dd if="$MNT/events" bs=1 skip="$size" status=none
	assert_output ""
}

@test "events: tail -n 5 prints five lines and exits" {
	timeout 5 cat "$MNT/events" >"$WORK/all"
	[ "$(wc -l <"$WORK/all")" -ge 5 ]
	run timeout 5 tail -n 5 "$MNT/events"
	assert_success
	[ "${#lines[@]}" = 5 ]
	assert_output "$(tail -n 5 "$WORK/all")"
}

@test "events: tail -f sees a prefetch written after it started" {
	bg tailf timeout 30 tail -n 0 -f "$MNT/events" >"$WORK/tailf"
	# tail -n 0 starts at the end: once it is there, what comes is new.
	wait_for read_to_end tailf "$MNT/events" || fail "tail did not reach the end"
	echo gpu3 >"$MNT/allocations/$A_managed/prefetch"
	wait_for grep -q "^$A_pid .*prefetch .* to gpu3" "$WORK/tailf" ||
		fail "tail -f showed no prefetch in 10 s: $(cat "$WORK/tailf")"
	# Only what came after it started, each line once.
	run grep -c "prefetch .* to gpu3" "$WORK/tailf"
	assert_output 1
	stop_workload tailf
}

# ---------------------------------------------------------------- the stream

@test "events_pipe: cat with a timeout streams what comes after it opened" {
	run timeout 1 cat "$MNT/events_pipe"
	[ "$status" = 124 ] || fail "cat ended: $status"
	assert_output ""
	bg pipe timeout 30 cat "$MNT/events_pipe" >"$WORK/pipe"
	wait_for has_open pipe "$MNT/events_pipe" || fail "cat did not open the stream"
	echo gpu1 >"$MNT/allocations/$A_managed/prefetch"
	wl_cmd A touch
	wait_for grep -q "^$A_pid .*prefetch .* to gpu1" "$WORK/pipe" || fail "no prefetch"
	wait_for grep -q "^$A_pid .*migrate " "$WORK/pipe" || fail "no migration"
	stop_workload pipe
}

@test "events_pipe: O_NONBLOCK gives EAGAIN, and poll wakes on a new line" {
	run timeout 20 python3 -c '
import errno, os, select, sys
pipe, prefetch = sys.argv[1], sys.argv[2]
fd = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
try:
    os.read(fd, 4096)
    sys.exit("a read with nothing there did not fail")
except BlockingIOError as e:
    assert e.errno == errno.EAGAIN
p = select.poll()
p.register(fd, select.POLLIN)
if p.poll(300):
    sys.exit("ready with nothing there")
with open(prefetch, "w") as f:
    f.write("gpu2\n")
if not p.poll(10000):
    sys.exit("poll did not wake in 10 s")
text = os.read(fd, 65536).decode()
assert text.endswith("\n"), text
print(text, end="")
' "$MNT/events_pipe" "$MNT/allocations/$A_managed/prefetch"
	assert_success
	assert_line --regexp "^$A_pid .*prefetch .* to gpu2"
}

# ---------------------------------------------------------------- one process

@test "events: a process's files show only its lines, and its stream ends with it" {
	start_workload B
	wait_for grep -q "^$B_pid " "$MNT/processes/$B_pid/events"
	timeout 5 cat "$MNT/processes/$B_pid/events" >"$WORK/b"
	run grep -vc "^$B_pid " "$WORK/b"
	assert_output 0
	grep -q "^$B_pid .*alloc managed" "$WORK/b" || fail "no alloc of B"
	[ "$(stat -c %s "$MNT/processes/$B_pid/events")" = "$(wc -c <"$WORK/b")" ]
	run timeout 5 tail -n 2 "$MNT/processes/$B_pid/events"
	assert_output "$(tail -n 2 "$WORK/b")"

	bg bpipe timeout 30 cat "$MNT/processes/$B_pid/events_pipe" >"$WORK/bpipe"
	wait_for has_open bpipe "$MNT/processes/$B_pid/events_pipe" ||
		fail "cat did not open B's stream"
	echo gpu1 >"$MNT/allocations/$A_managed/prefetch"
	echo gpu1 >"$MNT/allocations/$B_managed/prefetch"
	wait_for grep -q "prefetch" "$WORK/bpipe"
	echo exit >"$WORK/B.fifo"
	# The process is gone: its stream gives its last lines and ends.
	bg_wait bpipe || fail "the stream of a gone process did not end"
	grep -q "^$B_pid .*prefetch .* to gpu1" "$WORK/bpipe" || fail "no prefetch of B"
	run grep -vc "^$B_pid " "$WORK/bpipe"
	assert_output 0
}

@test "events: a process's event line cannot pose as another's" {
	fake F 1 1 "$(printf 'real\n%s forged' "$A_pid")"
	f=$(cat "$WORK/F.pid")
	wait_for grep -q "^$f real" "$MNT/events" || fail "no line of the fake"
	stop_workload F
	run grep "^$A_pid forged" "$MNT/events"
	assert_failure
	run grep -c "^$f real $A_pid forged [0-9]*$" "$MNT/events"
	[ "$output" -ge 1 ]
}

# ---------------------------------------------------------------- no silent loss

@test "events: lines a process's ring dropped before cufs read them are said and counted" {
	fake G 5 1 gap
	g=$(cat "$WORK/G.pid")
	wait_for grep -q "^$g gap 5$" "$MNT/processes/$g/events"
	run timeout 5 head -n 2 "$MNT/processes/$g/events"
	assert_line --index 0 --regexp "^$g $DROPPED_RE""process$"
	assert_line --index 0 --partial " lines=4 "
	assert_line --index 1 "$g gap 5"
	run cat "$MNT/processes/$g/events_dropped"
	assert_line "process 4"
	[ "$(dropped "$MNT/events_dropped" process)" -ge 4 ]
}

@test "events: a reader held back sees the dropped-lines line" {
	n_all=$(timeout 5 cat "$MNT/events" | wc -l)
	a_lines=$(timeout 5 cat "$MNT/processes/$A_pid/events" | wc -l)
	[ "$(dropped "$MNT/events_dropped" readers)" = 0 ]
	# A stream not read, and a file read 20 bytes into A's first line.
	exec {held}<"$MNT/events_pipe"
	exec {held_a}<"$MNT/processes/$A_pid/events"
	[ "$(timeout 5 dd bs=20 count=1 status=none <&$held_a | wc -c)" = 20 ]
	# A flood: lines faster than anyone reads, past what the log keeps.
	# One process holds a quarter of the log at most: five floods fill it.
	for h in H1 H2 H3 H4 H5; do
		fake $h 1 1024 flood
	done
	wait_for dropped_over log $((n_all + a_lines + 100))
	for h in H1 H2 H3 H4 H5; do
		stop_workload $h
	done
	sleep 0.5 # what the relay had taken from H is in

	# The stream's next lines are gone: it says so first.
	IFS= read -r -t 5 first <&$held || fail "no line from the held stream"
	exec {held}<&-
	[[ $first =~ ^cufs\ $DROPPED_RE"log"$ ]] || fail "first line: $first"
	# The file goes on where it was, past a newline that ends the part
	# of the line it had: every line of A is gone.
	a_gone=$(dropped "$MNT/processes/$A_pid/events_dropped" log)
	[ "$a_gone" = "$a_lines" ]
	run timeout 5 cat <&$held_a
	exec {held_a}<&-
	assert_output --regexp "^"$'\n'"$A_pid $DROPPED_RE""log$"
	assert_output --partial " lines=$a_gone "
	# Both count as readers that fell behind.
	[ "$(dropped "$MNT/processes/$A_pid/events_dropped" readers)" = "$a_gone" ]
	readers=$(dropped "$MNT/events_dropped" readers)
	[ "$readers" -gt "$a_gone" ]

	# Read from the start, the log first says how much it no longer
	# keeps; asking for old lines is not falling behind.
	gone=$(dropped "$MNT/events_dropped" log)
	run timeout 5 head -n 1 "$MNT/events"
	assert_output --regexp "^cufs $DROPPED_RE""log$"
	assert_output --partial " lines=$gone "
	run timeout 5 head -n 1 "$MNT/processes/$A_pid/events"
	assert_output --regexp "^$A_pid $DROPPED_RE""log$"
	[ "$(dropped "$MNT/events_dropped" readers)" = "$readers" ]
	# tail -n reaches only kept lines, without the dropped line.
	run timeout 5 tail -n 3 "$MNT/events"
	refute_output --partial " dropped "
	[ "${#lines[@]}" = 3 ]
}

# holds_over PID N: the log keeps more than N lines of PID.
holds_over() {
	[ "$(timeout 5 cat "$MNT/processes/$1/events" | wc -l)" -gt "$2" ]
}

@test "events: a flood logs on past a quarter of the log while it pushes out nobody's line" {
	# 1024 lines each time the relay asks, four asks a round: past a
	# quarter of the log (16,384 lines) within a second, the log not
	# yet full.
	fake K 1 1024 flood
	k_pid=$(cat "$WORK/K.pid")
	wait_for holds_over "$k_pid" 20000 || fail "K's flood stopped at $(
		timeout 5 cat "$MNT/processes/$k_pid/events" | wc -l) lines"
	[ "$(dropped "$MNT/processes/$k_pid/events_dropped" budget)" = 0 ]
	stop_workload K
}

@test "events: a flood that would push out another's recent lines is dropped, counted, and their lines stay" {
	first=$(timeout 5 head -n 1 "$MNT/processes/$A_pid/events")
	[ -n "$first" ]
	fake K 1 1024 flood
	k_pid=$(cat "$WORK/K.pid")
	# The log fills (65,536 lines); A's lines are at its head.
	wait_for dropped_over budget 0
	[ "$(dropped "$MNT/processes/$k_pid/events_dropped" budget)" -gt 0 ]
	# K holds all but the others' lines, and counts what it lost...
	a_lines=$(timeout 5 cat "$MNT/processes/$A_pid/events" | wc -l)
	k_lines=$(timeout 5 cat "$MNT/processes/$k_pid/events" | wc -l)
	[ "$k_lines" -gt 16384 ]
	[ "$((k_lines + a_lines))" -le 65536 ]
	stop_workload K
	# ... and nobody else's line left the log for it: A's first is there.
	[ "$(dropped "$MNT/processes/$A_pid/events_dropped" log)" = 0 ]
	run timeout 5 grep -cxF -- "$first" "$MNT/events"
	assert_output 1
}

# Each reader waiting for lines holds one of cufs's 256 threads: streams
# beyond 192 open at once are refused, so that the rest of /cu goes on.
@test "events_pipe: the stream past the 192nd open is refused with EMFILE, said in the log" {
	run timeout 30 python3 -c '
import errno, os, sys
fds = []
try:
    for i in range(200):
        fds.append(os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK))
except OSError as e:
    print("open %d: %s" % (len(fds) + 1, errno.errorcode[e.errno]))
for fd in fds:
    os.close(fd)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
os.close(fd)
print("after closing: ok")
' "$MNT/events_pipe"
	assert_success
	assert_line "open 193: EMFILE"
	assert_line "after closing: ok"
	grep -q "an events_pipe open refused: 192 streams are open already" "$WORK/cufs.log"
	run timeout 5 cat "$MNT/devices/gpu0/total_memory"
	assert_success
}
