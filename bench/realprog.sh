#!/bin/sh
# realprog.sh - "real program vs H200": a probe that measured real H200s,
# built unchanged by nvcc with -cudart shared and run on libcuemu (its
# libcudart.so.13 and the libcuda.so.1 alias), as many GPUs visible as on
# the machine it ran on. Each scenario's time as the program prints it
# (CUDA events around its kernel, the wall clock around a CPU loop; the
# mean of its repetitions) beside the H200's mean and their ratio, and the
# wall time the emulator took for it: from the row before to its own, so
# its setup (a prefetch, the CPU touching every page) is in it. Both run
# with CUEMU_CLOCK=model, so that a CPU loop's wall clock reads the model's
# time as the kernels' events do. Skipped, saying so, without nvcc.
#   faults    probes/faults.cu on one H200 (results/faults.txt), the
#             default machine with one GPU visible
#   faults2   probes/faults.cu on two H200s over NVLink
#             (results/faults-h200x2.txt), the dgx-h200 topology with two
#             GPUs visible: its rows between the GPUs too
#   patterns  probes/patterns.cu on two H200s over NVLink
#             (results/patterns.txt), the dgx-h200 topology with two GPUs
#             visible
#   peermig   probes/peermig.cu on two H200s over NVLink
#             (results/peermig.txt), the same way: peer copies by the
#             stream that carries them (a non-blocking stream, nb, or the
#             legacy one, of the source or the destination), back to
#             back (b2b) and alone (one), fault migration from gpu0 and from the host by size,
#             the first and second read of memory preferring gpu0
#   slices    probes/slices.cu on one H200 (results/slices.txt), 3DCONV's
#             254-kernel walk of managed slices: each case's whole loop
#             by the wall clock, the default machine with one GPU visible
#   chains    probes/chains.cu on one H200 (results/chains.txt): chains of
#             dependent loads in few warps, their time a step
#   l1        probes/l1.cu on one H200 (results/l1.txt): a pointer chase
#             through rings of lines the L1 holds, or not
#   scatter   probes/scatter.cu on one H200 (results/scatter.txt):
#             scattered touches of resident memory, the second kernel's
#   atax      probes/atax.cu on one H200 (results/atax.txt): the access
#             shapes of UVMBench's ATAX and MVT, each timed, on managed memory the
#             CPU wrote, resident, on device memory, after the L2 emptied
#   halfpref  probes/halfpref.cu on one H200 (results/halfpref.txt):
#             128 MiB read and written by one kernel with parts of it
#             prefetched to the GPU, the rest faulted from the host
#   l2size    probes/l2size.cu on one H200 (results/l2size.txt): a chase
#             through rings of lines the L2 holds, or not: each ring's
#             first pass right after the copy that wrote it (_copied)
#             and the mean of the two after
#   l1rate    probes/l1rate.cu on one H200 (results/l1rate.txt): loads
#             the L1 holds, loads and stores the L2 takes, both, at full
#             occupancy: the mean of each case's second and third runs
#   gemm      probes/gemm.cu on one H200 (results/gemm.txt): a naive
#             matrix product storing its sum each step or once, on
#             device memory, managed memory faulted in and resident
#   stld      probes/stld.cu on one H200 (results/stld.txt): a load
#             reading what a store just before it wrote, one thread
#   afterfault probes/afterfault.cu on one H200 (results/afterfault.txt,
#             two runs): scattered touches right after a sleep, after a
#             kernel faulting 2 to 128 MiB in from the host, on other
#             memory and on the pages just faulted in (its spinning
#             cases need an argument and are the H200's alone)
#   prefnoop  probes/prefnoop.cu on one H200 (results/prefnoop.txt, two
#             runs): a byte touched in each page of 1 GiB right after
#             the same touches, a prefetch that moves nothing, a sleep,
#             touches of other memory, and faults.cu's sequence
#   faultwindow probes/faultwindow.cu on one H200 (results/
#             faultwindow.txt): 1 GiB the CPU wrote, faulted in by a
#             touch a page, all at once or a window of pages at a time,
#             and by a stream
#   advise    probes/advise.cu on one H200 (results/advise.txt, two
#             runs): a byte touched in each page of 64 MiB and 1 GiB of
#             resident managed memory right after an advice given and
#             taken back over it (or over another range), a sleep as
#             long, or nothing
#   graph     probes/graph.cu's timing (`graph time`, results/
#             graph-time.txt) on one H200: chains of 1, 10 and 100 empty
#             kernels as a graph and launched one by one (the device's
#             time from the call to the end), 1 to 8 independent
#             branches of a spinning kernel, a copy and a memset of 64 MiB
#   conditional probes/conditional.cu's timing (`conditional time`,
#             results/conditional-time.txt) on one H200: a WHILE node of
#             1 to 1,000 iterations of a small kernel, an empty kernel
#             alone and behind an IF node, each launch by events
#   copyone   probes/copyone.cu on one H200 (results/copyone.txt, two
#             runs): an asynchronous copy or memset of 4 KiB to 1 MiB on
#             each path, its call, alone, 100 back to back, alone behind
#             a kernel and 100 behind one (the non-blocking stream's)
#   afterop   probes/afterop.cu on one H200 (results/afterop.txt, two
#             runs): behind a busy stream, an operation alone, it and a
#             kernel, it twice, on each path and size
#   cdp       probes/cdp.cu's timing (`cdp time`, results/cdp-time.txt) on
#             one H200, built with -rdc=true -lcudadevrt: 1 to 100 empty
#             children launched from one thread (serial, ff), from one
#             block's threads, from as many blocks; chains of nested
#             and of tail launches
#   cdpoverlap probes/cdp.cu run as `cdp overlap` (results/
#             cdp-overlap.txt): spinning children in one stream, in
#             streams of their own, fire-and-forget; binary trees of
#             launches, empty and spinning
#   cdpwide   probes/cdp.cu run as `cdp wide` (results/cdp-wide.txt):
#             blocks of 1,024 threads stepping through barriers side by
#             side, trees of grids of 64 blocks
# Where a second run of the probe on another day's H200 is kept
# (results/<probe>-run2.txt), its mean and the ratio to it stand beside
# the first: the spread between two hosts of one GPU and driver.
# Usage: top_builddir=... sh bench/realprog.sh [faults|faults2|patterns|peermig|slices|chains|l1|scatter|l2size|atax|halfpref|l1rate|gemm|stld|afterfault|prefnoop|faultwindow|advise|graph|conditional|copyone|afterop|cdp|cdpoverlap|cdpwide]
# Prints a table; asserts nothing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
b=$(cd "${top_builddir:-.}" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
probe=${1:-faults}
real=$here/../probes/results/$probe.txt
case $probe in
faults)
	title="probes/faults.cu, one H200"
	set -- env CUDA_VISIBLE_DEVICES=0 CUEMU_CLOCK=model ;;
