#!/usr/bin/env bats
# tenants.bats - DESIGN.md, "Threat model: sockets, names, privacy,
# budgets": cufs run by root with allow_other and a shared sticky run dir,
# as the service runs it, serves users who do not trust each other. alice
# and bob (members of the machine's group) and eve (outside it) are users
# this file makes and removes; each test's processes go with it.

load helpers

ALICE=cuemu-t-alice
BOB=cuemu-t-bob
EVE=cuemu-t-eve
GRP=cuemu-t-grp
# A python3 the other users may run (root's may be in root's home).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

users_remove() {
	local u
	for u in "$ALICE" "$BOB" "$EVE"; do
		id "$u" >/dev/null 2>&1 && userdel "$u"
	done
	getent group "$EVE" >/dev/null && groupdel "$EVE"
	getent group "$GRP" >/dev/null && groupdel "$GRP"
	return 0
}

users_make() {
	users_remove
	groupadd "$GRP" &&
		useradd -M -N -g "$GRP" -s /usr/sbin/nologin "$ALICE" &&
		useradd -M -N -g "$GRP" -s /usr/sbin/nologin "$BOB" &&
		useradd -M -U -s /usr/sbin/nologin "$EVE"
}

# as_user USER CMD...: CMD as USER, with USER's groups.
as_user() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"
}

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	users_make
	cufs_env
	# As /run/cuemu: root's, sticky, every user's sockets in it.
	chmod 1777 "$CUEMU_RUNDIR"
	export CUEMU_GROUP=$GRP
	start_cufs -o allow_other
}

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root to make the users alice, bob and eve"
	mounted || start_cufs -o allow_other
}

