#!/bin/sh
# abi.sh - libcuemu stands in for the real driver: a program built against
# our headers and libcuemu runs, and the same program built against the real
# CUDA 13 headers and libcuda (when this machine has them) runs on libcuemu
# through a libcuda.so.1 alias and prints the same lines.
set -u
: "${CC:=cc}" "${srcdir:=.}" "${top_builddir:=.}" "${SAN_CFLAGS:=}"
# A sanitizer build of libcuemu needs programs built with the same runtime.
CC="$CC $SAN_CFLAGS"
CUDA_INC=${CUEMU_CUDA_INCLUDE:-/usr/local/cuda/include}
CUDA_STUBS=${CUEMU_CUDA_STUBS:-/usr/local/cuda/lib64/stubs}
lib=$top_builddir/runtime/.libs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; rm -f "/dev/shm/$CUEMU_MACHINE"' EXIT
export CUEMU_CONTROL=0 CUEMU_MACHINE=cuemu-abi-$$

echo "1..4"
if $CC -o "$tmp/ours" -I"$srcdir/include" "$srcdir/tests/unit/abi_prog.c" \
	-L"$lib" -lcuemu -Wl,-rpath,"$lib" 2>"$tmp/cc.err"; then
	echo "ok 1 - a driver program builds against our headers and libcuemu"
else
	echo "not ok 1 - a driver program builds against our headers and libcuemu"
	sed 's/^/# /' "$tmp/cc.err"
fi
"$tmp/ours" >"$tmp/ours.out" 2>&1
if grep -q '^devices 4$' "$tmp/ours.out" && grep -q '^round trip equal$' "$tmp/ours.out" &&
   grep -q '^preferred location 1$' "$tmp/ours.out" &&
   ! grep -v '^cuMemAdvise(m, 1 << 20, (CUmem_advise)99' "$tmp/ours.out" | grep -q ': CUDA_ERROR'; then
	echo "ok 2 - and runs: every call succeeds but the bad advice"
else
	echo "not ok 2 - and runs: every call succeeds but the bad advice"
	sed 's/^/# /' "$tmp/ours.out"
fi

if [ ! -f "$CUDA_INC/cuda.h" ] || [ ! -f "$CUDA_STUBS/libcuda.so" ]; then
	echo "ok 3 # SKIP no real CUDA headers and libcuda here"
	echo "ok 4 # SKIP no real CUDA headers and libcuda here"
	exit 0
fi
if $CC -o "$tmp/real" -I"$CUDA_INC" "$srcdir/tests/unit/abi_prog.c" \
	-L"$CUDA_STUBS" -lcuda 2>"$tmp/cc.err"; then
	echo "ok 3 - the same program builds against the real headers and libcuda"
else
	echo "not ok 3 - the same program builds against the real headers and libcuda"
	sed 's/^/# /' "$tmp/cc.err"
fi
# What `make install` puts in $(libdir)/cuemu: libcuda.so.1 -> libcuemu.
mkdir "$tmp/alias"
ln -s "$(cd "$lib" && pwd)/libcuemu.so.0" "$tmp/alias/libcuda.so.1"
LD_LIBRARY_PATH=$tmp/alias "$tmp/real" >"$tmp/real.out" 2>&1
if cmp -s "$tmp/ours.out" "$tmp/real.out"; then
	echo "ok 4 - built against the real driver, it runs on libcuemu and says the same"
else
	echo "not ok 4 - built against the real driver, it runs on libcuemu and says the same"
	diff "$tmp/ours.out" "$tmp/real.out" | sed 's/^/# /'
fi
