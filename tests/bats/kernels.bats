#!/usr/bin/env bats
# kernels.bats - kernels in /cu (cufs(5), KERNELS): a real kernel of our
# own (tests/unit/kernels/pages.ptx, run by tests/unit/kstep a launch at
# a time) shows under processes/<pid>/kernels/<name>/ with what its
# launches did, in its allocations' touched_by and faults_by_kernel, and
# as launch and kernel_done lines of the event log; an advice or prefetch
# written to /cu between launches changes what the next launch faults.

load helpers

KSTEP=$top_builddir/tests/unit/kstep
# 8 MiB, one thread a 4 KiB page: a launch over memory the CPU holds
# faults each of its 2,048 pages and brings 8 MiB to gpu0.
PAGES=2048
BYTES=8388608

setup_file() { mount_setup_file; }
teardown_file() { cleanup_all; }

setup() {
	mkfifo "$WORK/K.fifo"
	"$KSTEP" "$WORK/K.ids" 8 "$WORK/K.fifo" >"$WORK/K.out" 2>&1 3>&- &
	echo $! >"$WORK/K.pid"
	wait_for test -s "$WORK/K.ids" || { cat "$WORK/K.out" >&2; return 1; }
	P=$(awk '$1 == "pid" { print $2 }' "$WORK/K.ids")
	A=$(awk '$1 == "alloc" { print $2 }' "$WORK/K.ids")
	D=$MNT/processes/$P/kernels
	wait_for test -d "$MNT/processes/$P" || { echo "cufs does not show kstep" >&2; return 1; }
}

teardown() {
	to_fifo K quit 2>/dev/null || true
	stop_workload K
	rm -f "$WORK"/K.*
}

# steps_done: how many steps kstep has answered.
steps_done() {
	grep -c '^done' "$WORK/K.out" || true
}

steps_beyond() {
	[ "$(steps_done)" -gt "$1" ]
}

# step LINE: one step of kstep, waited for; fails unless it succeeded.
step() {
	local n
	n=$(steps_done)
	to_fifo K "$1" || fail "kstep does not read its steps"
	wait_for steps_beyond "$n" || fail "kstep did not do '$1'"
	tail -n 1 "$WORK/K.out" | grep -q ' CUDA_SUCCESS$' ||
		fail "$1: $(tail -n 1 "$WORK/K.out")"
}

# kernel_is KERNEL FILE VALUE: the kernel's file reads VALUE (cufs shows a
# change once the process has published it).
kernel_is() {
	[ "$(cat "$D/$1/$2" 2>/dev/null)" = "$3" ]
}

# kfile KERNEL FILE: a kernel's file, once cufs shows it.
kfile() {
	wait_for test -e "$D/$1/$2" || { echo "<no $1/$2>"; return 1; }
	cat "$D/$1/$2"
}

line_of() { awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print }' <<<"$1"; }

@test "kernels: a launch is a directory of the kernel's PTX name, with what it did" {
	[ -d "$D" ]
	[ -z "$(ls "$D")" ]
	step "launch touch_all"
	wait_for test -L "$D/touch_all"
	[ "$(readlink "$D/touch_all")" = "../../../kernels/$(cat "$D/touch_all/id")" ]
	[ "$(kfile touch_all name)" = touch_all ]
	[ "$(kfile touch_all launches)" = 1 ]
	[ "$(kfile touch_all running)" = 0 ]
	[ "$(kfile touch_all last_grid)" = "16 1 1" ]
	[ "$(kfile touch_all last_block)" = "128 1 1" ]
	[ "$(kfile touch_all shared_bytes)" = 0 ]
	[ "$(kfile touch_all device)" = gpu0 ]
	[ "$(kfile touch_all gpu_faults)" = "$PAGES" ]
	[ "$(kfile touch_all remote_accesses)" = 0 ]
	# one byte read and one written a page, all of managed memory
	[ "$(line_of "$(kfile touch_all bytes_read)" managed)" = "$PAGES" ]
	[ "$(line_of "$(kfile touch_all bytes_written)" managed)" = "$PAGES" ]
	[ "$(line_of "$(kfile touch_all bytes_read)" device)" = 0 ]
	[ "$(line_of "$(kfile touch_all migrated_in)" cpu)" = "$BYTES" ]
	[ "$(line_of "$(kfile touch_all migrated_out)" cpu)" = 0 ]
	local m f
	m=$(kfile touch_all model_ns)
	f=$(kfile touch_all fault_ns)
	[ "$m" -gt 0 ] && [ "$f" -gt 0 ] && [ "$f" -le "$m" ]
	# what cuFuncGetAttribute answers of it
	[ "$(kfile touch_all registers)" -gt 0 ]
	[ "$(ls "$D/touch_all/allocations")" = "$A" ]
	[ "$(readlink "$D/touch_all/allocations/$A")" = "../../../allocations/$A" ]
	[ "$(cat "$D/touch_all/allocations/$A/kind")" = managed ]
}

