#!/bin/sh
# header-compat.sh - checks that include/ is a drop-in for the CUDA 13
# headers. Each public header must compile on its own, warning-free, as
# C11 and C++17 (wherever this runs). Then, where the toolkit's headers are
# here:
#   - header_compat.c, which prints the ABI facts that matter (enum values,
#     struct layouts, symbol names, entry point types), is built once
#     against include/ and once against the toolkit, and every fact must
#     read the same in both;
#   - every typedef, structure, enum and enumerator each toolkit header
#     declares is declared by ours (header_names.py reads both as the
#     preprocessor leaves them), and every structure and union of theirs
#     has our size, alignment and member offsets, and every object-like
#     macro of theirs our value (programs header_names.py writes, built
#     against both);
#   - fp16_prog.cc, the host conversions and operators of __half and
#     __nv_bfloat16 over a table of edge values, prints the same bits built
#     against either.
# Prints TAP; what needs the toolkit (or python3 for the names) says it
# was skipped when that is missing.
#
# Environment: srcdir (the source tree, as automake sets it), CC (default
# cc), CXX (default c++), PYTHON (default python3), CUEMU_CUDA_INCLUDE (the
# toolkit headers, default /usr/local/cuda/include).

srcdir=${srcdir:-$(dirname "$0")/../..}
CC=${CC:-cc}
CXX=${CXX:-c++}
PYTHON=${PYTHON:-python3}
real=${CUEMU_CUDA_INCLUDE:-/usr/local/cuda/include}
ours=$srcdir/include
gen=$srcdir/tests/unit/header_compat.c
names=$srcdir/tests/unit/header_names.py

