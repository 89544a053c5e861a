#!/usr/bin/env bats
# cufs.bats - /cu end to end: cufs mounted on a private machine, workloads
# running on it, and every directory, file, write and refusal checked
# through the mount and, for writes, through the workload's own API calls.

load helpers

# One mount for the file; a fresh workload A for each test, so that no test
# sees what another changed and any test can run alone (bats -f).
workload_lifecycle

# own_mount: a second mount of the machine at $OWN, without allow_other:
# only cufs's user reaches it, so its read-only text files are read
# through the page cache where the first mount keeps only devices/'
# (lowlevel.c). Unmounted by teardown, also when the test fails.
own_mount() {
	OWN=$WORK/own
	mkdir -p "$OWN"
	"$CUFS_BIN" -f --machine "$(cat "$WORK/cufs.machine")" "$OWN" \
		>>"$WORK/own.log" 2>&1 3>&- &
	echo $! >"$WORK/own.pid"
	wait_until 10 test -d "$OWN/devices"
}

own_unmount() {
	[ -f "$WORK/own.pid" ] || return 0
	fusermount3 -u "$OWN" 2>/dev/null || fusermount3 -u -z "$OWN" 2>/dev/null || true
	kill "$(cat "$WORK/own.pid")" 2>/dev/null || true
	rm -f "$WORK/own.pid"
	rmdir "$OWN" 2>/dev/null || true
}

teardown() {
	own_unmount
	workload_teardown
}

# ---------------------------------------------------------------- browsing

@test "the root has every top-level entry" {
	run ls "$MNT"
	assert_success
	for e in devices processes allocations pools reservations handles \
		events snapshot.json; do
		assert_line "$e"
	done
}

@test "devices: four GPUs and the CPU, each with its files" {
	run ls "$MNT/devices"
	assert_output "$(printf 'cpu\ngpu0\ngpu1\ngpu2\ngpu3\nmemory_model')"
	for f in name total_memory used_memory free_memory numa_node peers \
		counters json; do
		[ -f "$MNT/devices/gpu0/$f" ] || fail "no devices/gpu0/$f"
	done
	run cat "$MNT/devices/gpu1/peers"
	assert_output "gpu0 gpu2 gpu3"
	total=$(cat "$MNT/devices/gpu0/total_memory")
	used=$(cat "$MNT/devices/gpu0/used_memory")
	free=$(cat "$MNT/devices/gpu0/free_memory")
	[ "$((used + free))" -eq "$total" ]
	[ "$used" -gt 0 ] # the workload's device memory
	run grep -c '^[a-z_]* [0-9]*$' "$MNT/devices/gpu0/counters"
	[ "$output" -ge 5 ]
	json_valid "$MNT/devices/gpu0/json"
	run ls "$MNT/devices/gpu5"
	assert_failure
}

@test "devices: a device's files say what its json says, each read alone" {
	j="$MNT/devices/gpu0/json"
	for f in index name uuid pci_bus_id total_memory numa_node; do
		run cat "$MNT/devices/gpu0/$f"
		assert_success
		assert_output "$(jq -r ".$f" "$j")"
	done
	run cat "$MNT/devices/gpu0/peers"
	assert_output "$(jq -r '.peers | join(" ")' "$j")"
	run cat "$MNT/devices/gpu0/links/gpu1"
	assert_line "kind $(jq -r '.links.gpu1.kind' "$j")"
	assert_line "latency_ns $(jq -r '.links.gpu1.latency_ns' "$j")"
	run cat "$MNT/devices/gpu0/links/gpu1/kind"
	assert_failure
	json_valid "$MNT/devices/gpu0/links/json"
	run ls "$MNT/devices/gpu0/links"
	assert_output "$(printf 'cpu\ngpu1\ngpu2\ngpu3\njson')"
	# the counters move with the workload: their names, in order
	run sh -c "cut -d' ' -f1 '$MNT/devices/gpu0/counters'"
	assert_output "$(jq -r '.counters | keys_unsorted[]' "$j")"
	# what a device does not have
	run cat "$MNT/devices/gpu0/no_such_member"
	assert_failure
	assert_output --partial "No such file or directory"
	run cat "$MNT/devices/gpu0/total_memory/x"
	assert_failure
	run cat "$MNT/devices/gpu0/counters/gpu_faults"
	assert_failure
	run cat "$MNT/devices/gpu9/total_memory"
	assert_failure
	assert_output --partial "No such file or directory"
}

