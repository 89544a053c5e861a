#!/bin/sh
# install.sh - what `make install` lays out is what a third-party build
# configured with the prefix as its CUDA root needs (communication
# libraries such as UCX ask for a directory with include/ and lib64/):
# the whole header set under $(includedir)/cuemu, the libcuda alias and
# libnvidia-ml under $(libdir)/cuemu. Installs into a scratch DESTDIR,
# makes that CUDA root of links, then builds install_prog.c (driver API
# and NVML, in C) and a C++17 program of the runtime and 16-bit float
# headers against it alone, and runs them. Prints TAP.
#
# Environment: top_builddir, srcdir, CC (default cc), CXX (default c++),
# MAKE (default make), SAN_CFLAGS (a sanitizer build's flags).
set -u
: "${CC:=cc}" "${CXX:=c++}" "${MAKE:=make}" "${srcdir:=.}" "${top_builddir:=.}"
: "${SAN_CFLAGS:=}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
check() { if [ "$1" -eq 0 ]; then pass "$2"; else fail "$2"; fi; }
diag() { sed 's/^/# /' "$1"; }

# 1. Install. MAKEFLAGS of the make check around us would hand this make
# its jobserver; it needs none.
root=$tmp/root
if MAKEFLAGS='' $MAKE -C "$top_builddir" install DESTDIR="$root" \
    >"$tmp/install.log" 2>&1; then
	pass "make install DESTDIR=<scratch>"
else
	fail "make install DESTDIR=<scratch>"
	tail -n 30 "$tmp/install.log" | sed 's/^/# /'
	echo "1..$n"
	exit 1
fi
inc=$(find "$root" -type d -path '*/include/cuemu' | head -n 1)
lib=$(find "$root" -name 'libcuemu.so.0' | head -n 1)
lib=${lib%/*}
[ -n "$inc" ] && [ -n "$lib" ]
check $? "the headers and libcuemu are installed"

# 2. The whole header set, and the libraries under $(libdir)/cuemu.
missing=
for h in "$srcdir"/include/*.h; do
	[ -f "$inc/${h##*/}" ] || missing="$missing ${h##*/}"
done
[ -z "$missing" ]
check $? "every header of include/ is in \$(includedir)/cuemu"
[ -z "$missing" ] || echo "# missing:$missing"
for l in libcuda.so.1 libcuda.so libnvidia-ml.so.1; do
	[ -e "$lib/cuemu/$l" ]
	check $? "\$(libdir)/cuemu/$l"
done
[ "$(readlink -f "$lib/cuemu/libcuda.so.1")" = "$(readlink -f "$lib/libcuemu.so.0")" ]
check $? "libcuda.so.1 is libcuemu"

# 3. The prefix made a CUDA root, as such a build is given one.
cuda=$tmp/cuda
mkdir -p "$cuda/lib64"
ln -s "$inc" "$cuda/include"
ln -s "$lib/cuemu/libcuda.so.1" "$cuda/lib64/libcuda.so"
ln -s "$lib/cuemu/libcuda.so.1" "$cuda/lib64/libcuda.so.1"
ln -s "$lib/cuemu/libnvidia-ml.so.1" "$cuda/lib64/libnvidia-ml.so"
ln -s "$lib/cuemu/libnvidia-ml.so.1" "$cuda/lib64/libnvidia-ml.so.1"
ln -s "$lib/libcuemu.so.0" "$cuda/lib64/libcudart.so"
ln -s "$lib/libcuemu.so.0" "$cuda/lib64/libcuemu.so.0"
run() { LD_LIBRARY_PATH=$cuda/lib64 CUEMU_CONTROL=0 "$@"; }

# shellcheck disable=SC2086
$CC $SAN_CFLAGS -std=c11 -Wall -Werror -I"$cuda/include" \
	"$srcdir/tests/unit/install_prog.c" -L"$cuda/lib64" -lcuda -lnvidia-ml \
	-o "$tmp/prog" >"$tmp/cc.log" 2>&1
s=$?
check $s "a driver and NVML program builds against the CUDA root alone"
[ $s -eq 0 ] || diag "$tmp/cc.log"
run "$tmp/prog" >"$tmp/prog.out" 2>&1
check $? "and runs on it"
for want in 'devices 4' 'nvml devices 4' \
    'cuPointerGetAttributes(4, attrs, data, d + 4096): CUDA_SUCCESS' \
    'type 2 managed 0 ordinal 1 own context yes' \
    'range from the base yes, 3145728 bytes' \
    'cuIpcGetMemHandle(&ipc, d): CUDA_SUCCESS' 'dma-buf export found' \
    'nvmlShutdown: 0'; do
	grep -qxF -- "$want" "$tmp/prog.out"
	check $? "it says: $want"
done
! grep -v 'nvml' "$tmp/prog.out" | grep -q ': CUDA_ERROR'
check $? "no driver call fails"
[ "$failed" -eq 0 ] || diag "$tmp/prog.out"

# 4. C++17 through the runtime headers and the 16-bit float types, linked
# with -lcudart as such code is.
cat >"$tmp/cxx.cc" <<'EOF'
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
int main()
{
	int n = 0;
	__half h = 0.5f;
	__nv_bfloat16 b = 2.0f;
	cudaGetDeviceCount(&n);
	std::printf("%d %g %g\n", n, double(float(h + h)), double(float(b * b)));
	return 0;
}
EOF
# shellcheck disable=SC2086
$CXX $SAN_CFLAGS -std=c++17 -Wall -Werror -I"$cuda/include" "$tmp/cxx.cc" \
	-L"$cuda/lib64" -lcudart -o "$tmp/cxx" >"$tmp/cxx.log" 2>&1
s=$?
check $s "a C++17 runtime program with __half and __nv_bfloat16 builds against it"
[ $s -eq 0 ] || diag "$tmp/cxx.log"
[ "$(run "$tmp/cxx" 2>&1)" = "4 1 4" ]
check $? "and runs: 4 devices, 0.5 + 0.5 = 1, 2 * 2 = 4"

echo "1..$n"
[ "$failed" -eq 0 ]
