#!/usr/bin/env bats
# errno.bats - cufs(5), "Writing": a write the API refuses fails with the
# errno that stands for its CUresult, and leaves the CUresult's name in the
# process's last_error. One test a row of the table, each errno written
# out, each triggered by a real write through the mount.
#
# Rows no writable file can reach today (the API calls behind /cu writes
# never answer these CUresults): ENOMEM (CUDA_ERROR_OUT_OF_MEMORY), EBUSY
# (NOT_READY, ALREADY_MAPPED, ...), EBADF (INVALID_HANDLE,
# CONTEXT_IS_DESTROYED), EPERM (NOT_PERMITTED), ETIMEDOUT (TIMEOUT). Their
# errnos are pinned, written out, in tests/unit/test_control.c.

load helpers

workload_lifecycle

setup() {
	workload_setup
	M=$MNT/allocations/$A_managed
	P=$(dirname "$(grep -lx "$A_pool_block" "$MNT"/pools/*/allocations | head -1)")
	R=$MNT/reservations/$A_reservation
}

@test "EINVAL: CUDA_ERROR_INVALID_VALUE, a word that is not a location" {
	run write_errno "$M/preferred_location" mars
	assert_output EINVAL
	run last_result "$A_pid"
	assert_output CUDA_ERROR_INVALID_VALUE
}

@test "EINVAL: CUDA_ERROR_INVALID_VALUE, a number that is not valid there" {
	run write_errno "$P/used_mem_high" 5
	assert_output EINVAL
	run last_result "$A_pid"
	assert_output CUDA_ERROR_INVALID_VALUE
}

@test "ENODEV: CUDA_ERROR_INVALID_DEVICE, a prefetch to a device that does not exist" {
	run write_errno "$M/prefetch" gpu9
	assert_output ENODEV
	run last_result "$A_pid"
	assert_output CUDA_ERROR_INVALID_DEVICE
}

@test "ENODEV: CUDA_ERROR_INVALID_DEVICE, pool access for a device that does not exist" {
	run write_errno "$P/access" "gpu9 rw"
	assert_output ENODEV
	run last_result "$A_pid"
	assert_output CUDA_ERROR_INVALID_DEVICE
}

@test "EOPNOTSUPP: CUDA_ERROR_NOT_SUPPORTED, read-only access to a pool" {
	run write_errno "$P/access" "gpu1 ro"
	assert_output EOPNOTSUPP
	run last_result "$A_pid"
	assert_output CUDA_ERROR_NOT_SUPPORTED
}

@test "EOPNOTSUPP: CUDA_ERROR_NOT_SUPPORTED, cpu access to a mapping of device memory" {
	run write_errno "$R/mappings/0x0/access" "cpu rw"
	assert_output EOPNOTSUPP
	run last_result "$A_pid"
	assert_output CUDA_ERROR_NOT_SUPPORTED
}

@test "ENOENT: a file held open for writing whose object is gone" {
	K=$MNT/allocations/$A_managed/preferred_location
	exec 5>"$K"
	stop_workload A
	run bash -c 'printf "gpu1\n" >&5'
	exec 5>&-
	assert_failure
	assert_output --partial "No such file or directory"
}

@test "ENOENT: a range name that is not page-aligned does not exist" {
	b=$((A_managed_base))
	run write_errno "$M/ranges/$(printf '0x%x-0x%x' $((b + 1)) $((b + 4096)))/read_mostly" 1
	assert_output "open ENOENT"
}

@test "ETIMEDOUT: a write to a process that is stopped, and nothing changes" {
	run cat "$M/kind"
	assert_output managed
	kill -STOP "$A_pid"
	run write_errno "$M/read_mostly" 1
	kill -CONT "$A_pid"
	assert_output ETIMEDOUT
	run wl_attr A read_mostly
	assert_output 0
}

@test "ENOENT: a name is never made: touch, mkdir, a write to no file" {
	run touch "$M/new-file"
	assert_failure
	assert_output --partial "No such file or directory"
	run mkdir "$MNT/allocations/new-dir"
	assert_failure
	assert_output --partial "No such file or directory"
	run write_errno "$M/no-such-file" 1
	assert_output "open ENOENT"
	run ln -s kind "$M/link"
	assert_failure
	assert_output --partial "No such file or directory"
	[ ! -e "$M/new-file" ] && [ ! -e "$MNT/allocations/new-dir" ]
}

@test "EPERM: a name is never removed, renamed or given times" {
	run rm -f "$M/label"
	assert_failure
	assert_output --partial "Operation not permitted"
	run mv "$M/label" "$M/label2"
	assert_failure
	assert_output --partial "Operation not permitted"
	run touch "$M/label"
	assert_failure
	assert_output --partial "Operation not permitted"
	[ -f "$M/label" ]
}

@test "EACCES: opening a file that is not writable for writing" {
	run write_errno "$M/kind" device
	assert_output "open EACCES"
}

@test "EACCES: opening another user's process's writable file for writing" {
	[ "$(id -u)" = 0 ] || skip "needs root to switch to nobody: run make check as root"
	run setpriv --reuid=nobody --regid=nogroup --clear-groups \
		/usr/bin/python3 -c 'import errno, os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY); print("ok")
except OSError as e:
    print(errno.errorcode[e.errno])' "$M/prefetch"
	assert_output EACCES
}
