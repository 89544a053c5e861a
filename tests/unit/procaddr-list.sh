#!/bin/sh
# procaddr-list.sh - every cu* entry point libcuemu exports is in the one
# list cuGetProcAddress answers from (runtime/driver/procaddr_list.h), and
# the list names nothing else: a new export without its line would be
# invisible to libcudart and every library that takes its entry points by
# name. Prints TAP.
: "${srcdir:=.}" "${top_builddir:=.}"
lib=$top_builddir/runtime/.libs/libcuemu.so
list=$srcdir/runtime/driver/procaddr_list.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -f "$lib" ]; then
	echo "1..0 # SKIP no shared libcuemu"
	exit 0
fi
nm -D --defined-only "$lib" | awk '{ print $NF }' |
	grep -E '^cu[A-Z]' | sort -u >"$tmp/exports"
sed -n 's/^\(E\|PT\)([A-Za-z0-9_]*, [0-9]*, \([A-Za-z0-9_]*\))$/\2/p' "$list" |
	sort >"$tmp/listed"
n=0
fail=0
for f in $(comm -23 "$tmp/exports" "$tmp/listed"); do
	n=$((n + 1)); fail=1
	echo "not ok $n - $f is exported but not in procaddr_list.h"
done
for f in $(comm -13 "$tmp/exports" "$tmp/listed"); do
	n=$((n + 1)); fail=1
	echo "not ok $n - $f is in procaddr_list.h but not exported"
done
if [ -n "$(uniq -d "$tmp/listed")" ]; then
	n=$((n + 1)); fail=1
	echo "not ok $n - an export is listed twice: $(uniq -d "$tmp/listed" | tr '\n' ' ')"
fi
n=$((n + 1))
echo "ok $n - $(wc -l <"$tmp/exports") exports, each listed once"
echo "1..$n"
exit $fail
