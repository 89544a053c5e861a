#!/bin/sh
# ucx.sh - builds UCX (openucx/ucx) from a source tree given by path against
# the installed libcuemu and libnvidia-ml, then checks that its CUDA
# transports come up on the emulated machine and moves data between two
# processes. Prints TAP. Not part of `make check`: UCX is not ours and is
# not shipped, and its build takes long.
#
#   tests/ucx.sh UCX_TREE [PREFIX]
#
# PREFIX is where cufs was installed (default: pkg-config's cuemu). The
# script makes the prefix look like a CUDA install to UCX's configure: a
# directory with include/ (the installed headers: cuda.h, nvml.h...) and
# lib64/ with libcuda, libcudart and libnvidia-ml, all links into PREFIX.
# It builds UCX there (out of tree, nice 10), then:
#   - ucx_info -d lists the cuda_copy and cuda_ipc transports;
#   - ucx_perftest -t tag_bw between two processes with CUDA memory (-m
#     cuda) on the default transports, and the same with host memory;
#     each run's bandwidth is printed as a TAP comment.
# Both processes run on one private machine (CUEMU_MACHINE), removed after.
#
# Environment: UCX_WORK (the build and work directory; kept, and a UCX
# already built there is reused; default a temporary one, removed),
# JOBS (make -j, default 2), SIZE (message bytes, default 16 MiB),
# ITERS (default 200).
set -u
src=${1:-}
prefix=${2:-}
if [ -z "$src" ] || [ ! -f "$src/configure.ac" ] ||
   [ ! -d "$src/src/uct/cuda" ]; then
	echo "usage: $0 UCX_TREE [PREFIX]" >&2
	exit 2
fi
src=$(cd "$src" && pwd)
if [ -z "$prefix" ]; then
	prefix=$(pkg-config --variable=prefix cuemu 2>/dev/null) || {
		echo "1..0 # SKIP no PREFIX given and pkg-config finds no cuemu"
		exit 0
	}
fi
libdir=$prefix/lib
[ -e "$libdir/cuemu/libnvidia-ml.so.1" ] || libdir=$prefix/lib64
for f in "$prefix/include/cuemu/cuda.h" "$prefix/include/cuemu/nvml.h" \
	 "$libdir/cuemu/libcuda.so.1" "$libdir/cuemu/libnvidia-ml.so.1" \
	 "$libdir/libcuemu.so.0"; do
	[ -e "$f" ] || { echo "$0: $f missing: is $prefix installed?" >&2; exit 2; }
done
JOBS=${JOBS:-2}
SIZE=${SIZE:-16777216}
ITERS=${ITERS:-200}
if [ -n "${UCX_WORK:-}" ]; then
	work=$UCX_WORK
	mkdir -p "$work" || exit 99
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/ucx.XXXXXX") || exit 99
fi
machine=cuemu-ucx-$$
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	rm -f "/dev/shm/$machine"
	[ -n "${UCX_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM HUP
n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { tail -n "${2:-30}" "$1" | sed 's/^/# /'; }

# ------------------------------------------------------------ a CUDA root
cuda=$work/cuda
rm -rf "$cuda"
mkdir -p "$cuda/lib64" || exit 99
ln -s "$prefix/include/cuemu" "$cuda/include"
for l in libcuda.so libcuda.so.1; do
	ln -s "$libdir/cuemu/libcuda.so.1" "$cuda/lib64/$l"
done
# The runtime is libcuemu itself (it has the cuda* entries); the aliases
# and libnvidia-ml need it by its own name.
ln -s "$libdir/libcuemu.so.0" "$cuda/lib64/libcuemu.so.0"
ln -s "$libdir/libcuemu.so.0" "$cuda/lib64/libcudart.so"
ln -s "$libdir/libcuemu.so.0" "$cuda/lib64/libcudart.so.13"
for l in libnvidia-ml.so libnvidia-ml.so.1; do
	ln -s "$libdir/cuemu/libnvidia-ml.so.1" "$cuda/lib64/$l"
done

# ------------------------------------------------------------ build
# Only the emulation: a real toolkit on PATH stays out of the build, and
# UCX builds no device code (NVCC=/bin/false, below).
PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -i cuda | paste -sd: -)
export PATH
unset CUDA_HOME CUDA_PATH
CUDA_BIN_PATH=$cuda/bin
export CUDA_BIN_PATH
ucx=$work/ucx
if [ -x "$ucx/bin/ucx_info" ]; then
	pass "UCX already built in $ucx"