@test "devices/cpu: NUMA nodes and their memory" {
	n=$(cat "$MNT/devices/cpu/numa_nodes")
	[ "$n" -ge 1 ]
	run cat "$MNT/devices/cpu/node0/memory"
	assert_line --regexp '^total_memory [0-9]+$'
}

@test "files are one value a line, sized as their text, with sysfs modes" {
	id=$A_managed
	run cat "$MNT/allocations/$id/kind"
	assert_output managed
	[ "$(stat -c %s "$MNT/allocations/$id/kind")" = 8 ]
	[ "$(stat -c %a "$MNT/allocations/$id/kind")" = 444 ]
	[ "$(stat -c %a "$MNT/allocations/$id/prefetch")" = 644 ]
	[ "$(stat -c %a "$MNT/allocations/$id")" = 555 ]
	[ "$(stat -c %u "$MNT/allocations/$id/prefetch")" = "$(id -u)" ]
}

@test "processes: the workload with its files and links to its objects" {
	run ls "$MNT/processes"
	assert_line "$A_pid"
	P=$MNT/processes/$A_pid
	run cat "$P/cmdline"
	assert_output --partial workload
	run cat "$P/uid"
	assert_output "$(id -u)"
	run cat "$P/counters"
	assert_line --regexp '^migrations [0-9]+$'
	json_valid "$P/json"
	run readlink "$P/allocations/$A_managed"
	assert_output "../../../allocations/$A_managed"
	run cat "$P/allocations/$A_managed/kind"
	assert_output managed
	run ls "$P/reservations"
	assert_output "$A_reservation"
	run ls "$P/handles"
	assert_output "$A_handle"
	[ -n "$(ls "$P/pools")" ]
}

@test "allocations: each kind, labelled" {
	run ls "$MNT/allocations"
	for id in "$A_device" "$A_pinned" "$A_managed" "$A_pool_block"; do
		assert_line "$id"
	done
	refute_line "$A_reservation" # reservations have their own directory
	A=$MNT/allocations
	run cat "$A/$A_device/kind" "$A/$A_device/label" "$A/$A_device/size"
	assert_output "$(printf 'device\nweights\n4194304')"
	run cat "$A/$A_pinned/label"
	assert_output staging
	run cat "$A/$A_pool_block/label"
	assert_output scratch
	run cat "$A/$A_managed/pid"
	assert_output "$A_pid"
	json_valid "$A/$A_managed/json"
	run cat "$MNT/allocations/999999999/kind"
	assert_failure
	assert_output --partial "No such file"
}

@test "allocations: a CUDA array, its format, channels and extent, and its memory" {
	used=$(cat "$MNT/devices/gpu0/used_memory")
	wl_cmd A array
	id=$(wl_attr A array)
	[ "$id" -gt 0 ] || fail "the workload made no array: $id"
	wait_for test -d "$MNT/allocations/$id" ||
		fail "allocations/$id does not show"
	R=$MNT/allocations/$id
	run cat "$R/kind" "$R/format" "$R/channels" "$R/extent" "$R/size" \
		"$R/device" "$R/pid"
	assert_output "$(printf 'array\nfloat\n2\n64 32 0\n16384\ngpu0\n%s' "$A_pid")"
	json_valid "$R/json"
	# 16 KiB of array takes a 2 MiB block of the device, as on the H200.
	run cat "$MNT/devices/gpu0/used_memory"
	assert_output "$((used + 2097152))"
	run bash -c "echo x >'$R/label'"
	assert_failure
	wl_cmd A unarray
	wait_for bash -c "! test -e '$R'" || fail "allocations/$id stays"
	run cat "$MNT/devices/gpu0/used_memory"
	assert_output "$used"
}

