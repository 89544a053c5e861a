#!/usr/bin/env bats
# trust.bats - DESIGN.md, "Threat model": what a machine's members can do
# to its segment, and what that costs the others and root's cufs. alice
# and bob are members of the machine's group, eve is not; root makes the
# machine and runs cufs, as the service does. The users and the group are
# made for this file and removed after it, also when a test fails.

load helpers

JOIN=$top_builddir/tests/unit/join-machine
POKE=$top_builddir/tests/unit/seg-poke
GRP=cuemut
ALICE=cuemut-alice
BOB=cuemut-bob
EVE=cuemut-eve

drop_users() {
	local u
	for u in $ALICE $BOB $EVE; do
		userdel "$u" 2>/dev/null || true
	done
	groupdel "$EVE" 2>/dev/null || true
	groupdel "$GRP" 2>/dev/null || true
}

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	command -v useradd >/dev/null || return 0
	drop_users
	groupadd --system "$GRP"
	useradd --system -M -s /usr/sbin/nologin -g "$GRP" "$ALICE"
	useradd --system -M -s /usr/sbin/nologin -g "$GRP" "$BOB"
	useradd --system -M -s /usr/sbin/nologin -U "$EVE"
}

teardown_file() {
	[ "$(id -u)" = 0 ] && drop_users
	return 0
}

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root to make users and run them"
	id "$ALICE" >/dev/null 2>&1 || skip "no useradd to make the users"
	cufs_env
	export CUEMU_GROUP=$GRP
	# Made by root once, so that the users run what libtool left built.
	CUEMU_MACHINE=$CUEMU_MACHINE-libtool CUEMU_CONTROL=0 "$JOIN" >/dev/null
	rm -f "/dev/shm/$CUEMU_MACHINE-libtool"
	for u in $ALICE $BOB $EVE; do
		mkdir -m 700 "$WORK/run-$u"
		chown "$u" "$WORK/run-$u"
	done
}

