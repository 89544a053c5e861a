# cufs.bash - a Bats library for tests of where a program's GPU memory
# lives, on an emulated machine of the test's own (cufs-bats(7)):
#
#   load "$(pkg-config --variable=batsdir cuemu)/cufs.bash"
#   setup()    { cufs_setup; }
#   teardown() { cufs_teardown; }
#   @test "weights stay on gpu0" {
#       cufs_start_workload train examples/workloads/training-loop.json
#       id=$(cufs_wait_label weights)
#       assert_preferred "$id" none
#   }
#
# cufs_setup makes a private machine (CUEMU_MACHINE), run dir and cufs
# mount ($CUFS_MNT) under a scratch directory ($CUFS_WORK); cufs_teardown,
# which Bats runs after a test whether it passed or failed, stops what the
# test started and removes all of it. Every assertion says what it found
# when it fails: the allocation's residency, policy or counters.
#
# Commands it runs: $CUFS_BIN (cufs), $CUEMU_RUN_BIN (cuemu-run),
# fusermount3; set the first two to use a build tree's.

: "${CUFS_BIN:=cufs}"
: "${CUEMU_RUN_BIN:=cuemu-run}"

# _cufs_fail TITLE [LINE...]: a failure message, bats-assert's shape, on
# stderr; returns 1.
_cufs_fail() {
	local title=$1
	shift
	{
		echo "-- $title --"
		printf '%s\n' "$@"
		echo "--"
	} >&2
	return 1
}

# wait_until SECONDS COMMAND [ARG...]: runs COMMAND every 0.1 s until it
# succeeds; fails after SECONDS, showing COMMAND's last output.
wait_until() {
	local secs=$1 out i tries
	shift
	[[ $secs =~ ^[0-9]+([.][0-9]+)?$ ]] ||
		{ _cufs_fail "wait_until: '$secs' is not a number of seconds"; return 1; }
	tries=$(awk -v s="$secs" 'BEGIN { n = int(s * 10); print n < 1 ? 1 : n }')
	for ((i = 0; i < tries; i++)); do
		out=$("$@" 2>&1) && return 0
		sleep 0.1
	done
	_cufs_fail "wait_until: not true within $secs s" \
		"command : $*" "output  : ${out:-<none>}"
}

# cufs_mounted [MNT]: cufs shows a machine at MNT.
cufs_mounted() {
	[ -d "${1:-$CUFS_MNT}/devices" ]
}

# cufs_mount MNT [ARG...]: cufs in the foreground of a background job on
# MNT, with ARGs before the mount point; its pid in $CUFS_WORK/cufs.pid.
cufs_mount() {
	local mnt=$1 opts=()
	shift
	# Other users' view needs allow_other, which a user may ask for only
	# when /etc/fuse.conf says user_allow_other; root always may.
	if [ "$(id -u)" = 0 ] || grep -qs '^user_allow_other' /etc/fuse.conf; then
		opts=(-o allow_other)
	fi
	# A background command of a script starts with SIGINT ignored, and
	# libfuse leaves an ignored signal alone: cufs gets SIGINT's default
	# back, as from a terminal. fd 3 is Bats's: a child holding it would
	# stall Bats.
	(python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$(command -v "$CUFS_BIN")" -f \
		"${opts[@]}" "$@" "$mnt" >>"$CUFS_WORK/cufs.log" 2>&1 3>&- &
	 echo $! >"$CUFS_WORK/cufs.pid")
	wait_until 10 cufs_mounted "$mnt" 2>/dev/null ||
		_cufs_fail "cufs did not mount $mnt" "$(cat "$CUFS_WORK/cufs.log")"
}

# cufs_unmount MNT: unmounts and stops cufs.
cufs_unmount() {
	local pid
	fusermount3 -u "$1" 2>/dev/null || fusermount3 -u -z "$1" 2>/dev/null || true
	if [ -f "$CUFS_WORK/cufs.pid" ]; then
		pid=$(cat "$CUFS_WORK/cufs.pid")
		kill "$pid" 2>/dev/null || true
		rm -f "$CUFS_WORK/cufs.pid"
	fi
}

