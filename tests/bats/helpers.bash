# helpers.bash - what the end-to-end tests share: where the binaries are, a
# private machine and run dir, cufs mounted in the foreground, workloads
# driven through a fifo, and a teardown that leaves nothing behind even when
# a test fails. Mounting, waiting and the residency assertions are the
# users' library's (share/bats/cufs.bash, cufs-bats(7)), as installed.

_lib=${BATS_LIB_PATH:-/usr/lib/bats}
load "$_lib/bats-support/load"
load "$_lib/bats-assert/load"

: "${top_builddir:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${top_srcdir:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
CUFS=$top_builddir/cufs/cufs
WORKLOAD=$top_builddir/examples/workload
export CUFS_BIN=$CUFS CUEMU_RUN_BIN=$top_builddir/tools/cuemu-run/cuemu-run
load "$top_srcdir/share/bats/cufs.bash"

# Everything of one test file lives under $WORK; the pids of what it
# started are files there, so teardown finds them whatever the tests did.
# The machine's name starts with the one make check gives the test
# (tests/private-machine.sh), so that what a crash leaves is removed too.
cufs_env() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/cufs-bats.XXXXXX")
	chmod 755 "$WORK" # other users' tests must reach the mount
	export WORK MNT=$WORK/cu
	export CUEMU_RUNDIR=$WORK/run
	export CUEMU_MACHINE=${CUEMU_MACHINE:-cufs-bats}-$$-$RANDOM
	export CUFS_WORK=$WORK CUFS_MNT=$MNT
	mkdir -p "$MNT" "$CUEMU_RUNDIR"
}

# wait_for CMD... : until CMD succeeds, for at most 10 s.
wait_for() {
	local i
	for i in $(seq 100); do
		"$@" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

mounted() {
	cufs_mounted "$MNT"
}

# start_cufs [ARG...]: cufs -f on $MNT, with ARGs before the mount point
# (cufs_mount: its pid in $WORK/cufs.pid, its output in $WORK/cufs.log).
start_cufs() {
	cufs_mount "$MNT" "$@" || return 1
	# The machine it shows, for start_workload.
	local m=$CUEMU_MACHINE a prev=
	for a in "$@"; do
		[ "$prev" = --machine ] && m=$a
		prev=$a
	done
	echo "$m" >"$WORK/cufs.machine"
}

stop_cufs() {
	cufs_unmount "$MNT"
}

# start_workload NAME: runs examples/workload with $WORK/NAME.{fifo,out,ids}
# and loads its ids into variables prefixed NAME_ (A_pid, A_managed, ...).
start_workload() {
	local name=$1
	mkfifo "$WORK/$name.fifo"
	"$WORKLOAD" --ids "$WORK/$name.ids" --fifo "$WORK/$name.fifo" \
		--out "$WORK/$name.out" >"$WORK/$name.log" 2>&1 3>&- &
	echo $! >"$WORK/$name.pid"
	wait_for test -s "$WORK/$name.ids" || { cat "$WORK/$name.log" >&2; return 1; }
	load_ids "$name"
	# cufs looks at the run dir at most every 100 ms (cufs(8)): a test
	# starts once the mount shows the process, if it is to show it.
	if mounted && [ "$CUEMU_MACHINE" = "$(cat "$WORK/cufs.machine" 2>/dev/null)" ]; then
		local pid_var=${name}_pid
		wait_for test -d "$MNT/processes/${!pid_var}" ||
			{ echo "cufs does not show $name" >&2; return 1; }
	fi
}

load_ids() {
	local name=$1 k v
	while IFS== read -r k v; do
		printf -v "${name}_$k" '%s' "$v"
		export "${name}_$k"
	done <"$WORK/$name.ids"
}

stop_workload() {
	local name=$1 pid
	[ -f "$WORK/$name.pid" ] || return 0
	pid=$(cat "$WORK/$name.pid")
	kill "$pid" 2>/dev/null || true
	kill -CONT "$pid" 2>/dev/null || true # a stopped one must see it
	wait_for bash -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null || true
	rm -f "$WORK/$name.pid"
}

# to_fifo NAME LINE: one line to the workload's fifo; fails after 5 s
# instead of blocking when nothing reads it (the workload died).
to_fifo() {
	timeout 5 bash -c 'printf "%s\n" "$1" >"$2"' _ "$2" "$WORK/$1.fifo"
}

# wl_query NAME: what the workload's API calls say now, as key=value lines.
# A workload that does not answer within 10 s prints "<no answer from
# NAME>" and fails, so that no comparison of its output can pass by chance.
wl_query() {
	local name=$1 tag=q$RANDOM$RANDOM
	if ! to_fifo "$name" "query $tag" ||
	   ! wait_for grep -q "^$tag done" "$WORK/$name.out"; then
		echo "<no answer from $name>"
		return 1
	fi
	grep "^$tag " "$WORK/$name.out" | grep -v " done$" | sed "s/^$tag //"
}

# wl_attr NAME KEY: one value of wl_query; "<no answer from NAME>" or
# "<no KEY>" when there is none, never an empty line by accident.
wl_attr() {
	local out
	out=$(wl_query "$1") || { echo "$out"; return 1; }
	printf '%s\n' "$out" | grep -q "^$2=" || { echo "<no $2>"; return 1; }
	printf '%s\n' "$out" | sed -n "s/^$2=//p"
}

# wl_cmd NAME COMMAND: a command to the workload; waits until it ran (the
# workload answers commands in order, so a query after it is a fence).
wl_cmd() {
	to_fifo "$1" "$2" || fail "workload $1 does not read its commands"
	wl_query "$1" >/dev/null || fail "workload $1 does not answer"
}

json_valid() {
	if command -v jq >/dev/null; then
		jq -e . "$1" >/dev/null
	else
		python3 -m json.tool "$1" >/dev/null
	fi
}

# stop_workloads: every workload (and fake) a test started.
stop_workloads() {
	local f
	for f in "$WORK"/*.pid; do
		[ -e "$f" ] || continue
		case $f in
		*/cufs.pid) ;;
		*) stop_workload "$(basename "$f" .pid)" ;;
		esac
	done
}