faults2|patterns|peermig)
	[ $probe = faults2 ] &&
		probe=faults real=$here/../probes/results/faults-h200x2.txt
	title="probes/$probe.cu, two H200s over NVLink, dgx-h200"
	set -- env CUDA_VISIBLE_DEVICES=0,1 CUEMU_TOPOLOGY=dgx-h200 \
		CUEMU_TOPOLOGY_DIR="${CUEMU_TOPOLOGY_DIR:-$here/../topologies}" \
		CUEMU_CLOCK=model ;;
slices)
	title="probes/slices.cu, one H200"
	set -- env CUDA_VISIBLE_DEVICES=0 CUEMU_CLOCK=model ;;
chains|l1|scatter|l2size|atax|halfpref|l1rate|gemm|stld|afterfault|prefnoop|faultwindow|advise|graph|conditional|copyone|afterop|cdp|cdpoverlap|cdpwide)
	title="probes/cdp.cu, one H200"
	case $probe in cdp*) ;; *) title="probes/$probe.cu, one H200" ;; esac
	set -- env CUDA_VISIBLE_DEVICES=0 CUEMU_CLOCK=model ;;
*)
	echo "realprog.sh: no probe '$probe' (faults, faults2, patterns, peermig, slices," \
	     "chains, l1, scatter, l2size, atax, halfpref, l1rate, gemm, stld," \
	     "afterfault, prefnoop, faultwindow, advise, graph, conditional," \
	     "copyone, afterop, cdp, cdpoverlap or cdpwide)" >&2
	exit 2 ;;