@test "pools, reservations with mappings, handles" {
	pool=$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)
	[ -n "$pool" ]
	P=$(dirname "$pool")
	for f in location max_size release_threshold reserved_mem_current \
		used_mem_high access trim json; do
		[ -f "$P/$f" ] || fail "no $P/$f"
	done
	R=$MNT/reservations/$A_reservation
	run cat "$R/base"
	assert_output "$A_resv_base"
	run ls "$R/mappings"
	assert_line 0x0
	run cat "$R/mappings/0x0/handle"
	assert_output "$A_handle"
	run cat "$MNT/handles/$A_handle/size"
	assert_output 2097152
	run cat "$MNT/handles/$A_handle/mappings"
	assert_output "$A_resv_base"
}

@test "ranges: listed, and any page-aligned range can be opened" {
	R=$MNT/allocations/$A_managed/ranges
	run ls "$R"
	assert_success
	assert_line --regexp '^0x[0-9a-f]+-0x[0-9a-f]+$'
	b=$((A_managed_base))
	sub=$(printf '0x%x-0x%x' $((b + 4096)) $((b + 12288)))
	run cat "$R/$sub/start"
	assert_output "$(printf '0x%x' $((b + 4096)))"
	run cat "$R/$((b + 4096))-$((b + 12288))/end"
	assert_output "$(printf '0x%x' $((b + 12288)))"
	run ls "$R/$(printf '0x%x-0x%x' $((b + 1)) $((b + 4096)))"
	assert_failure
}

@test "ranges: a directory listed once, not a key of the json file" {
	M=$MNT/allocations/$A_managed
	# twice: the second listing is made from the record read before
	for i in 1 2; do
		run ls "$M"
		assert_success
		[ "$(grep -cx ranges <<<"$output")" = 1 ]
		[ -d "$M/ranges" ]
		grep -q '"kind": "managed"' "$M/json"
		! grep -q '"ranges"' "$M/json"
	done
}

# ---------------------------------------------------------------- writes

@test "managed: preferred_location, accessed_by, read_mostly, advise" {
	M=$MNT/allocations/$A_managed
	echo gpu1 >"$M/preferred_location"
	run cat "$M/preferred_location"
	assert_output gpu1
	[ "$(wl_attr A preferred_location)" = gpu1 ]

	echo +gpu2 >"$M/accessed_by"
	run cat "$M/accessed_by"
	assert_output gpu2
	[ "$(wl_attr A accessed_by)" = gpu2 ]
	echo -gpu2 >"$M/accessed_by"
	run cat "$M/accessed_by"
	assert_output ""
	run wl_attr A accessed_by
	assert_success
	assert_output ""

	echo 1 >"$M/read_mostly"
	[ "$(cat "$M/read_mostly")" = 1 ]
	[ "$(wl_attr A read_mostly)" = 1 ]
	echo 0 >"$M/read_mostly"
	[ "$(wl_attr A read_mostly)" = 0 ]

	echo "set_preferred_location gpu3" >"$M/advise"
	[ "$(wl_attr A preferred_location)" = gpu3 ]
	echo "unset_preferred_location" >"$M/advise"
	[ "$(wl_attr A preferred_location)" = none ]
}

@test "managed: prefetch moves the bytes and shows in residency" {
	M=$MNT/allocations/$A_managed
	echo gpu2 >"$M/prefetch"
	[ "$(wl_attr A last_prefetch_location)" = gpu2 ]
	run cat "$M/residency"
	assert_line "gpu2 $A_managed_size"
	run cat "$M/last_prefetch_location"
	assert_output gpu2
	echo cpu >"$M/prefetch"
	run cat "$M/residency"
	assert_line "cpu $A_managed_size"
}

