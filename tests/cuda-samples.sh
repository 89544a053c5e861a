#!/bin/sh
# cuda-samples.sh - builds NVIDIA's cuda-samples deviceQuery, deviceQueryDrv
# and topologyQuery from their upstream sources, unchanged, against the
# installed libcuemu (`pkg-config cuemu`), and runs each on a private
# machine of its own (the built-in 4 x H200 unless CUEMU_TOPOLOGY says
# otherwise). Prints TAP. Not part of `make check`: the samples are not
# ours and are not shipped; give their tree as the argument:
#
#   git clone https://github.com/NVIDIA/cuda-samples
#   PKG_CONFIG_PATH=$prefix/lib/pkgconfig tests/cuda-samples.sh cuda-samples
#
# Environment: CXX (default c++), PKG_CONFIG_PATH (where cuemu.pc is),
# KEEP=1 keeps the build directory and each program's output.
set -u
src=${1:-}
CXX=${CXX:-c++}
if [ -z "$src" ] || [ ! -d "$src/Samples/1_Utilities" ]; then
	echo "usage: $0 CUDA_SAMPLES_TREE" >&2
	exit 2
fi
if ! pkg-config --exists cuemu; then
	echo "1..0 # SKIP pkg-config finds no cuemu (set PKG_CONFIG_PATH)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cuda-samples.XXXXXX") || exit 99
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT INT TERM
libdir=$(pkg-config --variable=libdir cuemu)
n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/# /' "$1"; }

# sample DIR SOURCE EXPECT...: build, run, and look for each line.
sample() {
	dir=$1 file=$2
	shift 2
	name=${file%.*}
	# The .cu sample has no device code; the host compiler takes it as
	# C++, as nvcc hands such a file to it.
	# shellcheck disable=SC2046
	if $CXX -std=c++17 -x c++ -I"$src/Common" "$src/Samples/1_Utilities/$dir/$file" \
	    -x none $(pkg-config --cflags --libs cuemu) -o "$tmp/$name" \
	    >"$tmp/$name.cc.log" 2>&1; then
		pass "$name builds unchanged against pkg-config cuemu"
	else
		fail "$name builds unchanged against pkg-config cuemu"
		diag "$tmp/$name.cc.log"
		return
	fi
	CUEMU_MACHINE=cuemu-samples-$$-$name CUEMU_CONTROL=0 \
	LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		"$tmp/$name" >"$tmp/$name.out" 2>&1
	rc=$?
	rm -f "/dev/shm/cuemu-samples-$$-$name"
	if [ "$rc" -eq 0 ]; then
		pass "$name runs and exits 0"
	else
		fail "$name runs and exits 0 (exit $rc)"
		diag "$tmp/$name.out"
	fi
	for want in "$@"; do
		if grep -qF -- "$want" "$tmp/$name.out"; then
			pass "$name says: $want"
		else
			fail "$name says: $want"
		fi
	done
}

sample deviceQuery deviceQuery.cpp \
	'Detected 4 CUDA Capable device(s)' \
	'Device 3: "NVIDIA H200"' \
	'CUDA Capability Major/Minor version number:    9.0' \
	'3D=(16384, 16384, 16384)' \
	'Peer access from NVIDIA H200 (GPU0) -> NVIDIA H200 (GPU1) : Yes' \
	'Result = PASS'
sample deviceQueryDrv deviceQueryDrv.cpp \
	'Detected 4 CUDA Capable device(s)' \
	'CUDA Driver Version:                           13.0' \
	'Result = PASS'
sample topologyQuery topologyQuery.cu \
	'GPU0 <-> GPU3:' '* Perf Rank: 0' 'GPU3 <-> CPU:'

echo "1..$n"
[ "$failed" -eq 0 ]
