#!/bin/sh
# layers.sh - libcuemu's dependencies point one way (DESIGN.md, "Layers"):
#
#   cudart  -> driver's public entry points (cu*, cuemu*) only
#   driver  -> model
#   outward -> model, and the public entry points (a /cu write runs the API)
#   model   -> nothing above it
#   exec    -> nothing at all: the PTX engine asks the machine through
#              struct ex_memops (exec/exec.h), which the driver fills in
#
# Checks per source file, one TAP line each: its quoted includes name
# only headers its layer may see, and the symbols its object file uses are
# defined in no layer it may not call (read with nm from the built objects,
# so a prototype written by hand cannot hide a call). And a third: libcuemu
# exports the C library's clock and timed-wait names (CUEMU_CLOCK), so a
# call of its own to clock_gettime or poll would read the program's model
# clock; only the files that implement those names call the C library's,
# every other one goes through cuemu_libc (model/clock.h).
set -u
: "${srcdir:=.}" "${top_builddir:=.}"
rt=$srcdir/runtime
obj=$top_builddir/runtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
public='cuda\.h|cuda_runtime_api\.h|cuda_runtime\.h|cuemu\.h|config\.h|cudaProfiler\.h|cuda_profiler_api\.h'

# The headers a layer's files may include (an extended regex).
allowed_includes() {
	case $1 in
	cudart) echo "^($public|cudart/[a-z_]+\.h)\$" ;;
	driver) echo "^($public|model/[a-z_-]+\.h|driver/[a-z_]+\.h|exec/exec\.h)\$" ;;
	model) echo "^($public|model/[a-z_-]+\.h)\$" ;;
	outward) echo "^($public|model/[a-z_-]+\.h|outward/[a-z_-]+\.h)\$" ;;
	# warp_avx2.c is warp.c compiled again for AVX2
	exec) echo "^(config\.h|exec/[a-z_]+\.h|exec/warp\.c)\$" ;;
	esac
}

# The layers whose symbols a layer may not use; "driver-internal" is the
# driver's symbols that are not public entry points.
forbidden_layers() {
	case $1 in
	cudart) echo "model outward driver-internal" ;;
	driver) echo "cudart outward" ;;
	model) echo "cudart driver outward exec" ;;
	outward) echo "cudart driver-internal exec" ;;
	exec) echo "cudart driver model outward" ;;
	esac
}

layers="cudart driver model outward exec"
# The C library's names libcuemu exports (Makefile.am's CLOCK_NAMES), and
# the files that may call the real ones.
clock_names='^(clock_gettime|gettimeofday|time|timespec_get|nanosleep|clock_nanosleep|usleep|sleep|pthread_cond_timedwait|pthread_cond_clockwait|sem_timedwait|poll|select)$'
clock_owners=' runtime/cudart/clock.c runtime/driver/clock.c runtime/model/cputime.c '

objects() { ls "$obj/$1"/.libs/libcuemu_la-*.o 2>/dev/null; }

for l in $layers; do
	objects "$l" | xargs -r nm --defined-only -g 2>/dev/null |
		awk 'NF == 3 { print $3 }' | sort -u >"$tmp/$l.def"
done
grep -Ev '^(cu[A-Z]|cuda[A-Z]|cuemu[A-Z])' "$tmp/driver.def" \
	>"$tmp/driver-internal.def" || true

# A layer whose objects were not found would forbid nothing: every "calls
# no layer above" would pass. One line a layer says its symbols were read.
n=5
for l in $layers; do
	for f in "$rt/$l"/*.c "$rt/$l"/*.h; do
		[ -f "$f" ] && n=$((n + 1))
		case $f in *.c) n=$((n + 2)) ;; esac
	done
done
echo "1..$n"

i=0
for l in $layers; do
	i=$((i + 1))
	if [ -s "$tmp/$l.def" ]; then
		echo "ok $i - the $l layer's objects are read: $(wc -l <"$tmp/$l.def") symbols"
	else
		echo "not ok $i - the $l layer's objects are read"
		echo "# no symbols from $obj/$l/.libs/libcuemu_la-*.o: build first"
	fi
done
for l in $layers; do
	re=$(allowed_includes "$l")
	for f in "$rt/$l"/*.c "$rt/$l"/*.h; do
		[ -f "$f" ] || continue
		name=runtime/$l/$(basename "$f")
		i=$((i + 1))
		bad=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
			grep -Ev "$re" | tr '\n' ' ')
		if [ -z "$bad" ]; then
			echo "ok $i - $name includes only what the $l layer may see"
		else
			echo "not ok $i - $name includes only what the $l layer may see"
			echo "# reaches out of its layer: $bad"
		fi
		case $f in *.c) ;; *) continue ;; esac
		i=$((i + 1))
		o=$obj/$l/.libs/libcuemu_la-$(basename "$f" .c).o
		if [ ! -f "$o" ]; then
			echo "not ok $i - $name calls no layer above or across it"
			echo "# no object file $o: build first"
			continue
		fi
		nm --undefined-only "$o" | awk '{ print $NF }' | sort -u >"$tmp/undef"
		bad=
		for fl in $(forbidden_layers "$l"); do
			bad="$bad$(comm -12 "$tmp/undef" "$tmp/$fl.def" |
				sed "s/\$/ ($fl)/" | tr '\n' ' ')"
		done
		if [ -z "$bad" ]; then
			echo "ok $i - $name calls no layer above or across it"
		else
			echo "not ok $i - $name calls no layer above or across it"
			echo "# uses: $bad"
		fi
		i=$((i + 1))
		case $clock_owners in
		*" $name "*) bad= ;;
		*) bad=$(grep -E "$clock_names" "$tmp/undef" | tr '\n' ' ') ;;
		esac
		if [ -z "$bad" ]; then
			echo "ok $i - $name times itself through cuemu_libc only"
		else
			echo "not ok $i - $name times itself through cuemu_libc only"
			echo "# calls the names libcuemu exports: $bad"
		fi
	done
done