# Reads through the page cache: an open keeps the kernel's pages only
# when its text is the one they hold, at the size the kernel was told.
@test "a value read again is the one it is now: unchanged, changed, longer, shorter" {
	own_mount
	M=$OWN/allocations/$A_managed
	L=$M/last_prefetch_location
	size_is_text() {
		[ "$(stat -c %s "$1")" = "$(cat "$1" | wc -c)" ]
	}
	echo gpu2 >"$M/prefetch"
	run cat "$L"
	assert_output gpu2
	run cat "$L"
	assert_output gpu2
	size_is_text "$L"
	# the same length, another text, the size asked for first
	run cat "$M/residency"
	assert_line "gpu2 $A_managed_size"
	echo gpu1 >"$M/prefetch"
	size_is_text "$M/residency"
	run cat "$M/residency"
	assert_line "gpu1 $A_managed_size"
	assert_line "gpu2 0"
	run cat "$L"
	assert_output gpu1
	# shorter, then longer again
	echo cpu >"$M/prefetch"
	run cat "$L"
	assert_output cpu
	size_is_text "$L"
	# longer at once, the kernel still keeping the name and the size it
	# was told: the size is asked again
	run python3 -c '
import sys
name, prefetch = sys.argv[1], sys.argv[2]
with open(name) as f:
    f.read()
with open(prefetch, "w") as f:
    f.write("gpu3\n")
with open(name) as f:
    print(f.read(), end="")' "$L" "$M/prefetch"
	assert_output gpu3
	size_is_text "$L"
	# what the first mount shows, which reads directly
	run cat "$MNT/allocations/$A_managed/last_prefetch_location"
	assert_output gpu3
}

@test "a file held open keeps its text while a new open reads the new one" {
	own_mount
	M=$OWN/allocations/$A_managed
	L=$M/last_prefetch_location
	echo gpu2 >"$M/prefetch"
	exec 5<"$L"
	echo cpu >"$M/prefetch"
	run cat "$L"
	assert_output cpu
	run cat <&5
	assert_output gpu2
	exec 5<&-
	run cat "$L"
	assert_output cpu
	echo gpu0 >"$M/prefetch"
	run cat "$L"
	assert_output gpu0
}

@test "managed: a write to a subrange splits the ranges" {
	R=$MNT/allocations/$A_managed/ranges
	b=$((A_managed_base))
	sub=$(printf '0x%x-0x%x' "$b" $((b + 65536)))
	echo 1 >"$R/$sub/read_mostly"
	run ls "$R"
	assert_line "$sub"
	run cat "$R/$sub/read_mostly"
	assert_output 1
	echo 0 >"$R/$sub/read_mostly"
}

@test "labels can be written" {
	echo renamed >"$MNT/allocations/$A_device/label"
	run cat "$MNT/allocations/$A_device/label"
	assert_output renamed
	echo weights >"$MNT/allocations/$A_device/label"
}

@test "pools: attributes, access and trim" {
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
	echo 64M >"$P/release_threshold"
	run cat "$P/release_threshold"
	assert_output 67108864
	[ "$(wl_attr A release_threshold)" = 67108864 ]
	echo 0 >"$P/reuse_allow_opportunistic"
	run cat "$P/reuse_allow_opportunistic"
	assert_output 0
	echo 1 >"$P/reuse_allow_opportunistic"
	echo 0 >"$P/used_mem_high"
	[ "$(wl_attr A used_mem_high)" -le 1048576 ]
	echo "gpu1 rw" >"$P/access"
	run cat "$P/access"
	assert_line "gpu1 rw"
	[ "$(wl_attr A pool_access_gpu1)" = 3 ]
}

@test "pools: each reuse rule is written and read back" {
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
	for f in reuse_follow_event_dependencies reuse_allow_opportunistic \
		reuse_allow_internal_dependencies; do
		echo 0 >"$P/$f"
		run cat "$P/$f"
		assert_output 0
		echo 1 >"$P/$f"
		run cat "$P/$f"
		assert_output 1
	done
}

@test "pools: trim gives back what no block uses, down to the size written" {
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
	# Above the block's 1 MiB, so that the pool keeps what it reserved.
	echo 64M >"$P/release_threshold"
	used=$(cat "$P/used_mem_current")
	[ "$used" -eq 1048576 ]
	echo 0 >"$P/trim"
	run cat "$P/reserved_mem_current"
	# A live block's memory stays reserved; nothing more does.
	[ "$output" -ge "$used" ] || fail "reserved $output < used $used"
	reserved=$output
	echo 0 >"$P/reserved_mem_high"
	run cat "$P/reserved_mem_high"
	assert_output "$reserved"
}