@test "kernels: a second launch over resident memory adds a launch and no fault" {
	step "launch touch_all"
	step "launch touch_all"
	wait_for kernel_is touch_all launches 2
	wait_for kernel_is touch_all running 0
	[ "$(kfile touch_all gpu_faults)" = "$PAGES" ]
	[ "$(line_of "$(kfile touch_all migrated_in)" cpu)" = "$BYTES" ]
	[ "$(line_of "$(kfile touch_all bytes_written)" managed)" = $((2 * PAGES)) ]
	assert_kernel_faults touch_all "$PAGES"
	run assert_kernel_faults touch_all 1
	assert_failure
	assert_output --partial "kernel touch_all took $PAGES GPU faults, not 1"
	run assert_kernel_faults no_such_kernel 0
	assert_failure
	assert_output --partial "no process has launched kernel 'no_such_kernel'"
}

@test "kernels: a C++ kernel's directory is its entry name, its name file the demangled one" {
	step "launch scale_pages"
	[ "$(kfile _Z11scale_pagesPfyf name)" = "scale_pages(float*, unsigned long long, float)" ]
	[ "$(kfile _Z11scale_pagesPfyf kernel)" = _Z11scale_pagesPfyf ]
}

@test "kernels: an allocation says which kernels touched it, with bytes and faults" {
	[ -z "$(cat "$MNT/allocations/$A/touched_by")" ]
	run assert_touched_by "$A" touch_all
	assert_failure
	assert_output --partial "was not touched by kernel touch_all"
	step "launch touch_all"
	step "launch read_all"
	wait_for grep -q read_all "$MNT/allocations/$A/touched_by"
	# every page of it touched once by each launch; read_all found them
	# on gpu0 already
	[ "$(line_of "$(cat "$MNT/allocations/$A/touched_by")" touch_all)" = "$BYTES $PAGES" ]
	[ "$(line_of "$(cat "$MNT/allocations/$A/touched_by")" read_all)" = "$BYTES 0" ]
	[ "$(line_of "$(cat "$MNT/allocations/$A/faults_by_kernel")" touch_all)" = "$PAGES" ]
	[ "$(line_of "$(cat "$MNT/allocations/$A/faults_by_kernel")" read_all)" = 0 ]
	assert_touched_by "$A" touch_all
	assert_touched_by "$A" read_all
	# read_all's output is device memory: touched, a page of it
	local out
	out=$(ls "$D/read_all/allocations" | grep -vx "$A")
	[ "$(line_of "$(cat "$MNT/allocations/$out/touched_by")" read_all)" = "4096 0" ]
	[ "$(cat "$MNT/allocations/$out/kind")" = device ]
}