# cufs_setup [--topology FILE] [--no-mount]: a machine, run dir and mount
# of the test's own. Exports CUFS_WORK, CUFS_MNT, CUEMU_MACHINE,
# CUEMU_RUNDIR (and CUEMU_TOPOLOGY with --topology). What it made is
# removed again when it fails.
cufs_setup() {
	local mount=1
	while [ $# -gt 0 ]; do
		case $1 in
		--topology) export CUEMU_TOPOLOGY=$2; shift 2 ;;
		--no-mount) mount=0; shift ;;
		*) _cufs_fail "cufs_setup: unknown argument '$1'"; return 1 ;;
		esac
	done
	CUFS_WORK=$(mktemp -d "${BATS_TEST_TMPDIR:-${TMPDIR:-/tmp}}/cufs.XXXXXX") ||
		return 1
	chmod 755 "$CUFS_WORK" # other users' tests must reach the mount
	export CUFS_WORK CUFS_MNT=$CUFS_WORK/cu CUEMU_RUNDIR=$CUFS_WORK/run
	# A name of its own, after the one a wrapper may have given the test,
	# so that the wrapper's clean-up finds what a crash leaves.
	export CUEMU_MACHINE=${CUEMU_MACHINE:-cufs-bats}-$$-$RANDOM
	mkdir -p "$CUFS_MNT" "$CUEMU_RUNDIR"
	[ "$mount" = 1 ] || return 0
	cufs_mount "$CUFS_MNT" || { cufs_teardown; return 1; }
}

# cufs_teardown: stops the workloads and cufs, removes the machine, its
# processes' segments and the scratch directory. Safe to run twice.
cufs_teardown() {
	local f
	[ -n "${CUFS_WORK:-}" ] && [ -d "$CUFS_WORK" ] || return 0
	for f in "$CUFS_WORK"/*.wpid; do
		[ -e "$f" ] && cufs_stop_workload "$(basename "$f" .wpid)"
	done
	cufs_unmount "$CUFS_MNT"
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-proc-*
	rm -rf "$CUFS_WORK"
	unset CUFS_WORK
}

# cufs_start_workload NAME FILE [--hold] [--linger]: runs cuemu-run on
# the workload description FILE in the background and, once its
# allocations are made, sets NAME_pid to its pid. With --hold it waits,
# allocations made, until cufs_release NAME: a test can set policy before
# anything runs. With --linger it keeps its allocations once its streams
# have finished (cufs_wait_done NAME), until cufs_stop_workload NAME.
cufs_start_workload() {
	local name=$1 file=$2 opts=() pid
	[[ $name =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] ||
		{ _cufs_fail "cufs_start_workload: '$name' is not a name"; return 1; }
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--hold) opts+=(--wait-for "$CUFS_WORK/$name.go") ;;
		--linger) opts+=(--done "$CUFS_WORK/$name.done"
				 --exit-when "$CUFS_WORK/$name.exit") ;;
		*) _cufs_fail "cufs_start_workload: unknown argument '$1'"; return 1 ;;
		esac
		shift
	done
	rm -f "$CUFS_WORK/$name".{ids,go,rc,done,exit}
	# The shell around it keeps its exit status for cufs_wait_workload.
	("$CUEMU_RUN_BIN" --ids "$CUFS_WORK/$name.ids" "${opts[@]}" "$file" \
		>"$CUFS_WORK/$name.out" 2>&1 3>&-
	 echo $? >"$CUFS_WORK/$name.rc") 3>&- &
	echo $! >"$CUFS_WORK/$name.wpid"
	if ! wait_until 10 _cufs_started "$name" 2>/dev/null ||
	   [ ! -s "$CUFS_WORK/$name.ids" ]; then
		_cufs_fail "workload $name ended or hung before its allocations were made" \
			"$(cat "$CUFS_WORK/$name.out")"
		return 1
	fi
	pid=$(awk '$1 == "pid" { print $2 }' "$CUFS_WORK/$name.ids")
	printf -v "${name}_pid" '%s' "$pid"
	export "${name}_pid"
	# cufs looks for new processes every 100 ms (cufs(8)); a workload
	# that is not held may be done first.
	cufs_mounted || return 0
	wait_until 10 _cufs_shown "$name" "$pid" 2>/dev/null ||
		_cufs_fail "cufs does not show workload $name (pid $pid)"
}

_cufs_shown() {
	[ -d "$CUFS_MNT/processes/$2" ] || [ -s "$CUFS_WORK/$1.rc" ]
}

# Its ids are written, or it has ended (then the wait ends too).
_cufs_started() {
	[ -s "$CUFS_WORK/$1.ids" ] || [ -s "$CUFS_WORK/$1.rc" ]
}

# cufs_release NAME: a workload started with --hold goes on.
cufs_release() {
	: >"$CUFS_WORK/$1.go"
}

# cufs_wait_done NAME [SECONDS]: waits until the streams of a workload
# started with --linger have all finished (at most SECONDS, default 60).
cufs_wait_done() {
	wait_until "${2:-60}" _cufs_done "$1" || return 1
	[ -e "$CUFS_WORK/$1.done" ] ||
		_cufs_fail "workload $1 ended first" "$(cat "$CUFS_WORK/$1.out")"
}

_cufs_done() {
	[ -e "$CUFS_WORK/$1.done" ] || [ -s "$CUFS_WORK/$1.rc" ]
}

# cufs_wait_workload NAME [SECONDS]: waits until the workload exits (at
# most SECONDS, default 60); fails, with its output, unless it exited 0.
cufs_wait_workload() {
	local name=$1 rc
	[ -f "$CUFS_WORK/$name.wpid" ] || { _cufs_fail "no workload $name"; return 1; }
	wait_until "${2:-60}" test -s "$CUFS_WORK/$name.rc" || return 1
	rc=$(cat "$CUFS_WORK/$name.rc")
	rm -f "$CUFS_WORK/$name.wpid"
	[ "$rc" = 0 ] ||
		_cufs_fail "workload $name exited $rc" "$(cat "$CUFS_WORK/$name.out")"
}

_cufs_gone() {
	! kill -0 "$1" 2>/dev/null
}

# cufs_stop_workload NAME: ends the workload: one that lingers exits as
# it would, any other is sent TERM, then KILL.
cufs_stop_workload() {
	local pid w p
	w=$(cat "$CUFS_WORK/$1.wpid" 2>/dev/null) || return 0
	: >"$CUFS_WORK/$1.exit"
	: >"$CUFS_WORK/$1.go"
	wait_until 2 test -s "$CUFS_WORK/$1.rc" 2>/dev/null || true
	pid=$(awk '$1 == "pid" { print $2 }' "$CUFS_WORK/$1.ids" 2>/dev/null)
	for p in $pid $w; do
		kill "$p" 2>/dev/null || true
		kill -CONT "$p" 2>/dev/null || true # a stopped one must see it
		wait_until 5 _cufs_gone "$p" 2>/dev/null || kill -9 "$p" 2>/dev/null || true
	done
	rm -f "$CUFS_WORK/$1.wpid"
}

# cufs_id NAME LABEL: the id of the workload's allocation labelled LABEL.
cufs_id() {
	local id
	id=$(awk -v l="$2" 'NR > 1 && substr($0, index($0, " ") + 1) == l { print $1; exit }' \
		"$CUFS_WORK/$1.ids" 2>/dev/null)
	[ -n "$id" ] || { _cufs_fail "workload $1 has no allocation labelled '$2'"; return 1; }
	echo "$id"
}

# _cufs_label_id LABEL: the id of an allocation in /cu with that label.
_cufs_label_id() {
	local f
	for f in "$CUFS_MNT"/allocations/*/label; do
		[ -e "$f" ] && [ "$(cat "$f" 2>/dev/null)" = "$1" ] || continue
		f=${f%/label}
		echo "${f##*/}"
		return 0
	done
	return 1
}