teardown() {
	[ "$(id -u)" = 0 ] || return 0
	stop_workloads
	rm -rf "$WORK"/u-* "$WORK"/*.fifo "$WORK"/*.ids "$WORK"/*.out \
		"$WORK"/impostor.* "$WORK"/next.*
	# what eve left in /dev/shm
	find /dev/shm -maxdepth 1 -user "$EVE" -name "$CUEMU_MACHINE-*" -delete
}

teardown_file() {
	[ "$(id -u)" = 0 ] || return 0
	cleanup_all
	users_remove
}

# start_as USER NAME [FIFO]: examples/workload as USER, its files in
# $WORK/u-NAME (USER's), its ids loaded as NAME_*; once cufs shows it.
# With FIFO, the pid read from it is the one the workload is to get: the
# kernel's next pid is set to it just before the one fork, with nothing
# between (a pid another process takes first is not the workload's).
start_as() {
	local u=$1 name=$2 d=$WORK/u-$2 pid_var g want
	g=$(id -g "$u")
	mkdir -m 755 "$d"
	chown "$u" "$d"
	mkfifo -m 644 "$WORK/$name.fifo"
	chown "$u" "$WORK/$name.fifo"
	if [ -n "${3:-}" ]; then
		read -r want <"$3" || return 1
		echo $((want - 1)) >/proc/sys/kernel/ns_last_pid
	fi
	setpriv --reuid="$u" --regid="$g" --init-groups "$WORKLOAD" \
		--ids "$d/ids" --fifo "$WORK/$name.fifo" --out "$d/out" \
		>"$d/log" 2>&1 3>&- &
	echo $! >"$WORK/$name.pid"
	[ -z "${3:-}" ] || echo "$want" >"$3.pid"
	wait_for test -s "$d/ids" || { cat "$d/log" >&2; return 1; }
	cp "$d/ids" "$WORK/$name.ids"
	ln -sf "$d/out" "$WORK/$name.out"
	load_ids "$name"
	pid_var=${name}_pid
	[ -n "${NOSHOW:-}" ] || wait_for test -d "$MNT/processes/${!pid_var}" ||
		{ echo "cufs does not show $name" >&2; return 1; }
}

# next_pid: a pid no process has in P, and for start_as's FIFO in
# $WORK/next.fifo.
next_pid() {
	local max
	max=$(cat /proc/sys/kernel/pid_max)
	P=$(($(cat /proc/sys/kernel/ns_last_pid) + 2000))
	# pids wrap to 300 and up
	while [ "$P" -ge "$max" ] || [ -e "/proc/$P" ]; do
		P=$((P >= max - 1 ? 301 : P + 1))
	done
	rm -f "$WORK/next.fifo"
	mkfifo "$WORK/next.fifo"
	echo "$P" >"$WORK/next.fifo" &
}

# ---------------------------------------------------------------- sockets

# impostor: as bob, a child listens on <rundir>/<its pid>.sock, hands the
# listener to its parent and exits; the parent answers every request on it
# like a process (an event line "forged" to events), writing each request
# to $WORK/impostor.log. The child's pid, once it is gone, goes to the
# fifo $WORK/impostor.out.
impostor() {
	rm -f "$WORK/impostor.log" "$WORK/impostor.out"
	touch "$WORK/impostor.log"
	mkfifo "$WORK/impostor.out"
	chown "$BOB" "$WORK/impostor.log"
	as_user "$BOB" "$PY" -c '
import json, os, socket, sys
rundir, machine, log = sys.argv[1:4]
a, b = socket.socketpair()
child = os.fork()
if child == 0:
    d = os.open(rundir, os.O_PATH | os.O_DIRECTORY)
    s = socket.socket(socket.AF_UNIX)
    s.bind("/proc/self/fd/%d/%d.sock" % (d, os.getpid()))
    s.listen(8)
    socket.send_fds(a, [b"x"], [s.fileno()])
    os._exit(0)
_, fds, _, _ = socket.recv_fds(b, 1, 1)
os.waitpid(child, 0)
listener = socket.socket(fileno=fds[0])
print(child, flush=True)
while True:
    c, _ = listener.accept()
    for raw in c.makefile("rb"):
        with open(log, "a") as f:
            f.write(raw.decode())
        req = json.loads(raw)
        ans = {"ok": True, "pid": child, "uid": os.getuid(),
               "cmdline": "impostor", "version": "0", "machine": machine,
               "ids": [], "value": {}, "events": [], "last": 0}
        if req.get("op") == "events" and req.get("since", 0) < 1:
            ans["events"] = [{"seq": 1, "line": "forged"}]
            ans["last"] = 1
        c.sendall((json.dumps(ans) + "\n").encode())
' "$CUEMU_RUNDIR" "$CUEMU_MACHINE" "$WORK/impostor.log" \
		>"$WORK/impostor.out" 3>&- &
	echo $! >"$WORK/impostor.pid"
}

@test "a listener made by an earlier process of the pid is not the process" {
	[ -w /proc/sys/kernel/ns_last_pid ] || skip "needs ns_last_pid to reuse a pid"
	local try P
	for try in 1 2 3 4 5; do
		impostor
		# The pid is free, and bob's socket is at its name: alice's
		# next process gets the pid (and cannot bind the name).
		start_as "$ALICE" A "$WORK/impostor.out" || fail "no workload"
		P=$(cat "$WORK/impostor.out.pid")
		[ "$A_pid" = "$P" ] &&
			[ "$(stat -c %U "$CUEMU_RUNDIR/$P.sock")" = "$BOB" ] && break
		echo "# try $try: pid $P taken first, or its socket reaped" >&2
		stop_workloads
		rm -rf "$WORK"/A.* "$WORK/u-A" "$WORK"/impostor.*
	done
	[ "$A_pid" = "$P" ] || skip "pid $P was taken by another process five times"
	run write_errno "$MNT/allocations/$A_device/label" stolen
	assert_output ECONNREFUSED
	run grep -c '"op": *"set"' "$WORK/impostor.log"
	assert_output 0
	grep -q "listener at .*/$P.sock is not that process" "$WORK/cufs.log"
	# nor are its lines taken as alice's process's
	sleep 0.5
	run cat "$MNT/processes/$P/events"
	refute_output --partial forged
	run cat "$MNT/events"
	refute_output --partial forged
}

# ---------------------------------------------------------------- names

@test "thousands of files named like segments hide no live process" {
	start_as "$ALICE" A
	# eve's files, named for free pids and for live ones not hers
	as_user "$EVE" "$PY" -c '
import os, sys
m = sys.argv[1]
for p in list(range(4000000, 4004200)) + [1, int(sys.argv[2])]:
    open("/dev/shm/%s-proc-%d" % (m, p), "w").close()
' "$CUEMU_MACHINE" "$(cat "$WORK/cufs.pid")"
	# two rescans at least
	sleep 0.3
	run ls "$MNT/processes"
	assert_output "$A_pid"
	[ "$(cat "$MNT/processes/$A_pid/pid")" = "$A_pid" ]
	run grep -c "processes publish" "$WORK/cufs.log"
	assert_output 0
	# and they are not cufs's to remove (root's though it is)
	[ -e "/dev/shm/$CUEMU_MACHINE-proc-4000000" ]
}