@test "kernels: launch and kernel_done lines in the event log, and cufs-events -k" {
	step "launch touch_all"
	step "launch read_all"
	wait_for grep -q "kernel_done kernel=read_all" "$MNT/processes/$P/events"
	run grep " launch kernel=touch_all " "$MNT/processes/$P/events"
	assert_output --regexp "^$P [0-9.]+ launch kernel=touch_all launch=[0-9]+ gpu0 stream=[0-9]+ grid=16,1,1 block=128,1,1 shared=0 model_ns=[0-9]+$"
	run grep " kernel_done kernel=touch_all " "$MNT/processes/$P/events"
	assert_output --regexp "kernel_ns=[1-9][0-9]* faults=$PAGES migrated_in=$BYTES migrated_out=0 CUDA_SUCCESS model_ns="
	run grep " kernel_done kernel=read_all " "$MNT/processes/$P/events"
	assert_output --regexp " faults=0 migrated_in=0 "
	# the faults and migrations of touch_all's launch name it
	grep " fault .* kernel=touch_all" "$MNT/processes/$P/events"
	grep " migrate .* kernel=touch_all (fault)" "$MNT/processes/$P/events"
	run "$top_srcdir/scripts/cufs-events" -f "$MNT/processes/$P/events" -k read_all
	assert_success
	assert_output --partial "launch"
	assert_output --partial "kernel_done"
	refute_output --partial "touch_all"
	run "$top_srcdir/scripts/cufs-events" -f "$MNT/processes/$P/events" -k touch_all -t kernel_done
	assert_success
	[ "$(grep -c kernel_done <<<"$output")" = 1 ]
	assert_output --partial "8.0MiB"
	run "$top_srcdir/scripts/cufs-events" -f "$MNT/processes/$P/events" -k 'a b'
	assert_failure 2
	assert_output --partial "-k needs kernel names"
}

@test "kernels: steering between launches: a prefetch written to /cu makes the next launch fault nothing" {
	step "launch touch_all"
	# the CPU takes every page back; a launch now faults them all again
	step cpu
	step "launch touch_all"
	wait_for kernel_is touch_all launches 2
	wait_for kernel_is touch_all running 0
	[ "$(kfile touch_all gpu_faults)" = $((2 * PAGES)) ]
	step cpu
	# the prefetch runs before the next launch, which then finds it all
	echo gpu0 >"$MNT/allocations/$A/prefetch"
	step "launch touch_all"
	wait_for kernel_is touch_all launches 3
	wait_for kernel_is touch_all running 0
	[ "$(kfile touch_all gpu_faults)" = $((2 * PAGES)) ]
	[ "$(line_of "$(kfile touch_all migrated_in)" cpu)" = $((2 * BYTES)) ]
	# the event log is read from the process when the file is: its line
	# may come after the kernel's record did
	wait_for grep -q " kernel_done kernel=touch_all .* faults=0 " "$MNT/processes/$P/events"
	run grep -c " kernel_done kernel=touch_all .* faults=0 " "$MNT/processes/$P/events"
	assert_output 1
	# and an advice: the CPU's pages stay where they are preferred, the
	# kernel maps them from there instead of moving them
	step cpu
	echo cpu >"$MNT/allocations/$A/preferred_location"
	echo gpu0 >"$MNT/allocations/$A/accessed_by"
	step "launch touch_all"
	wait_for kernel_is touch_all launches 4
	wait_for kernel_is touch_all running 0
	[ "$(kfile touch_all gpu_faults)" = $((2 * PAGES)) ]
	[ "$(line_of "$(kfile touch_all migrated_in)" cpu)" = $((2 * BYTES)) ]
	[ "$(kfile touch_all remote_accesses)" -gt 0 ]
	assert_resident "$A" cpu "$BYTES"
}

@test "kernels: a kernel's files are read-only and an unknown kernel is not there" {
	step "launch touch_all"
	wait_for test -e "$D/touch_all/launches"
	run write_errno "$D/touch_all/launches" 0
	assert_output "open EACCES"
	[ "$(kfile touch_all launches)" = 1 ]
	[ ! -e "$D/no_such_kernel" ]
	[ ! -e "$D/touch_all/allocations/999999" ]
	[ ! -e "$MNT/kernels/999999" ]
	ls "$MNT/kernels" | grep -qx "$(cat "$D/touch_all/id")"
}

@test "kernels: a name looked up before its kernel's first launch is found once it has run, and the others still" {
	step "launch touch_all"
	wait_for test -L "$D/touch_all"
	# the lookups before read_all has run find nothing, and keep finding
	# nothing while no kernel is added
	[ ! -e "$D/read_all" ]
	[ ! -e "$D/read_all" ]
	step "launch read_all"
	wait_for test -L "$D/read_all"
	[ "$(readlink "$D/read_all")" = "../../../kernels/$(cat "$D/read_all/id")" ]
	[ "$(kfile read_all name)" = read_all ]
	step "launch scale_pages"
	wait_for test -L "$D/_Z11scale_pagesPfyf"
	[ "$(readlink "$D/touch_all")" = "../../../kernels/$(cat "$D/touch_all/id")" ]
	[ "$(cat "$D/touch_all/id")" != "$(cat "$D/read_all/id")" ]
	[ "$(ls "$D" | sort | tr '\n' ' ')" = "_Z11scale_pagesPfyf read_all touch_all " ]
	[ ! -e "$D/touch_al" ]
	[ ! -e "$D/touch_all_" ]
}

