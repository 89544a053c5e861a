# helpers.bash - what the end-to-end tests share: where the binaries are, a
# private machine and run dir, cufs mounted in the foreground, workloads
# driven through a fifo, and a teardown that leaves nothing behind even when
# a test fails.

_lib=${BATS_LIB_PATH:-/usr/lib/bats}
load "$_lib/bats-support/load"
load "$_lib/bats-assert/load"

: "${top_builddir:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
CUFS=$top_builddir/cufs/cufs
WORKLOAD=$top_builddir/examples/workload

# Everything of one test file lives under $WORK; the pids of what it
# started are files there, so teardown finds them whatever the tests did.
cufs_env() {
	WORK=$(mktemp -d /tmp/cufs-bats.XXXXXX)
	chmod 755 "$WORK" # other users' tests must reach the mount
	export WORK MNT=$WORK/cu
	export CUEMU_RUNDIR=$WORK/run CUEMU_MACHINE=cufs-bats-$$-$RANDOM
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
	[ -d "$MNT/devices" ]
}

start_cufs() {
	# fd 3 is bats's: a background child holding it would stall bats.
	local opts=()
	# Other users' view needs allow_other, which a user may ask for only
	# when /etc/fuse.conf says user_allow_other; root always may.
	if [ "$(id -u)" = 0 ] || grep -qs '^user_allow_other' /etc/fuse.conf; then
		opts=(-o allow_other)
	fi
	# In a subshell: not a job of the test's shell, so killing it is quiet.
	("$CUFS" -f "${opts[@]}" "$MNT" >>"$WORK/cufs.log" 2>&1 3>&- &
	 echo $! >"$WORK/cufs.pid")
	wait_for mounted || { cat "$WORK/cufs.log" >&2; return 1; }
}

stop_cufs() {
	fusermount3 -u "$MNT" 2>/dev/null || fusermount3 -u -z "$MNT" 2>/dev/null || true
	if [ -f "$WORK/cufs.pid" ]; then
		kill "$(cat "$WORK/cufs.pid")" 2>/dev/null || true
		rm -f "$WORK/cufs.pid"
	fi
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
	wait_for bash -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null || true
	rm -f "$WORK/$name.pid"
}

# wl_query NAME: what the workload's API calls say now, as key=value lines.
wl_query() {
	local name=$1 tag=q$RANDOM$RANDOM
	echo "query $tag" >"$WORK/$name.fifo"
	wait_for grep -q "^$tag done" "$WORK/$name.out" || return 1
	grep "^$tag " "$WORK/$name.out" | grep -v " done$" | sed "s/^$tag //"
}

# wl_attr NAME KEY: one value of wl_query.
wl_attr() {
	wl_query "$1" | sed -n "s/^$2=//p"
}

# wl_cmd NAME COMMAND: a command to the workload; waits until it ran (the
# workload answers commands in order, so a query after it is a fence).
wl_cmd() {
	echo "$2" >"$WORK/$1.fifo"
	wl_query "$1" >/dev/null
}

json_valid() {
	if command -v jq >/dev/null; then
		jq -e . "$1" >/dev/null
	else
		python3 -m json.tool "$1" >/dev/null
	fi
}

cleanup_all() {
	local f
	for f in "$WORK"/*.pid; do
		[ -e "$f" ] || continue
		case $f in
		*/cufs.pid) ;;
		*) stop_workload "$(basename "$f" .pid)" ;;
		esac
	done
	stop_cufs
	rm -f "/dev/shm/$CUEMU_MACHINE"
	rm -rf "$WORK"
}