# start_at USER NAME: start_as USER NAME with a free pid P, and eve's file
# $SHM_NAME (a printf format of P) made first; up to five tries while
# another process takes P first. NOSHOW as for start_as.
start_at() {
	local try
	for try in 1 2 3 4 5; do
		next_pid
		as_user "$EVE" touch "/dev/shm/$(printf "$SHM_NAME" "$P")"
		start_as "$1" "$2" "$WORK/next.fifo" || return 1
		local pid_var=${2}_pid
		[ "${!pid_var}" = "$P" ] && return 0
		stop_workload "$2"
		rm -rf "$WORK/$2".* "$WORK/u-$2"
	done
	skip "five pids were taken by other processes first"
}

@test "a name taken first keeps no process out of /cu, or it says so" {
	# eve's file where libcuemu made each generation before renaming it
	SHM_NAME="$CUEMU_MACHINE-proc-%d.new" start_at "$ALICE" A
	[ "$(cat "$MNT/processes/$A_pid/pid")" = "$A_pid" ]
	# and one with eve's file at the name itself: it cannot publish,
	# and says so without CUEMU_DEBUG
	SHM_NAME="$CUEMU_MACHINE-proc-%d" NOSHOW=1 start_at "$ALICE" B
	run cat "$WORK/u-B/log"
	assert_output --partial "cuemu: cannot publish this process's state: /dev/shm/$CUEMU_MACHINE-proc-$B_pid is held by a file of $EVE (uid $(id -u "$EVE"))"
	assert_output --partial "cufs will not show pid $B_pid"
	[ ! -e "$MNT/processes/$B_pid" ]
}

# ---------------------------------------------------------------- privacy

@test "another user sees a process's directory, never what is in it" {
	start_as "$ALICE" A
	for u in "$EVE" "$BOB"; do
		# listed, as ps lists pids, but closed: mode 0500, alice's
		run as_user "$u" ls "$MNT/processes"
		assert_line "$A_pid"
		run as_user "$u" stat -c '%a %U' "$MNT/processes/$A_pid"
		assert_output "500 $ALICE"
		for f in cmdline json events last_error; do
			run as_user "$u" cat "$MNT/processes/$A_pid/$f"
			assert_failure
			assert_output --partial "Permission denied"
		done
		run as_user "$u" ls "$MNT/processes/$A_pid"
		assert_failure
		assert_output --partial "Permission denied"
		# its objects: no base address, no label, no residency
		for f in json label base ranges; do
			run as_user "$u" cat "$MNT/allocations/$A_managed/$f"
			assert_failure
			assert_output --partial "Permission denied"
		done
		run as_user "$u" ls "$MNT/allocations/$A_managed"
		assert_failure
		# the snapshot leaves it out; the whole log is root's
		run as_user "$u" cat "$MNT/snapshot.json"
		assert_success
		refute_output --partial "\"$A_pid\": {"
		refute_output --partial "$A_managed_base"
		run as_user "$u" cat "$MNT/events"
		assert_failure
		assert_output --partial "Permission denied"
		run as_user "$u" cat "$MNT/events_pipe"
		assert_failure
		# and the machine's totals are everyone's
		run as_user "$u" cat "$MNT/devices/gpu0/used_memory"
		assert_success
	done
	# alice sees all of hers, root everything
	run as_user "$ALICE" cat "$MNT/processes/$A_pid/pid"
	assert_output "$A_pid"
	run as_user "$ALICE" cat "$MNT/snapshot.json"
	assert_output --partial "\"$A_pid\": {"
	run cat "$MNT/allocations/$A_managed/kind"
	assert_output managed
}

# ---------------------------------------------------------------- budgets

@test "one user's streams leave the others theirs" {
	start_as "$ALICE" A
	start_as "$BOB" B
	# bob opens as many streams as cufs has, and holds them
	as_user "$BOB" "$PY" -c '
import errno, os, sys, time
fds = []
for i in range(200):
    try:
        fds.append(os.open(sys.argv[1], os.O_RDONLY))
    except OSError as e:
        print("refused", errno.errorcode[e.errno], flush=True)
        break
print("open", len(fds), flush=True)
time.sleep(600)
' "$MNT/processes/$B_pid/events_pipe" >"$WORK/u-B/streams" 3>&- &
	echo $! >"$WORK/streams.pid"
	wait_for grep -q '^open' "$WORK/u-B/streams"
	run cat "$WORK/u-B/streams"
	assert_line "refused EMFILE"
	assert_line "open 48"
	grep -q "events_pipe open by uid $(id -u "$BOB") refused" "$WORK/cufs.log"
	# alice still opens hers
	run as_user "$ALICE" timeout 5 "$PY" -c '
import os, sys
os.close(os.open(sys.argv[1], os.O_RDONLY)); print("opened")
' "$MNT/processes/$A_pid/events_pipe"
	assert_output opened
}
