#!/usr/bin/env bats
# readme.bats - README.md's "Using it", walked as a new user walks it:
# install, build a program with pkg-config, run what was installed, mount,
# and give the machine its topology. Each command run here is first found,
# word for word, in the README, so that neither can change alone. The
# install is staged (DESTDIR) in the test's directory: the build tree and
# the host stay as they were.

load helpers

setup_file() {
	cufs_env
	ROOT=$WORK/root
	export ROOT
	make -s -C "$top_builddir" install DESTDIR="$ROOT" >"$WORK/install.log" 2>&1 ||
		{ cat "$WORK/install.log" >&2; return 1; }
	# the configured prefix, under the stage
	PREFIX=$ROOT$(sed -n 's/^prefix=//p' "$top_builddir/cuemu.pc")
	export PREFIX
}

teardown_file() {
	cleanup_all
}

setup() {
	export CUFS_BIN=$PREFIX/bin/cufs
	# a stage is no prefix pkg-config knows: tell it both
	export PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$ROOT
	cat >"$WORK/machine.json" <<-'EOF'
	{ "name": "readme: two GPUs", "device_count": 2,
	  "devices": [ { "name": "Readme GPU", "memory": "2G" } ] }
	EOF
}

teardown() {
	stop_workloads
	stop_cufs
	rm -f "/dev/shm/$CUEMU_MACHINE"
}

# in_readme LINE: LINE is a line of README.md, as written there.
in_readme() {
	grep -qxF -- "$1" "$top_srcdir/README.md" ||
		fail "README.md has no line '$1'"
}

@test "README: the installed programs run, with no loader setup" {
	in_readme 'make install                      # libcuemu, headers in include/cuemu, cufs'
	run env -u LD_LIBRARY_PATH "$PREFIX/bin/cufs" --version
	assert_success
	assert_output --regexp '^cufs [0-9.]+ \(FUSE [0-9.]+\)$'
	run env -u LD_LIBRARY_PATH "$PREFIX/bin/cuemu-run" --check \
		"$PREFIX/share/cufs/examples/workloads/training-loop.json"
	assert_success
	# libnvidia-ml finds libcuemu beside it, from lib/cuemu
	run env -u LD_LIBRARY_PATH ldd "$PREFIX/lib/cuemu/libnvidia-ml.so.1"
	assert_line --regexp "libcuemu\.so\.0 => $PREFIX/lib/cuemu/\.\./libcuemu\.so\.0"
}

@test "README: a program built with pkg-config runs on the emulation" {
	in_readme 'gcc prog.c $(pkg-config --cflags --libs cuemu)'
	cp "$top_srcdir/examples/mem_device.c" "$WORK/prog.c"
	cd "$WORK"
	gcc prog.c $(pkg-config --cflags --libs cuemu) -o prog
	# staged, the library is not where the loader will find it installed
	run env LD_LIBRARY_PATH="$PREFIX/lib" ./prog
	assert_success
	assert_output --partial "a 64 MiB allocation took 64 MiB; round trip ok"
}

@test "README: a binary linked against libcuda.so.1 runs with LD_LIBRARY_PATH=\$(libdir)/cuemu" {
	grep -qF 'with `LD_LIBRARY_PATH=$(libdir)/cuemu`.' "$top_srcdir/README.md" ||
		fail "README.md no longer says LD_LIBRARY_PATH=\$(libdir)/cuemu"
	# as programs that load the driver themselves do
	cat >"$WORK/loader.c" <<-'EOF'
	#include <dlfcn.h>
	#include <stdio.h>
	int main(void)
	{
		void *h = dlopen("libcuda.so.1", RTLD_NOW);
		int (*init)(unsigned), (*count)(int *);
		int n = -1;

		if (!h) {
			printf("%s\n", dlerror());
			return 1;
		}
		init = (int (*)(unsigned))dlsym(h, "cuInit");
		count = (int (*)(int *))dlsym(h, "cuDeviceGetCount");
		if (!init || !count || init(0) || count(&n))
			return 2;
		printf("devices %d\n", n);
		return 0;
	}
	EOF
	gcc -o "$WORK/loader" "$WORK/loader.c" -ldl
	run env LD_LIBRARY_PATH="$PREFIX/lib/cuemu" "$WORK/loader"
	assert_success
	assert_output "devices 4"
}

@test "README: the topology given to cufs is the machine programs see" {
	in_readme 'mkdir -p /cu && cufs --topology machine.json /cu'
	in_readme './my-program &'
	in_readme 'ls /cu/allocations'
	cd "$WORK"
	start_cufs --topology machine.json
	run ls "$MNT/devices"
	assert_line gpu1
	refute_line gpu2
	run env LD_LIBRARY_PATH="$PREFIX/lib" "$top_builddir/examples/kinds"
	assert_success
	assert_line --partial "type=device managed=1"
	run ls "$MNT/allocations"
	assert_success
}

@test "README: a topology asked for on a machine of another shape is said, once" {
	grep -qF 'A process that asks for another topology (`CUEMU_TOPOLOGY`, a workload'"'"'s' \
		"$top_srcdir/README.md" || fail "README.md no longer says it"
	cd "$WORK"
	start_cufs
	run env CUEMU_TOPOLOGY=machine.json "$top_builddir/examples/mem_device"
	assert_success
	assert_line "cuemu: CUEMU_TOPOLOGY=machine.json asks for 'readme: two GPUs' (2 GPUs), but machine $CUEMU_MACHINE exists already as 'default: 4 x H200' (4 GPUs) and is used as it is: remove it once its processes are done (rm /dev/shm/$CUEMU_MACHINE), or give this process a machine of its own (CUEMU_MACHINE=NAME)"
	assert_equal "$(printf '%s\n' "$output" | grep -c '^cuemu:')" 1
	# the same machine, asked for as it is: nothing to say
	run env CUEMU_TOPOLOGY= "$top_builddir/examples/mem_device"
	refute_output --partial "cuemu:"
}