esac
# graph.cu times itself when asked to, into its own results
args=
[ $probe = graph ] && args=time real=$here/../probes/results/graph-time.txt
# conditional.cu calls the driver API too
link= rdc=
[ $probe = conditional ] && args=time link=-lcuda \
	real=$here/../probes/results/conditional-time.txt
# cdp.cu is relocatable device code calling the device runtime
[ $probe = cdp ] && args=time rdc=-rdc=true link=-lcudadevrt \
	real=$here/../probes/results/cdp-time.txt
[ $probe = cdpoverlap ] && probe=cdp args=overlap rdc=-rdc=true \
	link=-lcudadevrt real=$here/../probes/results/cdp-overlap.txt
[ $probe = cdpwide ] && probe=cdp args=wide rdc=-rdc=true \
	link=-lcudadevrt real=$here/../probes/results/cdp-wide.txt

# A probe's lines as scenario rows: slices.cu times each case's whole loop
# on one line ("slices.<case> total: wall_ms=..."), chains.cu and l1.cu
# each case and size ("chains chase S=16384 rep0 steps=N: ms=...", "l1
# stride D=128 N=16 steps=N: ms=..."), scatter.cu each kind, stride and
# span in microseconds ("scatter dev S=4096 span=8 touches=N: first_us=...
# us=...": the second kernel's), the others a line a repetition.
rows() {
	case $probe in
	slices)	sed -u -E 's/^(slices\.[a-z_]+) total: wall_ms=([0-9.]+).*/\1 rep0: ms=\2/' ;;
	chains|l1)
		sed -u -E -e 's/ (S|W|blocks|D|N)=([0-9]+)/_\2/g' \
		-e 's/ rep[0-9]+//' -e "s/^$probe ([a-z0-9_]+) steps=[0-9]+: ms=([0-9.]+).*/$probe.\\1 rep0: ms=\\2/" ;;
	atax)	sed -u -E 's/^atax ([a-z]+) ([a-z0-9]+) rep[0-9]+: ms=([0-9.]+)/atax.\1_\2 rep0: ms=\3/' ;;
	l1rate)	sed -u -E -e '/ rep0: /d' \
		-e 's/^l1rate ([a-z0-9_]+) S=([0-9]+) rep[0-9]+: .* ms=([0-9.]+).*/l1rate.\1_\2 rep0: ms=\3/' ;;
	gemm)	sed -u -E 's/^gemm ([a-z_]+) n=([0-9]+): ms=([0-9.]+).*/gemm.\1_\2 rep0: ms=\3/' ;;
	stld)	sed -u -E 's/^stld ([a-z]+) steps=[0-9]+: ms=([0-9.]+).*/stld.\1 rep0: ms=\2/' ;;
	afterfault|prefnoop)
		awk '/^(afterfault|prefnoop)\.[a-z0-9_]+ rep[0-9]+: .*us=/ {
			u = $NF; sub(/us=/, "", u)
			printf "%s %s ms=%.5f\n", $1, $2, u / 1000
			fflush(); next }
		{ print; fflush() }' ;;
	graph)	# graph.time.<case> repN: ... graph_gpu_us=G ... stream_gpu_us=S
		awk '/^graph\.time\.[a-z0-9_]+ rep[0-9]+: / {
			c = $1; sub(/^graph\.time\./, "", c)
			for (i = 3; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] == "graph_gpu_us" || kv[1] == "gpu_us" ||
				    kv[1] == "graph_us")
					printf "graph.%s %s ms=%.5f\n", c, $2, kv[2] / 1000
				if (kv[1] == "stream_gpu_us" || kv[1] == "stream_us")
					printf "graph.%s_stream %s ms=%.5f\n", c, $2, kv[2] / 1000
			}
			fflush(); next }
		{ print; fflush() }' ;;
	advise)	# advise.<size>MiB.<case> repN: us=... -> advise.<case>_<size>m
		awk '/^advise\.[0-9]+MiB\.[a-z_]+ rep[0-9]+: us=/ {
			split($1, f, "."); sz = f[2]; sub(/MiB/, "m", sz)
			u = $3; sub(/us=/, "", u)
			printf "advise.%s_%s %s ms=%.5f\n", f[3], sz, $2, u / 1000
			fflush(); next }
		{ print; fflush() }' ;;
	l2size)
		sed -u -E -e 's/ N=([0-9]+) rep0 /_\1_copied /' \
		-e 's/ N=([0-9]+) rep[0-9]+ /_\1 /' \
		-e 's/^l2size ([a-z0-9_]+) steps=[0-9]+: ms=([0-9.]+).*/l2size.\1 rep0: ms=\2/' ;;
	scatter)
		awk '/^scatter [a-z]+ S=[0-9]+ span=[0-9]+ / {
			s = $3; sub(/S=/, "", s); z = $4; sub(/span=/, "", z)
			u = $NF; sub(/us=/, "", u)
			printf "scatter.%s_%s_%s rep0: ms=%.5f\n", $2, s, z, u / 1000
			fflush(); next }
		{ print; fflush() }' ;;
	conditional) # cond.time.<case> repN: us=... -> conditional.<case>
		sed -u -E -e 's/^cond\.time\.while_iters=([0-9]+) (rep[0-9]+): us=([0-9.]+).*/conditional.while_\1 \2: us=\3/' \
		-e 's/^cond\.time\.([a-z_]+) (rep[0-9]+): us=([0-9.]+).*/conditional.\1 \2: us=\3/' \
		-e 's/^cond\.done/conditional.done/' |
		awk '/^conditional\.[a-z0-9_]+ rep[0-9]+: us=/ {
			u = $3; sub(/us=/, "", u)
			printf "%s %s ms=%.5f\n", $1, $2, u / 1000
			fflush(); next }
		{ print; fflush() }' ;;
	copyone) # copyone.<case> <path> nonblocking <n>KiB: us=... (the
		# legacy stream's rows are the same within a tenth)
		awk '/^copyone\.[a-z_0-9]+ [a-z_]+ nonblocking [0-9]+KiB: us=/ {
			c = $1; sub(/^copyone\./, "", c); k = $4; sub(/KiB:/, "k", k)
			u = $5; sub(/us=/, "", u)
			printf "copyone.%s_%s_%s rep0: ms=%.5f\n", $2, c, k, u / 1000
			fflush(); next }
		/^copyone\.[a-z_0-9]+ [a-z_]+ legacy / { next }
		{ print; fflush() }' ;;
	afterop) # afterop.<SEQ> <path> <n>KiB: us=... -> afterop.<path>_<seq>_<n>k
		awk '/^afterop\.[A-Z]+ [a-z_]+ [0-9]+KiB: us=/ {
			q = tolower(substr($1, 9)); k = $3; sub(/KiB:/, "k", k)
			u = $4; sub(/us=/, "", u)
			printf "afterop.%s_%s_%s rep0: ms=%.5f\n", $2, q, k, u / 1000
			fflush(); next }
		/^afterop\.[A-Z]+: us=/ {
			q = tolower(substr($1, 9)); sub(/:/, "", q)
			u = $2; sub(/us=/, "", u)
			printf "afterop.%s rep0: ms=%.5f\n", q, u / 1000
			fflush(); next }
		{ print; fflush() }' ;;
	peermig) # the copies by carrier and size, the rest by size
		sed -u -E -e '/ default [0-9]+KiB:/d' -e 's/_current / /' \
		-e 's/ nonblocking_/ nb_/' \
		-e 's/^peermig\.(copy_[a-z0-9]+) gpu([01])->gpu([01]) ([a-z_]+) peer ([0-9]+)KiB: .*ms=([0-9.]+).*/peermig.\1_\2\3_\4_\5k rep0: ms=\6/' \
		-e 's/^peermig\.([a-z0-9_]+) ([0-9]+)MiB (rep[0-9]+): .*ms=([0-9.]+).*/peermig.\1_\2m \3: ms=\4/' ;;
	cdp)	# cdp.time.<case> n=<k> repN: ms=... -> cdp.<case>_<k>
		sed -u -E 's/^cdp\.time\.([a-z_]+) n=([0-9]+) (rep[0-9]+): ms=/cdp.\1_\2 \3: ms=/' ;;
	*)	cat ;;
	esac
}

