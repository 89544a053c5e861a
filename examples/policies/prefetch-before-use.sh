#!/bin/sh
# prefetch-before-use - each managed allocation of the workload is
# prefetched, before its kernels run, to the GPU whose context made it
# (its "device" in /cu), so that its first touches there do not fault.
#   prefetch-before-use.sh MOUNT PID
set -eu
mnt=$1 pid=$2
for a in "$mnt/processes/$pid/allocations"/*; do
	[ -e "$a/prefetch" ] || continue # managed memory only
	dev=$(cat "$a/device")
	case $dev in
	gpu*) echo "$dev" >"$a/prefetch" ;;
	esac
done
