#!/bin/sh
# limits.sh - the limits a user can hit, each of which must work or fail
# with a clear message, never silently (make stress runs it):
#   - 1,000 processes on one machine, started at once, each allocating;
#   - one process with a million allocations of 4 KiB, listed through
#     cufs (they are packed into shared 2 MiB blocks, so the kernel's
#     limit on mappings, vm.max_map_count, is far off);
#   - a reader holding events and events_pipe open and never reading,
#     while a process emits far more lines than the log keeps;
#   - a topology of 64 GPUs works; one of 128 is refused with a message
#     that names the ceiling (127).
# TAP. Runs on the machine and run dir of its environment.
set -u
B=${top_builddir:-.}
S=${top_srcdir:-.}
. "$S/bench/lib.sh"
ALLOC=$B/bench/alloc-many
CUFS=$B/cufs/cufs
work=$(mktemp -d "${TMPDIR:-/tmp}/limits.XXXXXX") || exit 1
MNT=$work/cu
mkdir -p "$MNT"
pids= cufs_pid= n=0
cleanup() {
	[ -n "$pids" ] && kill $pids 2>/dev/null
	fusermount3 -u -z "$MNT" 2>/dev/null
	[ -n "$cufs_pid" ] && kill "$cufs_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
t() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
echo "1..9"

"$CUFS" -f "$MNT" >"$work/cufs.log" 2>&1 &
cufs_pid=$!
wait_for 10 test -d "$MNT/devices" || { echo "Bail out! cufs did not mount"; exit 1; }

# ---------------------------------------------------------------- 1,000 processes
P=${LIMITS_PROCS:-1000}
i=0
while [ $i -lt "$P" ]; do
	"$ALLOC" 1 >"$work/p$i.out" 2>"$work/p$i.err" &
	pids="$pids $!"
	i=$((i + 1))
done
ready() { [ "$(cat "$work"/p*.out | grep -c ready)" -ge "$P" ]; }
wait_for 300 ready
r=$(cat "$work"/p*.out | grep -c ready)
t $([ "$r" -eq "$P" ]; echo $?) "$P processes started at once all allocate ($r ready)"
[ "$r" -eq "$P" ] || cat "$work"/p*.err | sort | uniq -c | sed 's/^/# /' | head
listed=$(ls "$MNT/processes" | wc -l)
t $([ "$listed" -eq "$P" ]; echo $?) "processes/ lists all $P ($listed)"
used=$(cat "$MNT/devices/gpu0/used_memory")
t $([ "$used" -eq $((r * 4096)) ]; echo $?) \
	"gpu0 counts the memory of the $r ready ($used bytes)"
kill $pids 2>/dev/null
wait $pids 2>/dev/null
pids=
sleep 1.1
used=$(cat "$MNT/devices/gpu0/used_memory")
t $([ "$used" -eq 0 ]; echo $?) "and gives it back when they are gone ($used bytes)"

# ---------------------------------------------------------------- a million allocations
M=${LIMITS_ALLOCS:-1000000}
CUEMU_DEBUG=1 "$ALLOC" "$M" >"$work/m.out" 2>"$work/m.err" &
pids=$!
wait_for 600 grep -q ready "$work/m.out"
if grep -q ready "$work/m.out"; then
	got=$(ls -f "$MNT/processes/$pids/allocations" 2>"$work/ls.err" | grep -c '^[0-9]')
	t $([ "$got" -eq "$M" ]; echo $?) "a process with $M allocations: all listed ($got)"
	maps=$(wc -l <"/proc/$pids/maps")
	t $([ "$maps" -lt 10000 ]; echo $?) \
		"... in $maps mappings, far under vm.max_map_count"
else
	t 1 "a process with $M allocations: not ready: $(tail -c 200 "$work/m.err")"
	t 1 "... so its mappings were not counted"
fi
kill $pids 2>/dev/null
wait $pids 2>/dev/null
pids=

# ---------------------------------------------------------------- an idle reader
exec 7<"$MNT/events" 8<"$MNT/events_pipe"
"$ALLOC" 100000 >"$work/e.out" 2>"$work/e.err" &
pids=$!
wait_for 120 grep -q ready "$work/e.out"
t0=$(now_ms)
cat "$MNT/devices/gpu0/used_memory" >/dev/null
dt=$(($(now_ms) - t0))
rss=$(awk '/VmRSS/ { print $2 }' "/proc/$cufs_pid/status")
t $([ "$dt" -lt 2000 ] && [ "$rss" -lt 262144 ]; echo $?) \
	"a reader holding events open unread: cufs serves others (${dt} ms) in ${rss} KiB"
exec 7<&- 8<&-
kill $pids 2>/dev/null
wait $pids 2>/dev/null
pids=

# ---------------------------------------------------------------- 64 GPUs
# 64 work (the machine is sized from its topology); past the ceiling, a
# refusal that names it.
for g in 64 128; do
	python3 -c "import json; print(json.dumps({'devices': [{'name': 'G', 'memory': '8G'}] * $g}))" >"$work/t$g.json"
	CUEMU_MACHINE=$CUEMU_MACHINE-t$g CUEMU_TOPOLOGY=$work/t$g.json \
		"$B/examples/mem_device" >/dev/null 2>"$work/t$g.err"
	echo $? >"$work/t$g.rc"
done
t "$(cat "$work/t64.rc")" "a topology of 64 GPUs works"
t $([ "$(cat "$work/t128.rc")" -ne 0 ] && grep -q 'must list 1\.\.127 devices' "$work/t128.err"; echo $?) \
	"one of 128 is refused, saying why: $(head -1 "$work/t128.err")"