@test "reservations: access of the whole and of one mapping" {
	R=$MNT/reservations/$A_reservation
	echo "gpu1 ro" >"$R/access"
	[ "$(wl_attr A resv_access_gpu1)" = 1 ]
	run cat "$R/access"
	assert_line "gpu1 ro"
	echo "gpu1 rw" >"$R/mappings/0x0/access"
	[ "$(wl_attr A resv_access_gpu1)" = 3 ]
	run cat "$R/mappings/0x0/access"
	assert_line "gpu1 rw"
}

# ---------------------------------------------------------------- refusals

# refused FILE VALUE ERRNO-TEXT: the write fails with that message and
# the workload's view did not change.
refused() {
	local before after
	before=$(wl_query A) || fail "workload A does not answer"
	run bash -c "echo '$2' > '$1'"
	assert_failure 1
	assert_output --partial "$3"
	after=$(wl_query A) || fail "workload A does not answer"
	[ "$after" = "$before" ] || fail "state changed after refusal"
}

@test "refused writes answer the mapped errno and change nothing" {
	M=$MNT/allocations/$A_managed
	refused "$M/prefetch" gpu9 "No such device"
	refused "$M/preferred_location" gpu7 "Invalid argument"
	refused "$M/preferred_location" mars "Invalid argument"
	refused "$M/read_mostly" 7 "Invalid argument"
	refused "$M/advise" "make_it_fast" "Invalid argument"
	refused "$M/accessed_by" "+elsewhere" "Invalid argument"
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
	refused "$P/release_threshold" lots "Invalid argument"
	refused "$P/access" "gpu1 maybe" "Invalid argument"
	refused "$MNT/reservations/$A_reservation/access" "gpu1" "Invalid argument"
	refused "$M/kind" device "Permission denied"
	refused "$MNT/processes/$A_pid/cmdline" x "Permission denied"
	refused "$MNT/devices/gpu0/name" x "Permission denied"
}

@test "a write with a NUL byte in it is refused, not cut short" {
	L=$MNT/allocations/$A_device/label
	before=$(cat "$L")
	run bash -c "printf 'cut\0short' > '$L'"
	assert_failure
	assert_output --partial "Invalid argument"
	run cat "$L"
	assert_output "$before"
}

