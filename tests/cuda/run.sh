#!/bin/sh
# run.sh - programs built by nvcc with the shared runtime run unchanged on
# libcuemu's own libcudart.so.13: each tests/cuda/*.cu (units_*.cu together)
# is built with `nvcc -cudart shared` and run with LD_LIBRARY_PATH at a
# directory holding the libcuda.so.1 alias and libcudart.so.13; one TAP line
# a program, its last line PASS. probes/rt_errors.cu is replayed the same
# way against what the real runtime printed (probes/results/rt_errors.txt),
# and probes/lifetimes.cu against two H200s (probes/results/lifetimes.txt)
# line by line, but its device count (the emulated machine has four) and
# the exit status run.sh appended there; its kernels spin 2e8 cycles of
# the engine's clock (the SM's, as the warp's chains reach them: about
# 0.6 s of the interpreter's wall each, which "waited" needs past 0.25)
# where the H200's spun 1e9, and
# it leaves its SIGSEGV guard out (PROBE_NO_SIGNALS), which would take
# libcuemu's fault handler's place.
# perthread: graph.cu built with --default-stream per-thread, so that it
# calls the runtime's per-thread forms (cudaMemcpy_ptds, ..._ptsz).
# clock.cu runs with CUEMU_CLOCK=model: it times itself in model time.
# Skipped, saying so, where nvcc is missing. coop: the runtime's
# cooperative, extensible and library launches; rdc: relocatable device
# code, linked from the PTX its objects carry; rdcsass: the same built
# with machine code only, refused in one line; linkptx: a driver-API
# program linking rdc_a's and rdc_b's PTX (nvcc -rdc=true -ptx) through
# cuLink*; clang: clang.cu built by clang++ (skipped,
# saying so, where no clang compiles CUDA for sm_90 or no ptxas is there).
# managed: a __managed__ variable on two GPUs and across cudaDeviceReset;
# reload: the program's kernels after a reset, beside modules loaded
# meanwhile. engine: half precision, cuda::barrier and device recursion
# under the stack limit. heap: the device heap and indirect calls
# (probes/results/heap.txt). texture: texture and surface objects through
# the runtime (arrays, linear and pitched memory, layers, filtering).
# condprobe: probes/conditional.cu's conditional graph nodes replayed line
# for line against one H200 (probes/results/conditional.txt). wmma: a
# tensor-core GEMM through nvcc's wmma API (f16 into f32, f64, s8).
# cdp: dynamic parallelism (-rdc=true -lcudadevrt, libcudadevrt's entry
# points served by the engine); cdpprobe: probes/cdp.cu's device runtime
# answers replayed line for line against one H200 (probes/results/
# cdp.txt).
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
src=$srcdir/tests/cuda
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
programs="launch symbols attributes units loading rt_errors lifetimes static staticlib clock coop rdc rdcsass linkptx clang managed reload engine heap texture graph graphprobe perthread condprobe wmma cdp cdpprobe"

n=$(echo $programs | wc -w)
echo "1..$n"
if [ ! -x "$NVCC" ]; then
	for p in $programs; do
		echo "ok - $p # SKIP nvcc is not installed"
	done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$(cd "$top_builddir/runtime/.libs" && pwd)/libcuemu.so.0" \
	"$tmp/libcuda.so.1"
libs=$tmp:$(cd "$top_builddir/runtime/.libs" && pwd)

