#!/usr/bin/env bats
# experiment.bats - cufs-experiment: on a workload whose answer is known
# the ranking is right (moving data before a GPU streams through it beats
# letting the GPU fault it in), the JSON parses and says the same, the
# overlays apply by label, bad policies are refused before any run, and a
# workload's kernels break its model time down.

load helpers

EXP=$top_srcdir/scripts/cufs-experiment
EXAMPLES=$top_srcdir/examples
STREAM=$EXAMPLES/workloads/stream-once.json
PREFETCH=$EXAMPLES/policies/prefetch-before-use.sh

# Each test's runs keep their scratch directories (and so their mounts)
# under its own WORK, so that another suite running beside this one is
# not taken for a mount left behind.
setup() {
	export WORK=$(mktemp -d "${TMPDIR:-/tmp}/cufs-exp.XXXXXX")
	export TMPDIR=$WORK
}

teardown() {
	# Nothing of any run is left: mounts, segments, scratch directories.
	local left
	left=$(awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/mounts)
	for m in $left; do fusermount3 -u -z "$m" 2>/dev/null; done
	rm -rf "$WORK"
	[ -z "$left" ] || fail "a mount is left: $left"
}

@test "prefetching before the GPU streams the data ranks above faulting it in" {
	run "$EXP" -p none -p "$PREFETCH" -- "$STREAM"
	assert_success
	assert_line --index 0 --regexp '^rank +policy +model ms +gpu faults +cpu faults +H2D +D2H +D2D +evictions +thrashing +remote$'
	assert_line --index 1 --regexp '^1 +prefetch-before-use +[0-9.]+ +0 +0 +256.0 MiB '
	assert_line --index 2 --regexp '^2 +none +[0-9.]+ +[1-9][0-9]* +0 +256.0 MiB '
	[ "${#lines[@]}" -eq 3 ] || fail "${#lines[@]} lines"
}

@test "--json: the same ranking, as JSON with every counter" {
	"$EXP" --json --repeat 2 -p "$PREFETCH" -p none -- "$STREAM" >"$WORK/out.json"
	jq -e . "$WORK/out.json" >/dev/null
	run jq -r '.results[] | "\(.rank) \(.policy) \(.runs)"' "$WORK/out.json"
	assert_output "1 prefetch-before-use 2
2 none 2"
	run jq -e '.repeat == 2 and (.results | all(has("model_time_ns") and
		has("model_time_ns_min") and has("model_time_ns_max") and
		has("gpu_faults") and has("cpu_faults") and has("bytes_htod") and
		has("bytes_dtoh") and has("bytes_dtod") and has("evictions") and
		has("thrashing") and has("remote_accesses")))
		and .results[0].model_time_ns < .results[1].model_time_ns
		and .results[0].gpu_faults == 0 and .results[1].gpu_faults > 0' \
		"$WORK/out.json"
	assert_success
}

@test "an overlay advises by label: weights mapped from the host are read remotely" {
	"$EXP" --json -p "$EXAMPLES/policies/preferred-location-accessed-by.json" \
		-- "$EXAMPLES/workloads/training-loop.json" >"$WORK/out.json"
	run jq -e '.results[0].remote_accesses > 0' "$WORK/out.json"
	assert_success
}

@test "a program built on libcuemu is a workload too" {
	run "$EXP" --json -- "$top_builddir/examples/mem_managed"
	assert_success
	echo "$output" | jq -e '.results[0].policy == "none" and
		.results[0].model_time_ns > 0 and .results[0].bytes_dtod > 0'
}

@test "--topology takes a shipped topology's name, as cufs and CUEMU_TOPOLOGY do" {
	CUEMU_TOPOLOGY_DIR=$top_srcdir/topologies run "$EXP" --topology gh200 -p none -- "$STREAM"
	assert_success
	assert_line --index 1 --regexp '^1 +none +[0-9.]+ '
	run "$EXP" --topology 'no/such file' -p none -- "$STREAM"
	assert_failure 2
	assert_output "cufs-experiment: --topology: 'no/such file' is no readable file and no topology name"
}

@test "bad policies and arguments are refused before any run" {
	echo '{ "cufs_policy": 1, "allocations": [ { "label": "x", "prefech": "gpu0" } ] }' >"$WORK/typo.json"
	run "$EXP" -p "$WORK/typo.json" -- "$STREAM"
	assert_failure 2
	assert_output --partial "policy $WORK/typo.json: allocations[0]: no such field: prefech"
	echo '{ "allocations": [] }' >"$WORK/old.json"
	run "$EXP" -p "$WORK/old.json" -- "$STREAM"
	assert_failure 2
	assert_output --partial '"cufs_policy": 1 is missing'
	run "$EXP" -p "$WORK/nothing-here" -- "$STREAM"
	assert_failure 2
	assert_output --partial "not 'none', an overlay (.json) or an executable file"
	run "$EXP" --repeat 0 -- "$STREAM"
	assert_failure 2
	run "$EXP" -p none
	assert_failure 2
	assert_output --partial "Usage: cufs-experiment"
	sed 's/"read"/"reed"/' "$STREAM" >"$WORK/bad.json"
	run "$EXP" -- "$WORK/bad.json"
	assert_failure 2
	assert_output --partial "bad.json:11: streams[0].steps[0].kernel.access[0].mode"
}

@test "--plot draws the ranking with gnuplot" {
	if ! command -v gnuplot >/dev/null; then
		run env PATH=/usr/bin:/bin "$EXP" --plot "$WORK/p.png" -- "$STREAM"
		assert_failure 2
		assert_output --partial "--plot needs gnuplot"
		skip "gnuplot is not installed: only its absence was checked"
	fi
	run "$EXP" --plot "$WORK/p.png" -p none -p "$PREFETCH" -- "$STREAM"
	assert_success
	[ "$(head -c 4 "$WORK/p.png" | tail -c 3)" = PNG ] || fail "not a PNG"
}

@test "a workload launching kernels: each policy's model time by kernel" {
	# tests/unit/kstep runs 8 MiB through touch_all (a fault a page,
	# 2,048 of them) and read_all (nothing left to fault)
	local wl=$WORK/kstep-run.sh PAGES=2048 BYTES=8388608
	printf '#!/bin/sh\nprintf "launch touch_all\\nlaunch read_all\\nquit\\n" | exec %q %q 8\n' \
		"$top_builddir/tests/unit/kstep" "$WORK/run.ids" >"$wl"
	chmod +x "$wl"
	run "$EXP" -- "$wl"
	assert_success
	assert_line --regexp "^policy +kernel +launches +model ms +fault ms +gpu faults +migrated in +remote$"
	assert_line --regexp "^none +touch_all +1 +[0-9.]+ +[0-9.]+ +$PAGES +8\.0 MiB +0$"
	assert_line --regexp "^none +read_all +1 +[0-9.]+ +0\.000 +0 +0 B +0$"
	run "$EXP" --json -- "$wl"
	assert_success
	[ "$(jq -r '.results[0].kernels[0] | "\(.kernel) \(.gpu_faults) \(.migrated_in)"' <<<"$output")" = "touch_all $PAGES $BYTES" ]
}
