#!/bin/sh
# typedefs.sh - include/cudaTypedefs.h has the PFN_ type of every export
# in cuGetProcAddress's list (runtime/driver/procaddr_list.h), named for
# the entry point and the version its export appeared in, and each type is
# its export's: a program that casts cuGetProcAddress's answer to it calls
# the function as declared. Built once plain (every export by its own
# symbol, the superseded ones too) and once with
# CUDA_API_PER_THREAD_DEFAULT_STREAM (each per-thread form the header's
# renames reach). Prints TAP.
: "${srcdir:=.}" "${CC:=cc}"
list=$srcdir/runtime/driver/procaddr_list.h
inc=$srcdir/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fail=0
t() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

# name version export kind (E or PT), one a line
sed -n 's/^\(E\|PT\)(\([A-Za-z0-9_]*\), \([0-9]*\), \([A-Za-z0-9_]*\))$/\2 \3 \4 \1/p' \
	"$list" >"$tmp/rows"
pfn() { # name version export kind -> the PFN_ type's name
	case $3 in
	*_ptds) echo "PFN_$1_v$2_ptds" ;;
	*_ptsz) echo "PFN_$1_v$2_ptsz" ;;
	*) echo "PFN_$1_v$2" ;;
	esac
}
missing=
while read -r name ver sym kind; do
	p=$(pfn "$name" "$ver" "$sym")
	grep -q "(CUDAAPI \*$p)" "$inc/cudaTypedefs.h" || missing="$missing $p"
done <"$tmp/rows"
[ -z "$missing" ]; t $? "cudaTypedefs.h names a PFN_ type for each of $(wc -l <"$tmp/rows") exports"
[ -z "$missing" ] || echo "# missing:$missing"

printf '#include <cudaTypedefs.h>\nint main(void) { return 0; }\n' >"$tmp/alone.c"
$CC -std=c11 -Wall -Wextra -pedantic -Werror -I"$inc" -c "$tmp/alone.c" \
	-o "$tmp/alone.o" >"$tmp/alone.log" 2>&1
t $? "cudaTypedefs.h compiles alone, warning-free, as C11"

# Plain: each E export by its own symbol (superseded ones by name, after
# the renames are undone).
{
	echo '#define CUEMU_SUPERSEDED_ENTRY_POINTS 1'
	echo '#include <cudaTypedefs.h>'
	awk '$4 == "E" { print "#undef " $1 }' "$tmp/rows" | sort -u
	echo 'int main(void) { int bad = 0;'
	while read -r name ver sym kind; do
		[ "$kind" = E ] || continue
		echo "bad += !_Generic(&$sym, $(pfn "$name" "$ver" "$sym"): 1, default: 0);"
	done <"$tmp/rows"
	echo 'return bad; }'
} >"$tmp/plain.c"
$CC -std=c11 -Wall -Werror -I"$inc" "$tmp/plain.c" -o "$tmp/plain" \
	>"$tmp/plain.log" 2>&1 && "$tmp/plain"
t $? "each export's PFN_ type is its declared type"
[ -s "$tmp/plain.log" ] && sed 's/^/# /' "$tmp/plain.log" | head -20

# Per thread: each PT export the header's renames reach.
{
	echo '#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1'
	echo '#include <string.h>'
	echo '#include <cudaTypedefs.h>'
	echo '#define S_(x) #x'
	echo '#define S(x) S_(x)'
	echo 'int main(void) { int bad = 0;'
	while read -r name ver sym kind; do
		[ "$kind" = PT ] || continue
		echo "if (!strcmp(S($name), \"$sym\")) bad += !_Generic(&$name, $(pfn "$name" "$ver" "$sym"): 1, default: 0);"
	done <"$tmp/rows"
	echo 'return bad; }'
} >"$tmp/pt.c"
$CC -std=c11 -Wall -Werror -I"$inc" "$tmp/pt.c" -o "$tmp/pt" \
	>"$tmp/pt.log" 2>&1 && "$tmp/pt"
t $? "each per-thread form's PFN_ type is its declared type"
[ -s "$tmp/pt.log" ] && sed 's/^/# /' "$tmp/pt.log" | head -20
echo "1..$n"
exit $fail