# clang: clang.cu compiled by clang as CUDA for sm_90 against libcuemu's
# headers (-nocudainc: clang 19's CUDA wrapper includes
# texture_fetch_functions.h, which CUDA 13 no longer ships), in clang's
# own steps but the fat binary's: clang 19 hands fatbinary
# --image=profile=...,file=..., which CUDA 13's fatbinary refuses
# ("Unknown option '-image'"; it takes --image3=kind=...,sm=...), so
# ptxas and fatbinary run here and clang's host pass embeds the result
# (-fcuda-include-gpubinary), registered as clang registers any.
CLANG=${CLANG:-$(command -v clang++-19 || command -v clang++ || echo none)}
# clang picks its launch ABI by the CUDA version it reads from
# <cuda-path>/include/cuda.h: where it finds none (a toolkit laid out
# otherwise) it assumes CUDA 7.0 and emits cudaConfigureCall and
# cudaLaunch, which CUDA 13's runtime (and so libcuemu's) no longer has.
# So clang is shown a root of its own: the toolkit's bin beside the
# project's headers, whose cuda.h says 13000.
cudabin=$(cd "$(dirname "$NVCC")" && pwd)
clang_build() {
	mkdir "$tmp/cudaroot"
	ln -s "$cudabin" "$tmp/cudaroot/bin"
	ln -s "$(cd "$srcdir/include" && pwd)" "$tmp/cudaroot/include"
	cl="$CLANG -x cuda --cuda-gpu-arch=sm_90 -nocudainc -nocudalib
		--cuda-path=$tmp/cudaroot -Wno-unknown-cuda-version
		-I$srcdir/include -I$src"
	if [ ! -x "$cudabin/ptxas" ] || [ ! -x "$cudabin/fatbinary" ]; then
		echo "ok $i - clang # SKIP no ptxas and fatbinary beside $NVCC"
		return 1
	fi
	if ! echo 'int x;' | $cl --cuda-device-only -S -o /dev/null - \
		>/dev/null 2>&1; then
		echo "ok $i - clang # SKIP no clang here compiles CUDA for" \
			"sm_90 ($CLANG)"
		return 1
	fi
	if ! { $cl --cuda-device-only -S -o "$tmp/clang.ptx" $1 &&
		"$cudabin/ptxas" -m64 --gpu-name sm_90 -o "$tmp/clang.cubin" \
			"$tmp/clang.ptx" &&
		"$cudabin/fatbinary" -64 --create "$tmp/clang.fatbin" \
			--image3=kind=elf,sm=90,file="$tmp/clang.cubin" \
			--image3=kind=ptx,sm=90,file="$tmp/clang.ptx" &&
		$cl --cuda-host-only -Xclang -fcuda-include-gpubinary \
			-Xclang "$tmp/clang.fatbin" -c -o "$tmp/clang.o" $1 &&
		"$CLANG" -o "$tmp/clang" "$tmp/clang.o" \
			-L"$top_builddir/runtime/.libs" -lcudart
	} >"$tmp/clang.build" 2>&1; then
		echo "not ok $i - clang: the build failed"
		sed 's/^/# /' "$tmp/clang.build"
		return 1
	fi
}