cleanup_all() {
	stop_workloads
	stop_cufs
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-proc-*
	rm -rf "$WORK"
}

# The lifecycle most files share: one mount for the file and a fresh
# workload A for each test, so that no test sees what another changed and
# any test can run alone (bats -f). A file that calls workload_lifecycle
# gets setup_file, setup, teardown and teardown_file made of these; one
# that needs more redefines a function after the call, calling the part
# here (workload_teardown also removes the files named after it).
mount_setup_file() {
	cufs_env
	start_cufs
}

workload_setup() {
	mounted || start_cufs
	start_workload A
}

workload_teardown() {
	stop_workloads
	rm -f "$WORK"/*.fifo "$WORK"/*.out "$WORK"/*.ids "$@"
}

workload_lifecycle() {
	setup_file() { mount_setup_file; }
	setup() { workload_setup; }
	teardown() { workload_teardown; }
	teardown_file() { cleanup_all; }
}

# write_errno FILE TEXT: writes TEXT and a newline to FILE in one write(2),
# as echo does, and prints what it got: "ok", or the errno's name (EINVAL,
# ENODEV...), for an open or a write that failed. Bounded by timeout(1).
# EOPNOTSUPP and ENOTSUP are one number on Linux; cufs(5) says EOPNOTSUPP.
write_errno() {
	timeout 10 python3 -c '
import errno, os, sys
def name(e):
    return "EOPNOTSUPP" if e == errno.EOPNOTSUPP else errno.errorcode[e]
try:
    fd = os.open(sys.argv[1], os.O_WRONLY)
except OSError as e:
    print("open " + name(e.errno)); sys.exit(0)
try:
    os.write(fd, (sys.argv[2] + "\n").encode())
    print("ok")
except OSError as e:
    print(name(e.errno))
' "$1" "$2"
}

# last_result PID: the CUresult name in the process's last_error.
last_result() {
	sed -n 's/^result //p' "$MNT/processes/$1/last_error"
}
