#!/bin/sh
# steer.sh - steering a running CUDA program's kernel from a shell, through
# /cu: builds scale.cu (beside this script) with nvcc, runs it on libcuemu,
# and between its rounds writes to its buffer's files; after each round it
# prints what the kernel's launches did, from processes/<pid>/kernels/scale/.
#
#   round 1  nothing written: the kernel faults every page in from the CPU
#   round 2  prefetch gpu0 before the launch: the pages are there, no fault
#   round 3  preferred_location cpu, accessed_by gpu0: the kernel reads and
#            writes them where they are, remotely, and moves nothing
#
# Usage: steer.sh [MOUNT]   (default: $CUFS_MOUNT, else /cu; cufs must show
# the machine this program runs on). CUEMU_LIBDIR names the directory
# holding libcuemu's libcuda.so.1 and libcudart.so.13 (default: pkg-config's
# libdir of cuemu, /cuemu). Skipped, saying so, where nvcc is missing.
set -eu

mount=${1:-${CUFS_MOUNT:-/cu}}
here=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
	echo "steer: nvcc is not installed; skipped"
	exit 0
fi
[ -d "$mount/devices" ] || { echo "steer: $mount is not a cufs mount" >&2; exit 2; }
libdir=${CUEMU_LIBDIR:-$(pkg-config --variable=libdir cuemu 2>/dev/null)/cuemu}

work=$(mktemp -d "${TMPDIR:-/tmp}/steer.XXXXXX")
pid=
cleanup() {
	[ -z "$pid" ] || kill "$pid" 2>/dev/null || true
	exec 3>&- 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

"$NVCC" -cudart shared -o "$work/scale" "$here/scale.cu"
mkfifo "$work/in"
LD_LIBRARY_PATH=$libdir "$work/scale" 3 32 <"$work/in" >"$work/out" 2>&1 &
pid=$!
exec 3>"$work/in"

# wait_line TEXT: until the program has printed TEXT (at most 60 s).
wait_line() {
	i=0
	until grep -q "^$1" "$work/out"; do
		i=$((i + 1))
		if [ "$i" -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "steer: the program did not get to '$1':" >&2
			cat "$work/out" >&2
			exit 1
		fi
		sleep 0.1
	done
}

# The one managed allocation the program has, once cufs shows it.
wait_line "round 1 filled"
i=0
until [ -e "$mount/processes/$pid/allocations" ] &&
      id=$(ls "$mount/processes/$pid/allocations" | head -n 1) && [ -n "$id" ]; do
	i=$((i + 1)); [ "$i" -lt 100 ] || { echo "steer: cufs does not show $pid" >&2; exit 1; }
	sleep 0.1
done
a=$mount/allocations/$id
k=$mount/processes/$pid/kernels/scale

# round N WHAT: lets round N launch, then prints what the kernel did.
round() {
	echo go >&3
	wait_line "round $1 scaled"
	i=0 # cufs shows the launch once the process has published it
	until [ "$(cat "$k/launches" 2>/dev/null)" = "$1" ]; do
		i=$((i + 1)); [ "$i" -lt 100 ] || break
		sleep 0.1
	done
	printf '%-6s %-40s %8s %14s %8s %s\n' "$1" "$2" "$(cat "$k/gpu_faults")" \
		"$(awk '$1 == "cpu" { print $2 }' "$k/migrated_in")" \
		"$(cat "$k/remote_accesses")" "$(cat "$k/model_ns")"
}

printf '%-6s %-40s %8s %14s %8s %s\n' round "written to /cu before the launch" \
	faults "migrated_in" remote "model_ns (all launches so far)"
round 1 "nothing"
wait_line "round 2 filled"
echo gpu0 >"$a/prefetch"
round 2 "prefetch gpu0"
wait_line "round 3 filled"
echo cpu >"$a/preferred_location"
echo gpu0 >"$a/accessed_by"
round 3 "preferred_location cpu, accessed_by gpu0"
echo
echo "touched_by ($a/touched_by: kernel, bytes, faults):"
cat "$a/touched_by"
wait_line done
echo quit >&3
wait "$pid"
pid=
