#!/bin/sh
# nvml-list.sh - the one list of NVML entries answered NOT_SUPPORTED
# (nvml/unsupported_list.h) is what libnvidia-ml exports and what
# libnvidia-ml-cuemu(3) lists: each name in the list is exported and named
# in the man page, and the library exports nothing outside the nvml names.
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
lib=$top_builddir/nvml/.libs/libnvidia-ml.so.1
list=$srcdir/nvml/unsupported_list.h
man=$srcdir/man/libnvidia-ml-cuemu.3
echo "1..3"
exports=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }')
names=$(sed -n 's/^U(\(.*\))$/\1/p' "$list")
missing=""
for n in $names; do
	printf '%s\n' "$exports" | grep -qx "$n" || missing="$missing $n"
done
if [ -n "$names" ] && [ -z "$missing" ]; then
	echo "ok 1 - every unsupported entry ($(printf '%s\n' $names | wc -l)) is exported"
else
	echo "not ok 1 - unsupported entries not exported:${missing:- (empty list)}"
fi
missing=""
for n in $names; do
	grep -qx ".B $n" "$man" || missing="$missing $n"
done
if [ -z "$missing" ]; then
	echo "ok 2 - libnvidia-ml-cuemu(3) lists each of them"
else
	echo "not ok 2 - the man page misses:$missing"
fi
other=$(printf '%s\n' "$exports" | grep -v '^nvml[A-Z]')
if [ -n "$exports" ] && [ -z "$other" ]; then
	echo "ok 3 - the library exports only nvml names"
else
	echo "not ok 3 - exports outside nvml:" $other
fi
