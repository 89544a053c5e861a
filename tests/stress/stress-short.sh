#!/bin/sh
# stress-short.sh - the soak test (tests/stress/stress.py) for make check:
# STRESS_PROCS workers (default 8, beside the other tests of make -j2) of 4
# threads for STRESS_SECONDS (default 15) with every kind
# of fault; make stress runs it for 10 minutes. TAP: one line, the
# figures and any violation as comments.
set -u
B=${top_builddir:-.}
S=${top_srcdir:-.}
echo "1..1"
if ! command -v python3 >/dev/null || ! command -v fusermount3 >/dev/null ||
   [ ! -c /dev/fuse ]; then
	echo "ok 1 # SKIP needs python3 and FUSE"
	exit 0
fi
out=$(python3 "$S/tests/stress/stress.py" --cufs "$B/cufs/cufs" \
	--worker "$B/tests/stress/stress-worker" \
	--seconds "${STRESS_SECONDS:-15}" --procs "${STRESS_PROCS:-8}" 2>&1)
rc=$?
echo "$out" | grep '^stress: ' | sed 's/^/# /'
if [ $rc -eq 0 ]; then
	echo "ok 1 - soak: no invariant broken"
else
	echo "$out" | grep -v '^stress: ' | tail -20 | sed 's/^/# /'
	echo "not ok 1 - soak: invariants broken (exit $rc)"
fi
