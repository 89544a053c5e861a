#!/usr/bin/env bats
# users.bats - libcuemu(3), "SHARING": a machine is joined by every user of
# its group, by no one else, and one who cannot join is told why. Root
# makes the machines; 'nobody' (group nogroup) joins them. Each test makes
# a machine of its own and removes it.

load helpers

JOIN=$top_builddir/tests/unit/join-machine

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root to run a second user"
	D=$(mktemp -d "${TMPDIR:-/tmp}/users.XXXXXX")
	chmod 755 "$D"
	export CUEMU_MACHINE=${CUEMU_MACHINE:-cuemu-users}-u$BATS_TEST_NUMBER
	export CUEMU_CONTROL=0
	unset CUEMU_GROUP
	rm -f "/dev/shm/$CUEMU_MACHINE"
	# Made by root once, so that nobody runs what libtool left built.
	"$JOIN" >/dev/null
	rm -f "/dev/shm/$CUEMU_MACHINE"
}

teardown() {
	exec 5>&- 6>&- 2>/dev/null || true
	[ -n "${HOLDER:-}" ] && kill "$HOLDER" 2>/dev/null
	[ -n "${HOLDER:-}" ] && wait "$HOLDER" 2>/dev/null
	rm -f "/dev/shm/$CUEMU_MACHINE"
	rm -rf "$D"
}

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --init-groups "$@"
}

# A process of root's that holds MIB MiB until fd 5 closes.
hold_as_root() {
	mkfifo "$D/in"
	"$JOIN" "$1" hold <"$D/in" >"$D/holder.out" &
	HOLDER=$!
	exec 5>"$D/in"
	wait_for grep -q '^used' "$D/holder.out"
}

@test "a machine made with CUEMU_GROUP is its group's: mode 0660, that group" {
	CUEMU_GROUP=nogroup run "$JOIN"
	assert_success
	run stat -c '%U %G %a' "/dev/shm/$CUEMU_MACHINE"
	assert_output "root nogroup 660"
}

@test "a member of the group joins root's machine and allocates on it" {
	CUEMU_GROUP=nogroup hold_as_root 64
	run as_nobody "$JOIN" 32
	assert_success
	# root's 64 MiB are still counted: nobody did not take root's row.
	assert_output "used $((96 << 20))"
	# and root's next process sees nobody's gone, root's memory still held
	run "$JOIN"
	assert_output "used $((64 << 20))"
}

@test "a group given by number serves as well as by name" {
	CUEMU_GROUP=65534 run "$JOIN"
	assert_success
	run stat -c '%G %a' "/dev/shm/$CUEMU_MACHINE"
	assert_output "nogroup 660"
}

@test "another user's control socket is its own, 0600 in its own run dir" {
	CUEMU_GROUP=nogroup hold_as_root 0
	mkdir -m 700 "$D/nobody-run"
	chown nobody:nogroup "$D/nobody-run"
	mkfifo "$D/nin"
	chmod 666 "$D/nin"
	as_nobody env CUEMU_CONTROL=1 CUEMU_RUNDIR="$D/nobody-run" \
		"$JOIN" 0 hold <"$D/nin" >"$D/nobody.out" &
	N=$!
	exec 6>"$D/nin"
	wait_for grep -q '^used' "$D/nobody.out"
	run stat -c '%U %a' "$D"/nobody-run/*.sock
	exec 6>&-
	wait "$N"
	assert_output "nobody 600"
	run stat -c '%U %a' "$D/nobody-run"
	assert_output "nobody 700"
}

@test "a user outside the group cannot join, and is told why and what to do" {
	CUEMU_GROUP=adm run "$JOIN"
	assert_success
	run as_nobody "$JOIN"
	assert_failure
	assert_output --partial "cuInit: CUDA_ERROR_NO_DEVICE"
	assert_output --partial "cuemu: permission denied on machine segment /$CUEMU_MACHINE"
	assert_output --partial "owner root, group adm, mode 0660"
	assert_output --partial "user nobody is not in group adm"
	assert_output --partial "usermod -aG adm nobody"
	# whole, to its last word
	assert_output --partial "or use a machine of your own: CUEMU_MACHINE=NAME"
}

@test "a machine of no group is its owner's alone, and the message says so" {
	CUEMU_GROUP=none run "$JOIN"
	assert_success
	run stat -c '%a' "/dev/shm/$CUEMU_MACHINE"
	assert_output 600
	run as_nobody "$JOIN"
	assert_failure
	assert_output --partial "owner root, group root, mode 0600"
	assert_output --partial "its owner's alone"
	assert_output --partial "or use a machine of your own: CUEMU_MACHINE=NAME"
	# without CUEMU_DEBUG, and with it the same line
	run as_nobody env CUEMU_DEBUG=1 "$JOIN"
	assert_failure
	assert_output --partial "permission denied on machine segment"
}

@test "CUEMU_GROUP naming no group is refused, and no machine is made" {
	CUEMU_GROUP=no-such-group-here run "$JOIN"
	assert_failure
	assert_output --partial "CUEMU_GROUP 'no-such-group-here' is no group of this host"
	[ ! -e "/dev/shm/$CUEMU_MACHINE" ]
}

@test "a user may not make a machine shared with a group not theirs" {
	run as_nobody env CUEMU_GROUP=adm "$JOIN"
	assert_failure
	assert_output --partial "cannot make machine segment /$CUEMU_MACHINE shared with group adm"
	assert_output --partial "not a member"
	[ ! -e "/dev/shm/$CUEMU_MACHINE" ]
}

@test "a user of the group may make the machine, and root joins it" {
	run as_nobody env CUEMU_GROUP=nogroup "$JOIN" 16
	assert_success
	run stat -c '%U %G %a' "/dev/shm/$CUEMU_MACHINE"
	assert_output "nobody nogroup 660"
	run "$JOIN"
	assert_success
}

@test "a live process of another user keeps its row whatever its memory" {
	CUEMU_GROUP=nogroup hold_as_root 100
	# nobody's processes run short and reclaim what dead rows hold: root's
	# live row is not one of them, though nobody may not signal root.
	run as_nobody "$JOIN" 1
	assert_output "used $((101 << 20))"
	run as_nobody "$JOIN" 1
	assert_output "used $((101 << 20))"
}

@test "a hostile member's scribbles cost answers, never a crash or a hang" {
	CUEMU_GROUP=nogroup hold_as_root 64
	# nobody, a member, may write every byte: the process table, the
	# lock word, the topology, the counts.
	size=$(stat -c %s "/dev/shm/$CUEMU_MACHINE")
	run as_nobody dd if=/dev/urandom of="/dev/shm/$CUEMU_MACHINE" \
		bs="$size" count=1 conv=notrunc status=none
	assert_success
	# root joins: refused with a reason, or served; within bounds
	run timeout 20 "$JOIN" 1
	[ "$status" -ne 124 ] && [ "$status" -lt 128 ]
	[ "$status" -eq 0 ] || assert_output --partial "cuemu: machine segment /$CUEMU_MACHINE"
	# and root's process that was already there is alive and answers
	kill -0 "$HOLDER"
	exec 5>&-
	wait "$HOLDER"
}