tmp=$(mktemp -d "${TMPDIR:-/tmp}/header-compat.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
diag() { sed 's/^/# /' "$1"; }

# The toolkit's header set as include/ has it (cudaTypedefs.h is checked
# where it lands), and cuemu.h.
headers="cuda.h cuda_runtime_api.h cuda_runtime.h builtin_types.h
driver_types.h vector_types.h library_types.h device_types.h host_defines.h
texture_types.h surface_types.h cuda_fp16.h cuda_bf16.h
cuda_profiler_api.h cudaProfiler.h cuemu.h"

# 1. Each header alone, as strict C11, and as C++17 where a C++ compiler
# is here: wrapper libraries include them from C++.
for h in $headers; do
	printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$tmp/alone.c"
	if $CC -std=c11 -Wall -Wextra -pedantic -Werror -I"$ours" \
	    -c "$tmp/alone.c" -o "$tmp/alone.o" >"$tmp/alone.log" 2>&1; then
		pass "include/$h compiles alone, warning-free, as C11"
	else
		fail "include/$h compiles alone, warning-free, as C11"
		diag "$tmp/alone.log"
	fi
	if ! command -v "$CXX" >/dev/null 2>&1; then
		n=$((n + 1)); echo "ok $n # SKIP no C++ compiler for include/$h"
		continue
	fi
	cp "$tmp/alone.c" "$tmp/alone.cc"
	if $CXX -std=c++17 -Wall -Wextra -pedantic -Werror -I"$ours" \
	    -c "$tmp/alone.cc" -o "$tmp/alone.o" >"$tmp/alone.log" 2>&1; then
		pass "include/$h compiles alone, warning-free, as C++17"
	else
		fail "include/$h compiles alone, warning-free, as C++17"
		diag "$tmp/alone.log"
	fi
done

# The 16-bit float types as code that brings its own operators and
# conversions includes them: each switch the toolkit honours removes them,
# and what is left still builds.
if command -v "$CXX" >/dev/null 2>&1; then
	cat >"$tmp/fp16.cc" <<'EOF'
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <type_traits>
template <class T, class = void> struct adds : std::false_type {};
template <class T>
struct adds<T, decltype(void(std::declval<T>() + std::declval<T>()))>
	: std::true_type {};
static_assert(!std::is_constructible<__half, float>::value &&
	      !std::is_constructible<__nv_bfloat16, float>::value &&
	      !std::is_convertible<__half, float>::value,
	      "no conversions");
static_assert(!adds<__half>::value && !adds<__half2>::value &&
	      !adds<__nv_bfloat16>::value && !adds<__nv_bfloat162>::value,
	      "no operators");
int main()
{
	__half2 a = __floats2half2_rn(1.f, 2.f);
	__nv_bfloat162 b = __floats2bfloat162_rn(1.f, 2.f);

	return __hisnan(__hadd(__low2half(a), __high2half(a))) +
	       (int)__low2float(b) - 1;
}
EOF
	no="-D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF2_OPERATORS__
	    -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_OPERATORS__
	    -D__CUDA_NO_BFLOAT162_OPERATORS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__"
	# shellcheck disable=SC2086
	if $CXX -std=c++17 -Wall -Wextra -pedantic -Werror $no -I"$ours" \
	    "$tmp/fp16.cc" -o "$tmp/fp16" >"$tmp/fp16.log" 2>&1 && "$tmp/fp16"; then
		pass "cuda_fp16.h and cuda_bf16.h build without the operators and conversions the switches remove"
	else
		fail "cuda_fp16.h and cuda_bf16.h build without the operators and conversions the switches remove"
		diag "$tmp/fp16.log"
	fi
fi

# What follows compares with the toolkit.
if [ ! -f "$real/cuda.h" ] || [ ! -f "$real/cuda_runtime_api.h" ]; then
	skip "no CUDA toolkit headers in $real: nothing to compare with"
	echo "1..$n"
	[ "$failed" -eq 0 ]
	exit
fi

# compare WHAT REAL_OUT OUR_OUT: the "ok" lines of two runs of one TAP
# program, line by line; the toolkit's line is the expectation.
compare() {
	grep '^ok ' "$2" | sed 's/^ok [0-9]* - //' >"$tmp/real.facts"
	grep '^ok ' "$3" | sed 's/^ok [0-9]* - //' >"$tmp/ours.facts"
	awk -v base="$n" '
		NR == FNR { ours[FNR] = $0; next }
		{
			k = base + FNR
			if (ours[FNR] == $0) {
				print "ok " k " - " $0
			} else {
				print "not ok " k " - " $0
				print "# include/ says: " (FNR in ours ? ours[FNR] : "(nothing)")
				bad++
			}
		}
		END { exit bad > 0 }
	' "$tmp/ours.facts" "$tmp/real.facts" || failed=$((failed + 1))
	n=$((n + $(wc -l <"$tmp/real.facts")))
	if [ "$(wc -l <"$tmp/ours.facts")" -eq "$(wc -l <"$tmp/real.facts")" ]; then
		pass "include/ prints as many facts ($1) as the toolkit"
	else
		fail "include/ prints as many facts ($1) as the toolkit"
	fi
}

# 2. The fact generator, against the toolkit and against include/.
#   facts WHAT REAL_FLAGS OUR_FLAGS
# The flags are word-split on purpose.
# shellcheck disable=SC2086
facts() {
	what=$1
	if ! $CC -std=c11 $2 -I"$real" "$gen" -o "$tmp/real" \
	    >"$tmp/real.log" 2>&1 || ! "$tmp/real" >"$tmp/real.out"; then
		echo "Bail out! header_compat.c ($what) does not build or run against $real"
		diag "$tmp/real.log"
		exit 99
	fi
	if $CC -std=c11 -Wall -Wextra -pedantic -Werror $3 -I"$ours" "$gen" \
	    -o "$tmp/ours" >"$tmp/ours.log" 2>&1 && "$tmp/ours" >"$tmp/ours.out"
	then
		pass "header_compat.c ($what) builds against include/"
	else
		fail "header_compat.c ($what) builds against include/"
		diag "$tmp/ours.log"
		return
	fi
	compare "$what" "$tmp/real.out" "$tmp/ours.out"
}

facts "CUDA 13 API" "" ""
# The toolkit declares its superseded entry points for its own build only.
facts "superseded entry points" "-DHC_SUPERSEDED -D__CUDA_API_VERSION_INTERNAL" \
	"-DHC_SUPERSEDED -DCUEMU_SUPERSEDED_ENTRY_POINTS"

# 3. Names and layouts, header by header. The toolkit's declarations of a
# header are those of its own file (and its .hpp); ours may come from any
# file of include/. cudaTypedefs.h is left out: its PFN_ types are those of
# entry points, and libcuemu declares the types of the ones it exports
# (typedefs.sh checks them).
#   declared HEADER LANG: the names the toolkit's HEADER declares, and ours
#   reads in LANG (c or c++).
ourfiles=
for f in "$ours"/*.h; do ourfiles="$ourfiles${f##*/},"; done
declared() {
	h=$1
	if [ "$2" = c++ ]; then cc="$CXX -std=c++17 -x c++"; else cc="$CC -std=c11"; fi
	printf '#include <%s>\n' "$h" >"$tmp/inc.c"
	if ! $cc -E -dD -I"$real" "$tmp/inc.c" >"$tmp/real.i" 2>"$tmp/real.log" ||
	   ! $cc -E -I"$ours" "$tmp/inc.c" >"$tmp/ours.i" 2>"$tmp/ours.log"; then
		fail "$h preprocesses ($2) against both"
		diag "$tmp/real.log"
		diag "$tmp/ours.log"
		return 1
	fi
	if ! "$PYTHON" "$names" names "$h,${h%.h}.hpp" <"$tmp/real.i" \
	    >"$tmp/real.names" ||
	   ! "$PYTHON" "$names" names "$ourfiles" <"$tmp/ours.i" \
	    >"$tmp/ours.names"; then
		fail "header_names.py reads $h"
		return 1
	fi
	comm -23 "$tmp/real.names" "$tmp/ours.names" >"$tmp/missing"
	total=$(wc -l <"$tmp/real.names")
	if [ -s "$tmp/missing" ]; then
		fail "include/ declares every one of the $total names of the toolkit's $h ($2): $(wc -l <"$tmp/missing") missing"
		diag "$tmp/missing"
		return 1
	fi
	pass "include/ declares every one of the $total names of the toolkit's $h ($2)"
}