echo "real program vs H200 ($title; nvcc -O2 -cudart shared)"
if [ ! -x "$NVCC" ]; then
	echo "  skipped: nvcc is not installed"
	exit 0
fi
tmp=$(mktemp -d)
machine=${CUEMU_MACHINE:-cuemu}-realprog-$$
trap 'rm -rf "$tmp"; rm -f "/dev/shm/$machine"*' EXIT INT TERM
if ! "$NVCC" -O2 -cudart shared -arch=sm_90 $rdc -o "$tmp/$probe" \
	"$here/../probes/$probe.cu" $link >"$tmp/build" 2>&1; then
	echo "  skipped: nvcc failed"
	sed 's/^/  # /' "$tmp/build"
	exit 0
fi
ln -s "$b/runtime/.libs/libcuemu.so.0" "$tmp/libcuda.so.1"
# Each line stamped with the wall clock when it came.
start=$(date +%s.%N)
"$@" CUEMU_MACHINE="$machine" LD_LIBRARY_PATH="$tmp:$b/runtime/.libs" \
	stdbuf -oL "$tmp/$probe" $args 2>"$tmp/err" | rows |
	while IFS= read -r line; do
		echo "$(date +%s.%N) $line"
	done >"$tmp/out"
end=$(date +%s.%N)

