#!/bin/sh
# private-machine.sh COMMAND [ARG...] - runs one test on an emulated machine
# and in a run dir of its own, then removes what it left, whatever its exit:
# a failure, a crash or a signal. make check runs every test through it
# (LOG_COMPILER); it also serves by hand: tests/private-machine.sh tests/unit/test_pool
#
# The test gets CUEMU_MACHINE=cuemu-check-<pid>, CUEMU_RUNDIR and TMPDIR in
# a scratch directory of its own; afterwards the wrapper stops what the test
# left running (its process group), lazily unmounts what it mounted under the
# scratch directory, and removes the segment /dev/shm/<machine>, those named
# <machine>-* (the tests' second machines), and the scratch directory. The
# test's exit status is the wrapper's.
set -u

[ $# -gt 0 ] || { echo "usage: private-machine.sh COMMAND [ARG...]" >&2; exit 99; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cuemu-check.XXXXXX") || exit 99
# Reachable by others (the root-only tests run commands as 'nobody'),
# writable only by the user; the run dir itself is private, as cufs(8) makes
# it.
chmod 755 "$scratch"
mkdir -m 700 "$scratch/run"
mkdir -m 755 "$scratch/tmp"
CUEMU_MACHINE=cuemu-check-$$
CUEMU_RUNDIR=$scratch/run
TMPDIR=$scratch/tmp
export CUEMU_MACHINE CUEMU_RUNDIR TMPDIR

pid=""
cleanup() {
	trap - EXIT INT TERM HUP
	# setsid made the test the leader of its own group: what it started
	# and left behind is in that group, and nothing else is.
	if [ -n "$pid" ]; then
		kill -TERM -- "-$pid" 2>/dev/null
		i=0
		while kill -0 -- "-$pid" 2>/dev/null && [ $i -lt 20 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -KILL -- "-$pid" 2>/dev/null
	fi
	awk -v d="$scratch/" 'index($2, d) == 1 { print $2 }' /proc/mounts |
	while read -r m; do
		fusermount3 -u -z "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -f "/dev/shm/$CUEMU_MACHINE" "/dev/shm/$CUEMU_MACHINE"-*
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP

# In the background a command of a non-interactive shell is not a group
# leader, so setsid makes the group without forking again: $! is its id.
setsid "$@" &
pid=$!
wait "$pid"
rc=$?
exit $rc