@test "kernels: snapshot.json carries each process's kernels" {
	step "launch touch_all"
	wait_for test -e "$D/touch_all"
	python3 - "$MNT/snapshot.json" "$P" <<'EOF'
import json, sys
snap = json.load(open(sys.argv[1]))
ks = snap["processes"][sys.argv[2]]["kernels"]
k = [k for k in ks.values() if k["kernel"] == "touch_all"][0]
assert k["launches"] == 1 and k["gpu_faults"] == 2048, k
EOF
}

@test "kernels: cufs-watch shows the kernels last launched with their faults" {
	step "launch touch_all"
	step "launch read_all"
	wait_for test -e "$D/read_all"
	run "$top_srcdir/scripts/cufs-watch" -m "$MNT" -1 -p "$P"
	assert_success
	assert_line --regexp "^PID +KERNEL +LAUNCHES +RUNNING +FAULTS +FAULTED_IN +MODEL_TIME$"
	# the last launched first
	local k
	k=$(grep -n -E "^$P +(touch_all|read_all) " <<<"$output")
	[[ $(sed -n 1p <<<"$k") =~ read_all\ +1\ +0\ +0\ +0B ]]
	[[ $(sed -n 2p <<<"$k") =~ touch_all\ +1\ +0\ +$PAGES\ +8\.0MiB ]]
}

@test "kernels: cufs-prometheus exports per-kernel counters, the kernels past -k summed" {
	step "launch touch_all"
	step "launch read_all"
	step "launch scale_pages"
	wait_for test -e "$D/_Z11scale_pagesPfyf"
	run "$top_srcdir/scripts/cufs-prometheus" -m "$MNT" --no-allocations -k 1
	assert_success
	assert_line "cufs_kernel_gpu_faults_total{pid=\"$P\",command=\"kstep\",kernel=\"touch_all\"} $PAGES"
	assert_line "cufs_kernel_migrated_bytes_total{pid=\"$P\",command=\"kstep\",kernel=\"touch_all\",direction=\"in\"} $BYTES"
	assert_line "cufs_kernel_launches_total{pid=\"$P\",command=\"kstep\",kernel=\"(rest)\"} 2"
	refute_output --partial 'kernel="read_all"'
	[ "$(grep -c '^cufs_kernel_launches_total' <<<"$output")" = 2 ]
	run "$top_srcdir/scripts/cufs-prometheus" -m "$MNT" --no-allocations -k 0
	assert_line "cufs_kernel_launches_total{pid=\"$P\",command=\"kstep\",kernel=\"(rest)\"} 3"
	run "$top_srcdir/scripts/cufs-prometheus" -m "$MNT" -k x
	assert_failure 2
	assert_output --partial "-k needs a count"
}

@test "examples/steering/steer.sh: a program built by nvcc steered between launches from a shell" {
	local nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
	[ -x "$nvcc" ] || skip "nvcc is not installed"
	mkdir -p "$WORK/lib"
	ln -sf "$top_builddir/runtime/.libs/libcuemu.so.0" "$WORK/lib/libcuda.so.1"
	ln -sf "$top_builddir/runtime/.libs/libcudart.so.13" "$WORK/lib/libcudart.so.13"
	CUEMU_LIBDIR=$WORK/lib run timeout 300 "$top_srcdir/examples/steering/steer.sh" "$MNT"
	rm -rf "$WORK/lib"
	assert_success
	# 32 MiB: 8,192 pages faulted in the first round, none after
	assert_line --regexp "^1 +nothing +8192 +33554432 +0 +[0-9]+$"
	assert_line --regexp "^2 +prefetch gpu0 +8192 +33554432 +0 +[0-9]+$"
	assert_line --regexp "^3 +preferred_location cpu, accessed_by gpu0 +8192 +33554432 +[1-9][0-9]* +[0-9]+$"
	assert_line "scale 100663296 8192"
}
