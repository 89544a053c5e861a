#!/bin/sh
# replay.sh - every answer the real CUDA 13 driver gave to the probes in
# probes/ (recorded in probes/results/), asked again of the emulator.
#
# Each probe is built against the project's headers and libcuemu and run
# on a private machine; the cases that crashed the real driver run one per
# process, as probes/run.sh ran them. Every recorded line is one TAP fact:
# the emulator's line for the same case must say the same, once addresses,
# ids and handles (hex values, which no two runs share) are masked; the
# 0xa5a5a5a5 sentinel that shows how many bytes a call wrote is kept.
# A difference that must stay (the machine's shape, wall-clock times, a
# known departure) is listed in probes/replay-differences.txt with its
# reason, and reported as such; any other fails with both lines.
#
# Where CUDA 13's own headers and libcuda stub are on the machine, each
# probe is also built against them and run on the libcuda.so.1 alias of
# libcuemu, as a program built for the real driver would run, and compared
# the same way: a second TAP line a case.
set -u
: "${CC:=cc}" "${srcdir:=.}" "${top_builddir:=.}" "${SAN_CFLAGS:=}"
probes=$srcdir/probes
known=$probes/replay-differences.txt
lib=$top_builddir/runtime/.libs
CUDA_INC=${CUEMU_CUDA_INCLUDE:-/usr/local/cuda/include}
CUDA_STUBS=${CUEMU_CUDA_STUBS:-/usr/local/cuda/lib64/stubs}
tmp=$(mktemp -d)
export CUEMU_MACHINE=cuemu-replay-$$ CUEMU_CONTROL=0
trap 'rm -rf "$tmp"; rm -f "/dev/shm/$CUEMU_MACHINE"' EXIT
unset CUEMU_TOPOLOGY

# The topics that record semantics (latency and streamops record times;
# oversub fills a GPU of the probe's size). share ran on one H200, edges
# on one H100 and mcgran on two, each replayed on a machine of that shape
# (probes/<topic>-topology.json).
topics="ctx pool ptrattr vmm managed legacy batch shape batch3d share"
topics="$topics ptrsweep ptrattr_new ranges vmmsweep poolsweep visible ctxid"
topics="$topics pack edges mcgran library kapi xctx link"
# What a topic's probe is given: library loads tests/unit/kernels/, and
# leaves out a launch of 2^31-1 blocks, hours on the host's cores.
args_library="$srcdir/tests/unit/kernels"
# link reads its images there too (fatbin, cubin, nvcc's relocatable
# PTX, a host object and an archive of it).
args_link="$srcdir/tests/unit/kernels"
skip_library="grid_x_max"
# xctx leaves its forked child out: a child may use the API here.
skip_xctx="fork"
risky_ctx="eventquery_destroyed streamquery_destroyed devicegetname_len0"
risky_vmm="release_garbage_handle export_garbage_handle props_garbage_handle map_garbage_handle map_freed_handle"
risky_batch="decompress_null_index"
risky_poolsweep="set_null_value"

# Masks what differs between any two runs: hex values but the sentinel.
mask() {
	sed -E 's/0x(a5a5a5a5)?/&@/g; s/0x@[0-9a-fA-F]+/0x#/g; s/0xa5a5a5a5@/0xa5a5a5a5/g'
}

# Splits "case: answer" lines into "case<TAB>answer", masked.
cases() {
	mask <"$1" | sed -n 's/^\([a-zA-Z0-9_.+-]*\): \(.*\)$/\1\t\2/p'
}

# The two ways a probe is built: on our headers and libcuemu, or on the
# real toolkit's headers and stub, then run on the libcuda.so.1 alias.
ways="ours"
if [ -f "$CUDA_INC/cuda.h" ] && [ -f "$CUDA_STUBS/libcuda.so" ]; then
	ways="ours real-headers"
	mkdir "$tmp/alias"
	ln -s "$(cd "$lib" && pwd)/libcuemu.so.0" "$tmp/alias/libcuda.so.1"
fi

build() {
	if [ "$2" = ours ]; then
		$CC $SAN_CFLAGS -O1 -w -o "$tmp/$1" "$probes/$1.c" \
			-I"$srcdir/include" -L"$lib" -lcuemu -Wl,-rpath,"$lib"
	else
		$CC $SAN_CFLAGS -O1 -w -o "$tmp/$1" "$probes/$1.c" \
			-I"$CUDA_INC" -L"$CUDA_STUBS" -lcuda
	fi
}

run_topic() {
	t=$1
	if ! build "$t" "$2" 2>"$tmp/$t.cc"; then
		sed 's/^/# /' "$tmp/$t.cc"
		return 1
	fi
	export LD_LIBRARY_PATH="$tmp/alias${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	# A probe that ran on a machine of another shape than the default
	# says so in probes/<topic>-topology.json.
	if [ -f "$probes/$t-topology.json" ]; then
		export CUEMU_TOPOLOGY="$probes/$t-topology.json"
	else
		unset CUEMU_TOPOLOGY
	fi
	eval "args=\${args_$t:-} skip=\${skip_$t:-}"
	PROBE_SKIP=$skip timeout 120 "$tmp/$t" $args >"$tmp/$t.raw" 2>&1
	eval "risky=\${risky_$t:-}"
	for k in $risky; do
		timeout 60 "$tmp/$t" risky "$k" >>"$tmp/$t.raw" 2>&1
	done
	rm -f "/dev/shm/$CUEMU_MACHINE"
	return 0
}

# The reason a case may differ, or nothing.
reason() {
	awk -F'\t' -v c="$1" '
		/^#/ || NF < 2 { next }
		{ if (c ~ ("^" $1 "$")) { print $2; exit } }' "$known"
}

n=0
for w in $ways; do
	for t in $topics; do
		n=$((n + $(cases "$probes/results/$t.txt" | wc -l)))
	done
done
echo "1..$n"

i=0
for w in $ways; do
for t in $topics; do
	built=yes
	run_topic "$t" "$w" || built=no
	cases "$probes/results/$t.txt" >"$tmp/$t.real"
	[ "$built" = yes ] && cases "$tmp/$t.raw" >"$tmp/$t.emu" || : >"$tmp/$t.emu"
	while IFS="$(printf '\t')" read -r c real; do
		i=$((i + 1))
		emu=$(awk -F'\t' -v c="$c" '$1 == c { print $2; exit }' \
			"$tmp/$t.emu")
		if [ "$emu" = "$real" ]; then
			echo "ok $i - $w: $c: $real"
			continue
		fi
		why=$(reason "$c")
		if [ -n "$why" ]; then
			echo "ok $i - $w: $c differs: $why"
		else
			echo "not ok $i - $w: $c answers as the real driver did"
			echo "#   real:     $real"
			echo "#   emulator: ${emu:-(no line)}"
		fi
	done <"$tmp/$t.real"
done
done