@test "odd names: only an id's own spelling, no wrapped or reversed ranges" {
	run stat "$MNT/allocations/0$A_managed"
	assert_failure
	run cat "$MNT/processes/0$A_pid/cmdline"
	assert_failure
	# Longer than cufs's request buffer: its cut-off must not name
	# another object.
	long=$(printf '%0*d' $((51 - ${#A_managed})) 0)${A_managed}0000
	run cat "$MNT/allocations/$long/kind"
	assert_failure
	run stat "$MNT/allocations/18446744073709551616"
	assert_failure
	R=$MNT/allocations/$A_managed/ranges
	b=$((A_managed_base))
	for name in 0x0-0xffffffffffffffff 0x0-0x10000000000000000 \
		    "$(printf '0x%x-0x%x' $((b + 8192)) $((b + 4096)))" \
		    "$(printf '0x%x-0x%x' "$b" "$b")" \
		    "$(printf '0x%x-' "$b")" - "$(printf '0x%x-0x%xz' "$b" $((b + 4096)))"; do
		run stat "$R/$name"
		assert_failure
	done
	run stat "$MNT/allocations/$A_managed/$(printf 'x%.0s' $(seq 300))"
	assert_failure
	run stat "$MNT/allocations/$A_managed/$(printf 'la\nbel')"
	assert_failure
}

@test "last_error keeps the CUresult name and why" {
	run bash -c "echo gpu9 > '$MNT/allocations/$A_managed/prefetch'"
	assert_failure
	run cat "$MNT/processes/$A_pid/last_error"
	assert_line "result CUDA_ERROR_INVALID_DEVICE"
	assert_line --regexp '^message .+'
	run bash -c "echo bogus > '$MNT/allocations/$A_managed/read_mostly'"
	run cat "$MNT/processes/$A_pid/last_error"
	assert_line "result CUDA_ERROR_INVALID_VALUE"
}

# ---------------------------------------------------------------- streams

@test "snapshot.json has the machine and every process's objects" {
	cp "$MNT/snapshot.json" "$WORK/snap.json"
	json_valid "$WORK/snap.json"
	run jq -r ".processes[\"$A_pid\"].allocations[\"$A_managed\"].kind" "$WORK/snap.json"
	assert_output managed
	run jq -r '.machine.devices | length' "$WORK/snap.json"
	assert_output 4
}

# ---------------------------------------------------------------- processes

@test "two workloads at once: each sees only its own objects" {
	start_workload B
	run ls "$MNT/processes"
	assert_line "$A_pid"
	assert_line "$B_pid"
	[ "$B_managed" != "$A_managed" ]
	run cat "$MNT/allocations/$B_managed/pid"
	assert_output "$B_pid"
	echo gpu3 >"$MNT/allocations/$B_managed/preferred_location"
	run wl_attr B preferred_location
	assert_output gpu3
	run wl_attr A preferred_location
	assert_output none
	run ls "$MNT/processes/$B_pid/allocations"
	refute_line "$A_managed"
	stop_workload B
}

@test "a killed process disappears, and its stale socket is removed" {
	start_workload C
	[ -d "$MNT/processes/$C_pid" ]
	kill -9 "$C_pid"
	wait "$C_pid" 2>/dev/null || true
	rm -f "$WORK/C.pid"
	wait_for bash -c "! ls '$MNT/processes' | grep -qx $C_pid"
	run ls "$MNT/allocations"
	refute_line "$C_managed"
	run ls "$MNT/allocations/$C_managed"
	assert_failure
	wait_for test ! -e "$CUEMU_RUNDIR/$C_pid.sock"
}

# cufs(8), PRIVACY AND BUDGETS: as /proc with hidepid=1.
@test "another user sees root's process's objects closed: no read, no write" {
	[ "$(id -u)" = 0 ] || skip "needs root to switch to nobody"
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	run as_nobody cat "$MNT/allocations/$A_managed/kind"
	assert_failure
	assert_output --partial "Permission denied"
	run as_nobody stat -c %a "$MNT/allocations/$A_managed"
	assert_output 500
	before=$(wl_query A)
	run as_nobody bash -c "echo gpu1 > '$MNT/allocations/$A_managed/prefetch'"
	assert_failure
	assert_output --partial "Permission denied"
	L=$MNT/allocations/$A_device/label
	label=$(cat "$L")
	run as_nobody truncate -s 0 "$L"
	assert_failure
	assert_output --partial "Permission denied"
	run as_nobody bash -c "echo theirs >> '$L'"
	assert_failure
	run as_nobody chmod 666 "$L"
	assert_failure
	run as_nobody touch "$L"
	assert_failure
	[ "$(cat "$L")" = "$label" ]
	[ "$(wl_query A)" = "$before" ]
}

# A socket that answers like a process: fake_process PATH MACHINE PID
# [EVENT-LINE]; PATH - for its own <pid>.sock. One client at a time.
fake_process() {
	python3 -c '
import json, os, socket, sys
path, pid = sys.argv[1], int(sys.argv[3])
if path == "-":
    pid = os.getpid()
    path = "%s/%d.sock" % (os.environ["CUEMU_RUNDIR"], pid)
s = socket.socket(socket.AF_UNIX)
# through the directory, as libcuemu binds: the run dir may lie deeper
# than a socket address holds
d = os.open(os.path.dirname(path), os.O_PATH)
s.bind("/proc/self/fd/%d/%s" % (d, os.path.basename(path)))
s.listen(4)
seq = 0
while True:
    c, _ = s.accept()
    for line in c.makefile("rb"):
        seq += 1
        ev = [{"seq": seq, "line": sys.argv[4]}] if len(sys.argv) > 4 else []
        a = {"ok": True, "pid": pid, "uid": os.getuid(),
             "cmdline": "fake", "version": "0", "machine": sys.argv[2],
             "ids": [], "value": {}, "events": ev, "last": seq}
        c.sendall((json.dumps(a) + "\n").encode())
' "$@" 3>&- &
	echo $! >"$WORK/fake.pid"
}

@test "a socket named for another process's pid is not taken for it" {
	sleep 60 3>&- &
	sleeper=$!
	echo "$sleeper" >"$WORK/sleeper.pid"
	fake_process "$CUEMU_RUNDIR/$sleeper.sock" "$CUEMU_MACHINE" "$sleeper"
	wait_for test -S "$CUEMU_RUNDIR/$sleeper.sock"
	run ls "$MNT/processes"
	assert_line "$A_pid"
	refute_line "$sleeper"
	run stat "$MNT/processes/$sleeper"
	assert_failure
	stop_workload fake
	stop_workload sleeper
	rm -f "$CUEMU_RUNDIR/$sleeper.sock"
}

# cufs(8), ROBUSTNESS: what cufs shows of a process is read from the state
# it publishes, so a stopped process reads as it was when it stopped, at
# once; a write to it fails with ETIMEDOUT and changes nothing.
# timeout(1) bounds each step, so that a hang fails the test instead of
# hanging it.
@test "a stopped process reads as it was, and a write to it fails with ETIMEDOUT" {
	run cat "$MNT/allocations/$A_managed/kind"
	assert_output managed
	kill -STOP "$A_pid"
	run timeout 5 cat "$MNT/allocations/$A_managed/kind"
	assert_success
	assert_output managed
	run timeout 5 cat "$MNT/processes/$A_pid/state"
	assert_output stopped
	run write_errno "$MNT/allocations/$A_managed/preferred_location" gpu2
	kill -CONT "$A_pid"
	assert_output ETIMEDOUT
	grep -q "pid $A_pid not sent: the process is stopped" "$WORK/cufs.log"
	run wl_attr A preferred_location
	assert_output none
}

@test "a process continued after a stop takes writes again" {
	K=$MNT/allocations/$A_managed/preferred_location
	kill -STOP "$A_pid"
	run timeout 5 bash -c "echo gpu1 > '$K'"
	kill -CONT "$A_pid"
	assert_failure
	assert_output --partial "Connection timed out"
	wait_for bash -c '[ "$(cat "$1")" = running ]' _ "$MNT/processes/$A_pid/state"
	echo gpu3 >"$K"
	run cat "$K"
	assert_output gpu3
	run wl_attr A preferred_location
	assert_output gpu3
}

@test "a process stopped for less than 2 s is waited for, not given up on" {
	run cat "$MNT/allocations/$A_managed/kind"
	assert_output managed
	kill -STOP "$A_pid"
	(sleep 0.5; kill -CONT "$A_pid") 3>&- &
	run timeout 5 cat "$MNT/allocations/$A_managed/kind"
	kill -CONT "$A_pid"
	assert_success
	assert_output managed
}

@test "a listing shows a stopped process's objects beside the others" {
	start_workload B
	run ls "$MNT/allocations"
	assert_line "$A_managed"
	assert_line "$B_managed"
	kill -STOP "$B_pid"
	run timeout 5 ls "$MNT/allocations"
	kill -CONT "$B_pid"
	assert_success
	assert_line "$A_managed"
	assert_line "$B_managed"
}

@test "cufs killed and restarted finds the running processes" {
	echo gpu1 >"$MNT/allocations/$A_managed/preferred_location"
	kill -9 "$(cat "$WORK/cufs.pid")"
	rm -f "$WORK/cufs.pid"
	fusermount3 -u -z "$MNT"
	kill -0 "$A_pid" # the workload did not notice
	start_cufs
	run ls "$MNT/processes"
	assert_line "$A_pid"
	run cat "$MNT/allocations/$A_managed/kind"
	assert_output managed
	run cat "$MNT/allocations/$A_managed/preferred_location"
	assert_output gpu1
	run wl_attr A preferred_location
	assert_output gpu1
}

@test "cufs --help and --version" {
	run "$CUFS" --help
	assert_success
	assert_output --partial "--rundir"
	run "$CUFS" --version
	assert_success
	assert_output --regexp '^cufs [0-9]'
}