# cufs_wait_label LABEL [SECONDS]: waits until /cu shows an allocation
# labelled LABEL (at most SECONDS, default 10) and prints its id.
cufs_wait_label() {
	local id
	if ! wait_until "${2:-10}" _cufs_label_id "$1" 2>/dev/null; then
		_cufs_fail "no allocation labelled '$1' in $CUFS_MNT" \
			"labels: $(cat "$CUFS_MNT"/allocations/*/label 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	id=$(_cufs_label_id "$1") && echo "$id"
}

# _cufs_bytes SIZE: a size as cufs(5) writes them (64M, 0x1000, 4096)
# in bytes.
_cufs_bytes() {
	local s=$1 n u
	[[ $s =~ ^(0[xX][0-9a-fA-F]+|[0-9]+)([KMGT]?)(i?B)?$ ]] || return 1
	n=$((BASH_REMATCH[1]))
	u=${BASH_REMATCH[2]}
	case $u in
	K) n=$((n << 10)) ;; M) n=$((n << 20)) ;; G) n=$((n << 30)) ;; T) n=$((n << 40)) ;;
	esac
	echo "$n"
}

# _cufs_file ID NAME: a file of allocation ID, or a failure saying so.
_cufs_file() {
	local f=$CUFS_MNT/allocations/$1/$2
	if [ ! -d "$CUFS_MNT/allocations/$1" ]; then
		_cufs_fail "no allocation $1" \
			"allocations: $(ls "$CUFS_MNT/allocations" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
	cat "$f" 2>/dev/null || { _cufs_fail "allocation $1 has no $2 (is it managed?)"; return 1; }
}

_cufs_what() {
	local label
	label=$(cat "$CUFS_MNT/allocations/$1/label" 2>/dev/null)
	echo "allocation $1${label:+ ($label)}"
}

