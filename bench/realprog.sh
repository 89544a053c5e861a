#!/bin/sh
# realprog.sh - "real program vs H200": probes/faults.cu, the program that
# measured the real H200 (probes/results/faults.txt), built unchanged by
# nvcc with -cudart shared and run on libcuemu (its libcudart.so.13 and the
# libcuda.so.1 alias), one GPU visible as on the H200 it ran on, its
# clocks reading model time (CUEMU_CLOCK=model: the CPU loop's wall clock
# is then the CPU faults' model time, as the kernels' events are). Each
# scenario's time as the program prints it (CUDA events around its kernel,
# the wall clock around a CPU loop; the mean of its repetitions) beside the
# H200's mean and their ratio, and the wall time the emulator took for it:
# from the line before to its own, so its setup (a prefetch, the CPU
# touching every page) is in it. Skipped, saying so, without nvcc.
# Usage: top_builddir=... sh bench/realprog.sh
# Prints a table; asserts nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=$(cd "${top_builddir:-.}" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
real=$here/../probes/results/faults.txt

echo "real program vs H200 (probes/faults.cu, nvcc -O2 -cudart shared)"
if [ ! -x "$NVCC" ]; then
	echo "  skipped: nvcc is not installed"
	exit 0
fi
tmp=$(mktemp -d)
machine=${CUEMU_MACHINE:-cuemu}-realprog-$$
trap 'rm -rf "$tmp"; rm -f "/dev/shm/$machine"*' EXIT INT TERM
if ! "$NVCC" -O2 -cudart shared -arch=sm_90 -o "$tmp/faults" \
	"$here/../probes/faults.cu" >"$tmp/build" 2>&1; then
	echo "  skipped: nvcc failed"
	sed 's/^/  # /' "$tmp/build"
	exit 0
fi
ln -s "$b/runtime/.libs/libcuemu.so.0" "$tmp/libcuda.so.1"
# Each line stamped with the wall clock when it came.
start=$(date +%s.%N)
CUEMU_MACHINE=$machine CUDA_VISIBLE_DEVICES=0 CUEMU_CLOCK=model \
	LD_LIBRARY_PATH=$tmp:$b/runtime/.libs "$tmp/faults" 2>"$tmp/err" |
	while IFS= read -r line; do
		echo "$(date +%s.%N) $line"
	done >"$tmp/out"
end=$(date +%s.%N)

printf '  %-30s %10s %10s %7s %8s\n' scenario "model ms" "H200 ms" ratio "wall s"
awk -v start="$start" -v end="$end" '
# faults.<case> repN: bytes=... ms=... GBps=...
function scen(l) { sub(/^faults\./, "", l); sub(/ .*/, "", l); return l }
function msof(l) { sub(/.* ms=/, "", l); sub(/ .*/, "", l); return l + 0 }
FNR == NR {
	if ($0 ~ /^faults\.[a-z0-9_]+ rep[0-9]+: /) {
		s = scen($0); rs[s] += msof($0); rn[s]++
	}
	next
}
{
	t = $1; $1 = ""; sub(/^ /, "")
	if ($0 ~ /^faults\.[a-z0-9_]+ rep[0-9]+: /) {
		s = scen($0)
		if (!(s in en)) order[++n] = s
		es[s] += msof($0); en[s]++; wall[s] += t - prev
	} else if ($0 ~ /^faults\.done/)
		done = 1
	prev = t
}
BEGIN { prev = start }
END {
	for (i = 1; i <= n; i++) {
		s = order[i]; m = es[s] / en[s]
		if (s in rn) {
			r = rs[s] / rn[s]
			printf "  %-30s %10.2f %10.2f %7.2f %8.1f\n", s, m, r,
			       (r > 0 ? m / r : 0), wall[s] / en[s]
		} else
			printf "  %-30s %10.2f %10s %7s %8.1f\n", s, m, "-", "-",
			       wall[s] / en[s]
	}
	printf "  whole program: %.0f s of wall time%s\n", end - start,
	       done ? "" : ", did not finish"
}' "$real" "$tmp/out"
if ! grep -q '^faults\.done' "$tmp/out" 2>/dev/null; then
	sed 's/^/  # /' "$tmp/err" | tail -5
fi