else
	mkdir -p "$work/build"
	if [ ! -x "$src/configure" ]; then
		(cd "$src" && ./autogen.sh) >"$work/autogen.log" 2>&1 ||
			{ fail "UCX autogen"; diag "$work/autogen.log"; exit 1; }
	fi
	if (cd "$work/build" && nice -n 10 "$src/configure" --prefix="$ucx" \
		--with-cuda="$cuda" --without-java --without-go \
		--without-rocm --without-verbs --without-rdmacm \
		--disable-doxygen-doc NVCC=/bin/false) \
		>"$work/configure.log" 2>&1 &&
	   grep -q "^#define HAVE_CUDA 1" "$work/build/config.h"; then
		pass "UCX configures with --with-cuda=<the prefix as a CUDA root>"
	else
		fail "UCX configures with --with-cuda=<the prefix as a CUDA root>"
		diag "$work/configure.log"
		exit 1
	fi
	if (cd "$work/build" && nice -n 10 make -j"$JOBS" &&
	    nice -n 10 make install) >"$work/make.log" 2>&1; then
		pass "UCX builds against the installed headers and libraries"
	else
		fail "UCX builds against the installed headers and libraries"
		diag "$work/make.log" 40
		exit 1
	fi
fi

# ------------------------------------------------------------ run
run_env() {
	env CUEMU_MACHINE="$machine" CUEMU_CONTROL=0 \
	    LD_LIBRARY_PATH="$cuda/lib64:$ucx/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	    "$@"
}
if run_env "$ucx/bin/ucx_info" -d >"$work/info.log" 2>&1; then
	pass "ucx_info -d runs"
else
	fail "ucx_info -d runs"
	diag "$work/info.log"
fi
for tl in cuda_copy cuda_ipc; do
	if grep -q "Transport: $tl\$" "$work/info.log"; then
		pass "ucx_info -d lists $tl"
	else
		fail "ucx_info -d lists $tl"
	fi
done

# perftest MEM: a tag_bw run between a server and a client on this host;
# passes when the client reports, and prints its final bandwidth line.
port=$((20000 + $$ % 20000))
perftest() {
	mem=$1
	log=$work/perf-$mem
	port=$((port + 1))
	run_env "$ucx/bin/ucx_perftest" -p "$port" -t tag_bw -m "$mem" \
		-s "$SIZE" -n "$ITERS" >"$log.server" 2>&1 &
	spid=$!
	pids="$pids $spid"
	sleep 2
	run_env UCX_PROTO_INFO=y UCX_MEM_LOG_LEVEL=info timeout 300 \
		"$ucx/bin/ucx_perftest" 127.0.0.1 -p "$port" \
		-t tag_bw -m "$mem" -s "$SIZE" -n "$ITERS" >"$log.client" 2>&1
	rc=$?
	wait "$spid" 2>/dev/null
	# The final row: iterations, latencies, then bandwidth average and
	# overall in MB/s, message rates.
	bw=$(awk '/^[ ]*Final:/ { print $(NF-3) }' "$log.client")
	if [ "$rc" -eq 0 ] && [ -n "$bw" ]; then
		pass "ucx_perftest tag_bw -m $mem, $SIZE-byte messages: $bw MB/s"
	else
		fail "ucx_perftest tag_bw -m $mem (exit $rc)"
		diag "$log.client"
		diag "$log.server" 10
	fi
}
perftest cuda
perftest host
# The client printed its protocols (UCX_PROTO_INFO) and its memory hooks
# (UCX_MEM_LOG_LEVEL=info).
if grep -q "zero-copy read from remote *| cuda_ipc/cuda" "$work/perf-cuda.client"; then
	pass "the CUDA run's rendezvous reads over cuda_ipc"
else
	fail "the CUDA run's rendezvous reads over cuda_ipc"
	grep "cuda_copy\|cuda_ipc" "$work/perf-cuda.client" | head -n 5 | sed 's/^/# /'
fi
hooks=$(sed -n 's/.*cuda memory hooks mode bistro: installed \([0-9]*\) on driver API.*/\1/p' \
	"$work/perf-cuda.client" | head -n 1)
if [ -n "$hooks" ] && [ "$hooks" -gt 0 ] &&
   ! grep -q "failed to install bistro hook" "$work/perf-cuda.client"; then
	pass "UCX's bistro memory hooks patch $hooks driver entry points"
else
	fail "UCX's bistro memory hooks patch the driver entry points"
	grep "hook" "$work/perf-cuda.client" | head -n 5 | sed 's/^/# /'
fi
echo "1..$n"
[ "$failed" -eq 0 ]