# built KIND HEADER: header_names.py's KIND program (layout: sizes,
# alignments and member offsets of every structure the toolkit's HEADER
# defines; macros: the value or expansion of each of its object-like
# macros), built against both and compared.
built() {
	kind=$1 h=$2
	"$PYTHON" "$names" "$kind" "$h" "$h" <"$tmp/real.i" >"$tmp/prog.c" || {
		fail "header_names.py writes the $kind program of $h"; return; }
	grep -q printf "$tmp/prog.c" || return 0
	if ! $CC -std=c11 -w -I"$real" "$tmp/prog.c" -o "$tmp/prog_real" \
	    >"$tmp/real.log" 2>&1 || ! "$tmp/prog_real" >"$tmp/prog_real.out"; then
		fail "the $kind program of $h builds against the toolkit"
		diag "$tmp/real.log"
		return
	fi
	if $CC -std=c11 -Wall -Werror -Wno-deprecated-declarations -I"$ours" \
	    "$tmp/prog.c" -o "$tmp/prog_ours" >"$tmp/ours.log" 2>&1 &&
	   "$tmp/prog_ours" >"$tmp/prog_ours.out"; then
		pass "the $kind program of $h builds against include/"
	else
		fail "the $kind program of $h builds against include/"
		diag "$tmp/ours.log"
		return
	fi
	sed 's/^/ok 0 - /' "$tmp/prog_real.out" >"$tmp/prog_real.tap"
	sed 's/^/ok 0 - /' "$tmp/prog_ours.out" >"$tmp/prog_ours.tap"
	compare "$kind of $h" "$tmp/prog_real.tap" "$tmp/prog_ours.tap"
}

if ! command -v "$PYTHON" >/dev/null 2>&1; then
	skip "no $PYTHON to read the headers' names and layouts"
else
	for h in cuda.h driver_types.h library_types.h cuda_runtime_api.h \
	    vector_types.h device_types.h texture_types.h \
	    surface_types.h cudaProfiler.h cuda_fp16.h cuda_bf16.h; do
		declared "$h" c && { built layout "$h"; built macros "$h"; }
	done
	# The 16-bit float types are C++ classes: their names in C++ too.
	for h in cuda_fp16.h cuda_bf16.h; do
		command -v "$CXX" >/dev/null 2>&1 && declared "$h" c++
	done
fi

# 4. The host conversions of the 16-bit float types, against the toolkit's.
fp16=$srcdir/tests/unit/fp16_prog.cc
if ! command -v "$CXX" >/dev/null 2>&1; then
	skip "no C++ compiler for fp16_prog.cc"
elif ! $CXX -std=c++17 -I"$real" "$fp16" -o "$tmp/fp_real" >"$tmp/real.log" 2>&1 ||
     ! "$tmp/fp_real" >"$tmp/fp_real.out"; then
	echo "Bail out! fp16_prog.cc does not build or run against $real"
	diag "$tmp/real.log"
	exit 99
elif $CXX -std=c++17 -Wall -Wextra -Werror -I"$ours" "$fp16" -o "$tmp/fp_ours" \
     >"$tmp/ours.log" 2>&1 && "$tmp/fp_ours" >"$tmp/fp_ours.out"; then
	pass "fp16_prog.cc builds against include/"
	compare "__half and __nv_bfloat16 conversions" "$tmp/fp_real.out" "$tmp/fp_ours.out"
else
	fail "fp16_prog.cc builds against include/"
	diag "$tmp/ours.log"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