rows <"$real" >"$tmp/real"
real2=${real%.txt}-run2.txt
: >"$tmp/real2"
[ -f "$real2" ] && rows <"$real2" >"$tmp/real2"
if [ -s "$tmp/real2" ]; then
	printf '  %-30s %10s %10s %7s %10s %7s %8s\n' scenario "model ms" \
		"H200 ms" ratio "run 2 ms" ratio "wall s"
else
	printf '  %-30s %10s %10s %7s %8s\n' scenario "model ms" "H200 ms" \
		ratio "wall s"
fi
awk -v p="$probe" -v start="$start" -v end="$end" -v real="$tmp/real" \
    -v real2="$tmp/real2" '
# <probe>.<case> repN: bytes=... ms=... GBps=...
function isrow(l) { return index(l, p ".") == 1 && l ~ /^[a-z0-9]+\.[a-z0-9_]+ rep[0-9]+: / }
function scen(l) { sub(/^[a-z0-9]+\./, "", l); sub(/ .*/, "", l); return l }
function msof(l) { sub(/.* ms=/, "", l); sub(/ .*/, "", l); return l + 0 }
function cell(s, sum, cnt, m) {
	if (!(s in cnt))
		return sprintf(" %10s %7s", "-", "-")
	r = sum[s] / cnt[s]
	return sprintf(" %10.3f %7.2f", r, r > 0 ? m / r : 0)
}
FILENAME == real {
	if (isrow($0)) {
		s = scen($0); rs[s] += msof($0); rn[s]++
	}
	next
}
FILENAME == real2 {
	if (isrow($0)) {
		s = scen($0); r2s[s] += msof($0); r2n[s]++; two = 1
	}
	next
}
{
	t = $1; $1 = ""; sub(/^ /, "")
	if (isrow($0)) {
		s = scen($0)
		if (!(s in en)) order[++n] = s
		es[s] += msof($0); en[s]++; wall[s] += t - prev
		prev = t
	} else if (index($0, p ".done") == 1)
		done = 1
}
BEGIN { prev = start }
END {
	for (i = 1; i <= n; i++) {
		s = order[i]; m = es[s] / en[s]
		printf "  %-30s %10.3f%s%s %8.1f\n", s, m, cell(s, rs, rn, m),
		       two ? cell(s, r2s, r2n, m) : "", wall[s] / en[s]
	}
	printf "  whole program: %.0f s of wall time%s\n", end - start,
	       done ? "" : ", did not finish"
}' "$tmp/real" "$tmp/real2" "$tmp/out"
if ! grep -q "^$probe\.done" "$tmp/out" 2>/dev/null; then
	sed 's/^/  # /' "$tmp/err" | tail -5
fi
