#!/bin/sh
# header-compat.sh - checks that include/ is a drop-in for the CUDA 13
# headers. Each public header must compile on its own, warning-free, as
# C11; then header_compat.c, which prints the ABI facts that matter (enum
# values, struct layouts, symbol names, entry point types), is built once
# against include/ and once against the CUDA toolkit, and every fact must
# read the same in both. Prints TAP.
#
# Environment: srcdir (the source tree, as automake sets it), CC (default
# cc), CXX (default c++), CUEMU_CUDA_INCLUDE (the toolkit headers, default
# /usr/local/cuda/include).

srcdir=${srcdir:-$(dirname "$0")/../..}
CC=${CC:-cc}
real=${CUEMU_CUDA_INCLUDE:-/usr/local/cuda/include}
ours=$srcdir/include
gen=$srcdir/tests/unit/header_compat.c

if [ ! -f "$real/cuda.h" ] || [ ! -f "$real/cuda_runtime_api.h" ]; then
	echo "1..0 # SKIP no CUDA headers"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/header-compat.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
failed=0
pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/# /' "$1"; }

# The toolkit's header set as include/ has it (cudaTypedefs.h is checked
# where it lands), and cuemu.h.
headers="cuda.h cuda_runtime_api.h cuda_runtime.h builtin_types.h
driver_types.h vector_types.h library_types.h device_types.h host_defines.h
cuda_profiler_api.h cudaProfiler.h cuemu.h"
CXX=${CXX:-c++}

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

# 2. The fact generator, against the toolkit and against include/, then
# compared fact by fact: the toolkit's line is the expectation.
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
	grep '^ok ' "$tmp/real.out" | sed 's/^ok [0-9]* - //' >"$tmp/real.facts"
	grep '^ok ' "$tmp/ours.out" | sed 's/^ok [0-9]* - //' >"$tmp/ours.facts"
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
		pass "include/ prints as many facts ($what) as the toolkit"
	else
		fail "include/ prints as many facts ($what) as the toolkit"
	fi
}

facts "CUDA 13 API" "" ""
# The toolkit declares its superseded entry points for its own build only.
facts "superseded entry points" "-DHC_SUPERSEDED -D__CUDA_API_VERSION_INTERNAL" \
	"-DHC_SUPERSEDED -DCUEMU_SUPERSEDED_ENTRY_POINTS"

echo "1..$n"
[ "$failed" -eq 0 ]