teardown() {
	exec 5>&- 6>&- 2>/dev/null || true
	local p
	for p in $(cat "$WORK"/*.hold 2>/dev/null); do
		kill "$p" 2>/dev/null
	done
	stop_cufs
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-*
	rm -rf "$WORK"
}

# as_user USER CMD...: CMD as USER, with USER's groups and run dir,
# killed after 30 s (a hang fails the test, never stalls it).
as_user() {
	local u=$1
	shift
	timeout 30 setpriv --reuid="$u" --regid="$(id -g "$u")" \
		--init-groups env CUEMU_RUNDIR="$WORK/run-$u" "$@"
}

# hold NAME USER MIB: USER's process holding MIB MiB until fd 5 (NAME a)
# or 6 (NAME b) closes; its pid in $WORK/NAME.hold.
hold() {
	mkfifo -m 666 "$WORK/$1.in"
	as_user "$2" "$JOIN" "$3" hold <"$WORK/$1.in" >"$WORK/$1.out" 2>&1 &
	echo $! >"$WORK/$1.hold"
	if [ "$1" = a ]; then exec 5>"$WORK/$1.in"; else exec 6>"$WORK/$1.in"; fi
	wait_for grep -q '^used' "$WORK/$1.out"
}

# The machine as the service makes it: root, at boot, for the group.
root_makes_machine() {
	CUEMU_CONTROL=0 "$JOIN" >/dev/null
	run stat -c '%U %G %a' "/dev/shm/$CUEMU_MACHINE"
	assert_output "root $GRP 660"
}

@test "a member holding the table lock stalls a process for its bound, and cufs not at all" {
	root_makes_machine
	start_cufs
	mkfifo -m 666 "$WORK/lock.in"
	as_user $BOB "$POKE" lock <"$WORK/lock.in" >"$WORK/lock.out" &
	echo $! >"$WORK/lock.hold"
	exec 6>"$WORK/lock.in"
	wait_for grep -q locked "$WORK/lock.out"
	# cufs waits on no lock a member holds
	run timeout 3 ls "$MNT/devices"
	assert_success
	assert_line gpu0
	run timeout 3 cat "$MNT/snapshot.json"
	assert_success
	# a new process is refused within the bound, and told why
	SECONDS=0
	run as_user $ALICE "$JOIN" 1
	assert_failure 1
	[ "$SECONDS" -lt 10 ]
	assert_output --partial "cuInit: CUDA_ERROR_NO_DEVICE"
	assert_output --partial "process-table lock was held for 2 s"
	# the holder's end frees the lock, whatever it dies of
	kill -9 "$(sed -n 's/^locked //p' "$WORK/lock.out")"
	run as_user $ALICE "$JOIN" 1
	assert_success
	assert_output "used $((1 << 20))"
}

@test "a thread id no process has where the lock word was (issue 32) stops no one" {
	root_makes_machine
	start_cufs
	run as_user $BOB "$POKE" word 24 003ffff0
	assert_success
	run as_user $ALICE "$JOIN" 1
	assert_success
	run timeout 3 ls "$MNT/devices"
	assert_success
	run timeout 3 cat "$MNT/snapshot.json"
	assert_success
}

@test "a machine squatted by a user outside the group is refused by all, saying why" {
	# eve makes the machine's name first, her own (CUEMU_GROUP=none) ...
	run as_user $EVE env CUEMU_GROUP=none CUEMU_CONTROL=0 "$JOIN"
	assert_success
	run stat -c '%U %a' "/dev/shm/$CUEMU_MACHINE"
	assert_output "$EVE 600"
	# ... root's process (and cufs) does not join it, though it could open it
	run "$JOIN"
	assert_failure
	assert_output --partial "mode 0600 makes it user $EVE's alone"
	run "$CUFS" -f "$MNT"
	assert_failure
	assert_output --partial "is not joined"
	# ... and once she opens it to all, no member joins it
	chmod 666 "/dev/shm/$CUEMU_MACHINE"
	run as_user $ALICE "$JOIN"
	assert_failure
	assert_output --partial "mode 0666 is not 0660"
	assert_output --partial "an administrator removes it"
}

@test "a machine of another group than the one asked for is not joined" {
	run as_user $EVE env CUEMU_GROUP=$EVE CUEMU_CONTROL=0 "$JOIN"
	assert_success
	run stat -c '%G %a' "/dev/shm/$CUEMU_MACHINE"
	assert_output "$EVE 660"
	run "$JOIN"
	assert_failure
	assert_output --partial "its group is $EVE, not $GRP"
}

@test "the administrator's machine is joined by the group and stays theirs" {
	root_makes_machine
	run as_user $ALICE "$JOIN" 2
	assert_success
	run as_user $BOB "$JOIN" 3
	assert_success
	# eve cannot take the name while it exists
	run as_user $EVE env CUEMU_GROUP=none "$JOIN"
	assert_failure
	assert_output --partial "user $EVE is not in group $GRP"
}

@test "cufs lives through a member truncating the machine segment" {
	root_makes_machine
	start_cufs
	hold a $ALICE 8
	run cat "$MNT/devices/gpu0/used_memory"
	assert_success
	run as_user $BOB "$POKE" truncate 4096
	assert_success
	run cat "$MNT/devices/gpu0/used_memory"
	assert_failure
	assert_output --partial "Input/output error"
	grep -q "shrank under this reader" "$WORK/cufs.log"
	grep -q "is 4096 bytes" "$WORK/cufs.log"
	# cufs is alive and serves the processes still
	kill -0 "$(cat "$WORK/cufs.pid")"
	run ls "$MNT/processes"
	assert_success
	[ "${#lines[@]}" -eq 1 ]
}

@test "rows written by hand as pid 1's fill no table: a member's process still allocates" {
	root_makes_machine
	hold a $ALICE 4
	run as_user $BOB "$POKE" fake-rows
	assert_success
	run as_user $ALICE "$JOIN" 1
	assert_success
	refute_output --partial "process table is full"
	# alice's holder keeps its row: its lock byte is held
	assert_output "used $((5 << 20))"
}

@test "ids in /cu never name two processes' objects, whatever the id counter says" {
	root_makes_machine
	start_cufs
	before=$(as_user $BOB "$POKE" next-id)
	hold a $ALICE 1
	wait_for test -n "$(ls "$MNT/processes")"
	a=$(ls "$MNT/processes")
	ida=$(ls "$MNT/processes/$a/allocations")
	[ -n "$ida" ]
	# bob sets the counter back to where it was before alice's process:
	# his, the same program, takes the same ids as hers
	run as_user $BOB "$POKE" next-id "$before"
	assert_success
	hold b $BOB 1
	wait_for test "$(ls "$MNT/processes" | wc -l)" = 2
	b=$(ls "$MNT/processes" | grep -vx "$a")
	[ "$(ls "$MNT/processes/$b/allocations")" = "$ida" ]
	# the shared name lists it no more, and names neither process's
	run ls "$MNT/allocations"
	assert_success
	! grep -qx "$ida" <<<"$output"
	[ "$(ls "$MNT/allocations" | sort | uniq -d)" = "" ]
	run cat "$MNT/allocations/$ida/size"
	assert_failure
	assert_output --partial "not unique"
	grep -q "allocations/$ida is published by processes" "$WORK/cufs.log"
}