i=0
for p in $programs; do
	i=$((i + 1))
	case $p in
	units) files="$src/units_a.cu $src/units_b.cu" ;;
	rdc) files="-rdc=true $src/rdc_a.cu $src/rdc_b.cu" ;;
	rdcsass) files="-rdc=true -DRDC_SASS_ONLY $src/rdc_a.cu $src/rdc_b.cu" ;;
	linkptx) files="$src/linkptx.cu -lcuda" ;;
	reload) files="$src/reload.cu -lcuda" ;;
	clang) files=$src/clang.cu ;;
	rt_errors) files=$srcdir/probes/rt_errors.cu ;;
	graphprobe) files=$srcdir/probes/graph.cu ;;
	condprobe) files="$srcdir/probes/conditional.cu -lcuda" ;;
	cdp) files="-rdc=true $src/cdp.cu -lcudadevrt" ;;
	cdpprobe) files="-rdc=true $srcdir/probes/cdp.cu -lcudadevrt" ;;
	# graph.cu again, built with a per-thread default stream: every
	# call it makes is a _ptsz or _ptds form
	perthread) files="--default-stream per-thread $src/graph.cu" ;;
	lifetimes) files="$srcdir/probes/lifetimes.cu -lcuda" ;;
	*) files=$src/$p.cu ;;
	esac
	# static: nvcc's default, NVIDIA's static runtime, which must be
	# told apart in one line on stderr, and fail as before.
	runtime=shared
	case $p in static) files=$src/launch.cu runtime=static ;; esac
	# staticlib: the static runtime inside a library the program loads
	# (the program itself has no CUDA: the host compiler builds it).
	if [ $p = staticlib ]; then
		if ! { "$NVCC" -arch=sm_90 -shared -Xcompiler -fPIC \
			-DSTATICLIB_LIB -o "$tmp/libstaticlib.so" \
			"$src/staticlib.cu" &&
			${CXX:-g++} -x c++ -o "$tmp/$p" "$src/staticlib.cu" \
			-L"$tmp" -lstaticlib -Wl,-rpath="$tmp"
		} >"$tmp/$p.build" 2>&1; then
			echo "not ok $i - $p: nvcc failed"
			sed 's/^/# /' "$tmp/$p.build"
			continue
		fi
	elif [ $p = clang ]; then
		clang_build "$files" || continue
	elif [ $p = linkptx ] && ! {
		"$NVCC" -ptx -rdc=true -arch=sm_90 -DRDC_DEVICE_ONLY -I"$src" \
			-o "$tmp/rdc_a.ptx" "$src/rdc_a.cu" &&
		"$NVCC" -ptx -rdc=true -arch=sm_90 -o "$tmp/rdc_b.ptx" \
			"$src/rdc_b.cu"; } >"$tmp/$p.build" 2>&1; then
		echo "not ok $i - $p: nvcc -ptx failed"
		sed 's/^/# /' "$tmp/$p.build"
		continue
	elif [ $p = rdcsass ] && ! "$NVCC" -cudart shared \
		-gencode arch=compute_90,code=sm_90 -I"$src" -o "$tmp/$p" \
		$files >"$tmp/$p.build" 2>&1; then
		echo "not ok $i - $p: nvcc failed"
		sed 's/^/# /' "$tmp/$p.build"
		continue
	elif [ $p != rdcsass ] && ! "$NVCC" -cudart $runtime -arch=sm_90 \
		-I"$src" -o "$tmp/$p" $files >"$tmp/$p.build" 2>&1; then
		echo "not ok $i - $p: nvcc failed"
		sed 's/^/# /' "$tmp/$p.build"
		continue
	fi
	# clock: the program's own clocks read model time (CUEMU_CLOCK).
	clock=
	case $p in clock) clock=model ;; esac
	args=
	case $p in
	lifetimes) args=200000000 ;;
	linkptx) args="$tmp/rdc_a.ptx $tmp/rdc_b.ptx" ;;
	esac
	LD_LIBRARY_PATH=$libs CUEMU_CLOCK=$clock PROBE_NO_SIGNALS=1 \
		timeout 120 "$tmp/$p" $args \
		>"$tmp/$p.out" 2>&1
	rc=$?
	missing=
	if [ -f "$src/$p.expect" ]; then
		missing=$(grep -vxF -f "$tmp/$p.out" "$src/$p.expect")
	fi
	if [ $p = static ]; then
		n=$(grep -c "links NVIDIA's static CUDA runtime.*-cudart shared" \
			"$tmp/$p.out")
		if [ "$n" = 1 ] && [ $rc -ne 0 ]; then
			echo PASS >>"$tmp/$p.out"
			rc=0
		else
			missing="one line naming the static runtime (said $n times)"
		fi
	fi
	if [ $p = staticlib ]; then
		n=$(grep -c "libstaticlib.so, a library the program loads, links NVIDIA's static CUDA runtime" \
			"$tmp/$p.out")
		[ "$n" = 1 ] && ! grep -q -- "-cudart shared\` (CMake" "$tmp/$p.out" ||
			missing="one line naming the library (said $n times)"
	fi
	if [ $p = rdcsass ]; then
		n=$(grep -c "relocatable (nvcc -rdc=true or -dc).*machine code only" \
			"$tmp/$p.out")
		[ "$n" = 1 ] ||
			missing="one line naming relocatable code (said $n times)"
	fi
	if [ $p = rdc ] && grep -q "relocatable" "$tmp/$p.out"; then
		missing="no word of relocatable code where it links"
	fi
	# A probe's lines are the real runtime's, recorded: all must match
	# (graph.txt's but the exit status run by hand appended).
	if [ $p = rt_errors ] || [ $p = lifetimes ] || [ $p = graphprobe ] ||
	   [ $p = condprobe ] || [ $p = cdpprobe ]; then
		real=$p
		[ $p = graphprobe ] && real=graph
		[ $p = condprobe ] && real=conditional
		[ $p = cdpprobe ] && real=cdp
		grep -v -e '^#' -e '^lifetimes\.rt\.devices:' -e '^lifetimes\.exit:' \
			-e '^exit ' -e '^cond\.exit:' \
			"$srcdir/probes/results/$real.txt" >"$tmp/$p.real"
		grep -v -e '^lifetimes\.rt\.devices:' -e '^cdp\.done$' \
			"$tmp/$p.out" >"$tmp/$p.emu"
		if diff "$tmp/$p.real" "$tmp/$p.emu" >"$tmp/$p.diff"; then
			echo PASS >>"$tmp/$p.out"
		else
			missing=$(cat "$tmp/$p.diff")
		fi
	fi
	if [ $rc -eq 0 ] && [ -z "$missing" ] &&
		[ "$(tail -n 1 "$tmp/$p.out")" = PASS ]; then
		case $p in
		static) echo "ok $i - a program with NVIDIA's static runtime" \
			"is told to rebuild with -cudart shared, once" ;;
		staticlib) echo "ok $i - a library with NVIDIA's static" \
			"runtime is named as what carries it, once" ;;
		clock) echo "ok $i - clock: with CUEMU_CLOCK=model, std::chrono" \
			"and gettimeofday read model time" ;;
		rdc) echo "ok $i - rdc: relocatable device code runs, its" \
			"objects' PTX linked through cuLink*" ;;
		rdcsass) echo "ok $i - rdcsass: relocatable machine code" \
			"only is refused in one line" ;;
		linkptx) echo "ok $i - linkptx: two PTX modules linked" \
			"through cuLink*, loaded and run" ;;
		*) echo "ok $i - $p runs on libcuemu's libcudart.so.13" ;;
		esac
	else
		echo "not ok $i - $p (exit $rc)${missing:+, missing: $missing}"
		sed 's/^/# /' "$tmp/$p.out"
	fi
done