# assert_resident ID LOCATION BYTES: LOCATION (gpuN, cpu, numaN) holds
# BYTES (a size: 64M, 4096) of managed allocation ID.
assert_resident() {
	local id=$1 loc=$2 want res got
	want=$(_cufs_bytes "$3") || { _cufs_fail "assert_resident: '$3' is not a size"; return 1; }
	res=$(_cufs_file "$id" residency) || return 1
	got=$(awk -v l="$loc" '$1 == l { print $2 }' <<<"$res")
	[ "${got:-0}" = "$want" ] && return 0
	_cufs_fail "$(_cufs_what "$id") is not resident as expected" \
		"location  : $loc" "expected  : $want bytes" \
		"actual    : ${got:-0} bytes" "residency :" "$(sed 's/^/  /' <<<"$res")"
}

# assert_preferred ID LOCATION: allocation ID's preferred location is
# LOCATION (a word of cufs(5): gpuN, cpu, none, mixed).
assert_preferred() {
	local got
	got=$(_cufs_file "$1" preferred_location) || return 1
	[ "$got" = "$2" ] && return 0
	_cufs_fail "$(_cufs_what "$1") prefers another location" \
		"expected : $2" "actual   : $got" \
		"accessed_by : $(cat "$CUFS_MNT/allocations/$1/accessed_by" 2>/dev/null)"
}

# assert_counter ID NAME OP VALUE: counter NAME of allocation ID compares
# to VALUE by OP: == != < <= > >= (or -eq -ne -lt -le -gt -ge).
assert_counter() {
	local id=$1 name=$2 op=$3 want=$4 ctr got ok
	case $op in
	==|-eq) op=-eq ;; !=|-ne) op=-ne ;; '<'|-lt) op=-lt ;;
	'<='|-le) op=-le ;; '>'|-gt) op=-gt ;; '>='|-ge) op=-ge ;;
	*) _cufs_fail "assert_counter: '$op' is no comparison" \
		"use == != < <= > >= or -eq -ne -lt -le -gt -ge"; return 1 ;;
	esac
	[[ $want =~ ^[0-9]+$ ]] ||
		{ _cufs_fail "assert_counter: '$want' is not a whole number"; return 1; }
	ctr=$(_cufs_file "$id" counters) || return 1
	got=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$ctr")
	if [ -z "$got" ]; then
		_cufs_fail "$(_cufs_what "$id") has no counter '$name'" \
			"counters:" "$(sed 's/^/  /' <<<"$ctr")"
		return 1
	fi
	ok=0
	[ "$got" "$op" "$want" ] && ok=1
	[ "$ok" = 1 ] && return 0
	_cufs_fail "$(_cufs_what "$id"): counter $name is $got, not $3 $want" \
		"counters:" "$(sed 's/^/  /' <<<"$ctr")"
}

# _cufs_kernel_dirs KERNEL: the directories of every process's kernel
# KERNEL (its PTX entry name), one a line.
_cufs_kernel_dirs() {
	local d
	for d in "$CUFS_MNT"/processes/*/kernels/"$1"; do
		[ -d "$d" ] && echo "$d"
	done
}

# assert_kernel_faults KERNEL N: the launches of KERNEL (its PTX entry
# name, as processes/<pid>/kernels/ names it), in every process shown,
# took N GPU faults in all.
assert_kernel_faults() {
	local k=$1 want=$2 dirs got=0 d n
	[[ $want =~ ^[0-9]+$ ]] ||
		{ _cufs_fail "assert_kernel_faults: '$want' is not a whole number"; return 1; }
	dirs=$(_cufs_kernel_dirs "$k")
	if [ -z "$dirs" ]; then
		_cufs_fail "no process has launched kernel '$k'" \
			"kernels: $(ls "$CUFS_MNT"/processes/*/kernels 2>/dev/null | grep -v : | sort -u | tr '\n' ' ')"
		return 1
	fi
	while read -r d; do
		n=$(cat "$d/gpu_faults" 2>/dev/null) || n=0
		got=$((got + n))
	done <<<"$dirs"
	[ "$got" = "$want" ] && return 0
	_cufs_fail "kernel $k took $got GPU faults, not $want" \
		"launches : $(cat $(sed 's|$|/launches|' <<<"$dirs") 2>/dev/null | tr '\n' ' ')"
}

# assert_touched_by ID KERNEL: kernel KERNEL (its PTX entry name) touched
# allocation ID: it is a line of the allocation's touched_by.
assert_touched_by() {
	local t
	t=$(_cufs_file "$1" touched_by) || return 1
	awk -v k="$2" '$1 == k { f = 1 } END { exit !f }' <<<"$t" && return 0
	_cufs_fail "$(_cufs_what "$1") was not touched by kernel $2" \
		"touched_by:" "$(sed 's/^/  /' <<<"${t:-(no kernel)}")"
}
