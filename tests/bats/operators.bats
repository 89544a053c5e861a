#!/usr/bin/env bats
# operators.bats - cufs as an operator runs it: the systemd unit and the
# mount helper (mount -t fuse.cufs, fstab) mount it with the machine and run
# directory they are given; cufs-watch --map draws where memory lives in a
# real terminal (tmux) and follows it; cufs-events prints what moves memory;
# the Prometheus textfile passes promtool and comes back from a scrape of
# node_exporter; the dashboard plots only metrics the exporter writes; every
# tool has --help, a manual page and bash completion.
#
# Every wait is bounded; whatever a test starts (mounts, tmux servers,
# exporters) is stopped in teardown, also when the test fails.

load helpers

SRC=${top_srcdir:-$BATS_TEST_DIRNAME/../..}
SCRIPTS=$SRC/scripts
TOOLS="cufs-watch cufs-tune cufs-prometheus cufs-events"

# One cufs for the file (it keeps no state); a workload for each test, so
# that what one test writes to it (advice, prefetches, labels) is never
# the next one's starting point, also when the test fails half way.
setup_file() {
	mount_setup_file
}

teardown_file() {
	cleanup_all
}

setup() {
	TMUX_SOCK=cufs-bats-$$-$BATS_TEST_NUMBER
	EXTRA=$WORK/t$BATS_TEST_NUMBER
	mkdir -p "$EXTRA"
	start_workload A
}

# What one test started beyond the file's cufs.
teardown() {
	local m p
	stop_workload A
	rm -f "$WORK"/A.fifo "$WORK"/A.out "$WORK"/A.ids
	tmux -L "$TMUX_SOCK" kill-server 2>/dev/null || true
	for m in "$EXTRA"/mnt*; do
		[ -d "$m" ] || continue
		fusermount3 -u "$m" 2>/dev/null || fusermount3 -u -z "$m" 2>/dev/null || true
	done
	for p in "$EXTRA"/*.pid; do
		[ -f "$p" ] || continue
		kill "$(cat "$p")" 2>/dev/null || true
		wait_for bash -c "! kill -0 $(cat "$p")" || kill -9 "$(cat "$p")" 2>/dev/null || true
	done
	[ -z "${EXTRA_MACHINE:-}" ] || rm -f "/dev/shm/$EXTRA_MACHINE"
	rm -rf "$EXTRA"
}

# The unit or helper as make writes it, but naming this build's cufs and
# a private sysconfdir, so that it can run here.
edit_service() { # template output
	sed -e "s|@bindir@|$top_builddir/cufs|g" \
	    -e "s|@sysconfdir@|$EXTRA/etc|g" \
	    -e "s|@FUSERMOUNT@|$(command -v fusermount3)|g" \
	    -e "s|@MOUNT_FUSE@|$(command -v mount.fuse3 || echo /sbin/mount.fuse3)|g" \
	    -e "s|@MKDIR_P@|$(command -v mkdir) -p|g" "$1" >"$2"
}

machine_of() { # mount
	jq -r .machine.machine "$1/snapshot.json"
}

# ---------------------------------------------------------------- help, man, completion

@test "every tool answers --help with its usage, and refuses a bad option or value with status 2" {
	for t in $TOOLS; do
		run "$SCRIPTS/$t" --help
		assert_success
		assert_output --partial "Usage: $t"
		run "$SCRIPTS/$t" --no-such-option
		assert_failure 2
	done
	run "$SCRIPTS/cufs-watch" -m "$MNT" -i 0 -1
	assert_failure 2
	assert_output --partial "-i needs a positive number"
	run "$SCRIPTS/cufs-watch" -m "$MNT" -p x -1
	assert_failure 2
	run "$SCRIPTS/cufs-tune" -m "$MNT" -p 12x
	assert_failure 2
	run "$SCRIPTS/cufs-events" -m "$MNT" -a 3,x
	assert_failure 2
	run "$SCRIPTS/cufs-events" -m "$MNT" -n 0
	assert_failure 2
	run "$SCRIPTS/cufs-events" -m "$WORK"
	assert_failure 2
	assert_output --partial "is not a cufs mount"
	run "$CUFS" --help
	assert_success
	assert_output --partial "[[SOURCE] MOUNTPOINT]"
	assert_output --partial "-o machine=NAME"
}

@test "every tool has a manual page that formats without warnings, and cufs(8) shows the three ways to run it" {
	command -v man >/dev/null || skip "no man here"
	for t in $TOOLS; do
		run bash -c "MANWIDTH=80 timeout 20 man --warnings -l '$SRC/man/$t.1' 2>&1 >/dev/null"
		assert_success
		assert_output ""
		run bash -c "MANWIDTH=80 timeout 20 man -l '$SRC/man/$t.1'"
		assert_output --partial "$t"
		assert_output --partial "EXIT STATUS"
	done
	run bash -c "MANWIDTH=100 timeout 20 man -l '$SRC/man/cufs.8' 2>/dev/null"
	assert_output --partial "RUNNING IT"
	assert_output --partial "systemctl enable --now cufs"
	assert_output --partial "mount -t fuse.cufs cufs /cu"
	assert_output --regexp "cufs +/cu +fuse.cufs"
}

@test "bash completion: options of each tool, pids and allocation ids from the mount, and cufs's own" {
	complete_words() { # words... : COMPREPLY for the last word, one a line
		bash -c '
			source "$1"; shift
			COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			if [ "$1" = cufs ]; then _cufs; else _cufs_tool; fi
			printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/completion/cufs" "$@"
	}
	run complete_words cufs-watch --m
	assert_output "--map"
	run complete_words cufs-events --s
	assert_output "--summary"
	run complete_words cufs-prometheus --no
	assert_output "--no-allocations"
	run complete_words cufs-tune -m "$MNT" -p ""
	assert_line "$A_pid"
	run complete_words cufs-events -m "$MNT" -a "$A_managed"
	assert_line "$A_managed"
	run complete_words cufs --ver
	assert_output "--version"
	run complete_words cufs --top
	assert_output "--topology"
	CUEMU_TOPOLOGY_DIR=$SRC/topologies run complete_words cufs --topology gh200-
	assert_output "gh200-nvl4"
	run bash -c "source '$SRC/completion/cufs' && complete -p $TOOLS cufs"
	assert_success
	assert_line "complete -F _cufs cufs"
}

# ---------------------------------------------------------------- the service and the mount helper

@test "the systemd unit: mounts /cu, restarts on failure, unmounts on stop, topology from sysconfdir; systemd-analyze verify accepts it" {
	unit=$EXTRA/cufs.service
	edit_service "$SRC/service/cufs.service.in" "$unit"
	run grep -E '^(ExecStart|Restart|Environment|ExecStopPost)=' "$unit"
	assert_line "ExecStart=$top_builddir/cufs/cufs -f -o allow_other --rundir /run/cuemu /cu"
	assert_line "Restart=on-failure"
	assert_line "Environment=CUEMU_TOPOLOGY=$EXTRA/etc/cufs/topology.json"
	assert_line --regexp '^ExecStopPost=-.*fusermount3 -u -z /cu$'
	refute_output --partial "@"
	if command -v systemd-analyze >/dev/null; then
		run timeout 60 systemd-analyze verify --man=no "$unit"
		assert_success
	fi
}

@test "the unit's command, run as systemd runs it: the machine from the topology file, and SIGTERM unmounts, a clean stop to systemd" {
	unit=$EXTRA/cufs.service
	edit_service "$SRC/service/cufs.service.in" "$unit"
	mkdir -p "$EXTRA/etc/cufs" "$EXTRA/mnt" "$EXTRA/run"
	cp "$SRC/service/topology.json" "$EXTRA/etc/cufs/topology.json"
	EXTRA_MACHINE=cufs-bats-unit-$$
	# /cu and /run/cuemu are this test's; the rest of the line is the unit's.
	cmd=$(sed -n 's/^ExecStart=//p' "$unit" | sed -e "s| /cu\$| $EXTRA/mnt|" -e "s|/run/cuemu|$EXTRA/run|")
	topo=$(sed -n 's/^Environment=CUEMU_TOPOLOGY=//p' "$unit")
	(CUEMU_TOPOLOGY=$topo CUEMU_MACHINE=$EXTRA_MACHINE $cmd >"$EXTRA/unit.log" 2>&1 &
	 echo $! >"$EXTRA/unit.pid"
	 rc=0
	 wait $! || rc=$?
	 echo $rc >"$EXTRA/unit.status") 3>&- &
	wait_for test -d "$EXTRA/mnt/devices" || { cat "$EXTRA/unit.log" >&2; false; }
	[ "$(machine_of "$EXTRA/mnt")" = "$EXTRA_MACHINE" ]
	[ "$(jq -r .machine.name "$EXTRA/mnt/snapshot.json")" = "$(jq -r .name "$topo")" ]
	# systemctl stop sends KillSignal=SIGTERM.
	kill -TERM "$(cat "$EXTRA/unit.pid")"
	wait_for test -s "$EXTRA/unit.status" ||
		fail "cufs did not end within 10 s of SIGTERM"
	rm -f "$EXTRA/unit.pid"
	# A clean stop to systemd is exit status 0; the unit names no other.
	status=$(cat "$EXTRA/unit.status")
	[ "$status" = 0 ] || fail "cufs ended with $status on SIGTERM"
	run grep -c '^SuccessExitStatus=' "$unit"
	assert_output 0
	run grep -c " $EXTRA/mnt " /proc/mounts
	assert_output 0
}

@test "mount.fuse.cufs, as mount(8) runs it: SOURCE MOUNTPOINT -o with machine= and rundir=, and mount's own options dropped" {
	command -v mount.fuse3 >/dev/null || [ -x /sbin/mount.fuse3 ] || skip "no mount.fuse3 (fuse3)"
	helper=$EXTRA/mount.fuse.cufs
	edit_service "$SRC/service/mount.fuse.cufs.in" "$helper"
	chmod +x "$helper"
	mkdir -p "$EXTRA/mnt"
	run timeout 20 env -i "$helper" cufs "$EXTRA/mnt" \
		-o "rw,machine=$CUEMU_MACHINE,rundir=$CUEMU_RUNDIR,nofail,_netdev,noauto,x-systemd.automount"
	assert_success
	wait_for test -d "$EXTRA/mnt/devices"
	run grep " $EXTRA/mnt " /proc/mounts
	assert_output --regexp "^cufs $EXTRA/mnt fuse\\.cufs "
	[ "$(machine_of "$EXTRA/mnt")" = "$CUEMU_MACHINE" ]
	[ -d "$EXTRA/mnt/processes/$A_pid" ]
	run timeout 20 fusermount3 -u "$EXTRA/mnt"
	assert_success
	run "$helper" --help
	assert_failure 1
	assert_output --partial "usage: mount.fuse.cufs"
}

@test "mount -t fuse.cufs and an fstab line mount cufs through the helper where mount(8) looks for it" {
	[ "$(id -u)" = 0 ] || skip "needs root (a private mount namespace)"
	command -v unshare >/dev/null || skip "no unshare"
	helper_dir=$EXTRA/helpers
	mkdir -p "$helper_dir" "$EXTRA/mnt"
	edit_service "$SRC/service/mount.fuse.cufs.in" "$helper_dir/mount.fuse.cufs"
	chmod +x "$helper_dir/mount.fuse.cufs"
	sbin=$(readlink -f /sbin)
	printf 'cufs %s fuse.cufs machine=%s,rundir=%s,nofail 0 0\n' \
		"$EXTRA/mnt" "$CUEMU_MACHINE" "$CUEMU_RUNDIR" >"$EXTRA/fstab"
	# In a private mount namespace, the helper is laid over /sbin; it and
	# everything mounted here go when the namespace does.
	# From a directory with no "cufs" in it: mount(8) takes a source that
	# names an existing path for that path.
	run timeout 60 unshare -m --propagation private bash -c '
		set -e
		cd "$8"
		mount -t overlay overlay -o "lowerdir=$1:$2" "$2" || exit 77
		mount -t fuse.cufs cufs "$3" -o "machine=$4,rundir=$5"
		test -d "$3/processes/$6"
		grep " $3 " /proc/mounts
		umount "$3"
		mount --fstab "$7" "$3"
		test -d "$3/processes/$6"
		grep " $3 " /proc/mounts
		umount "$3"
		echo done' _ "$helper_dir" "$sbin" "$EXTRA/mnt" "$CUEMU_MACHINE" \
		"$CUEMU_RUNDIR" "$A_pid" "$EXTRA/fstab" "$EXTRA"
	[ "$status" != 77 ] || skip "no overlay mounts here"
	assert_success
	assert_line --regexp "^cufs $EXTRA/mnt fuse\\.cufs "
	assert_line done
	[ "$(echo "$output" | grep -c " $EXTRA/mnt fuse.cufs ")" = 2 ]
}

# ---------------------------------------------------------------- the residency map

# pane: the tmux pane's text now.
pane() {
	tmux -L "$TMUX_SOCK" capture-pane -p -t map
}

pane_has() { # extended regexp
	pane | grep -Eq -- "$1"
}

@test "cufs-watch --map in a terminal: a bar per device, the allocation lettered by where it lives, live, and sized to the terminal" {
	command -v tmux >/dev/null || skip "no tmux"
	wl_cmd A "prefetch gpu3"
	tmux -L "$TMUX_SOCK" new-session -d -s map -x 100 -y 30 \
		"$SCRIPTS/cufs-watch -m $MNT --map -i 0.2 -p $A_pid"
	# A detached session may start at the default 80x24 whatever -x says.
	tmux -L "$TMUX_SOCK" resize-window -t map -x 100 -y 30
	# Devices, each with a bar, and the allocation all on gpu3, its bar
	# as wide as the pane's 100 columns allow: 100 - 39 = 61 cells.
	wait_for pane_has "^ +$A_managed activations +8\\.0MiB \\|3{61}\\|\$" ||
		fail "no bar of 61 cells: $(pane)"
	run pane
	assert_line --regexp '^ +gpu0 of 141\.0GiB +[0-9.]+[KMG]?i?B \|0*\.+\| +[0-9]+%$'
	assert_line --regexp '^ +gpu3 of 141\.0GiB +[0-9.]+[KMG]?i?B \|3+\.+\| +[0-9]+%$'
	# the title, cut at the pane's 100 columns when the mount lies deep
	title="cufs-watch --map  $MNT  00:00:00"
	if [ "${#title}" -le 100 ]; then
		assert_line --index 0 --regexp "^cufs-watch --map  $MNT  [0-9:]{8}\$"
	else
		assert_line --index 0 "${title:0:100}"
	fi
	# Live: a prefetch to the host shows without restarting the tool.
	wl_cmd A "prefetch cpu"
	wait_for pane_has "^ +$A_managed activations +8\\.0MiB \\|c{61}\\|\$" ||
		fail "the map did not follow the prefetch: $(pane)"
	# Sized to the terminal: 70 columns, 31 cells.
	tmux -L "$TMUX_SOCK" resize-window -t map -x 70
	wait_for pane_has "^ +$A_managed activations +8\\.0MiB \\|c{31}\\|\$" ||
		fail "the map did not follow the terminal's width: $(pane)"
}

@test "cufs-watch --map marks read-mostly and remote-mapped parts, and a part on another GPU, cell by cell" {
	base=$(cat "$MNT/allocations/$A_managed/base")
	b=$((base))
	r1=$(printf '0x%x-0x%x' "$b" $((b + 0x200000)))
	r2=$(printf '0x%x-0x%x' $((b + 0x200000)) $((b + 0x400000)))
	r4=$(printf '0x%x-0x%x' $((b + 0x600000)) $((b + 0x800000)))
	echo cpu >"$MNT/allocations/$A_managed/prefetch"
	echo set_read_mostly >"$MNT/allocations/$A_managed/ranges/$r1/advise"
	echo gpu1 >"$MNT/allocations/$A_managed/ranges/$r2/prefetch"
	echo +gpu2 >"$MNT/allocations/$A_managed/ranges/$r4/accessed_by"
	run "$SCRIPTS/cufs-watch" -m "$MNT" --map -1 -w 79 -p "$A_pid"
	assert_success
	# 40 cells for 8 MiB: 10 a range of 2 MiB.
	assert_line --regexp "^ +$A_managed activations +8\\.0MiB \\|c{10}1{10}c{20}\\|\$"
	assert_line --regexp "^ {32}\\|r{10} {20}m{10}\\|\$"
	assert_line --partial "r read-mostly"
	# Without a terminal there is no colour unless asked for.
	refute_output --partial $'\033['
	run "$SCRIPTS/cufs-watch" -m "$MNT" --map -1 -w 79 -p "$A_pid" --color
	assert_output --partial $'\033[44;30m1111111111'
}

@test "cufs-watch --map counts what does not fit the terminal" {
	# Nine rows: three of headings, four devices, the allocations' heading,
	# and one left, for the count.
	run "$SCRIPTS/cufs-watch" -m "$MNT" --map -1 -w 80 -H 9 -p "$A_pid"
	assert_success
	[ "${#lines[@]}" = 9 ]
	assert_line --index 8 "(1 more managed allocation not shown: a larger terminal, or -p PID)"
	run "$SCRIPTS/cufs-watch" -m "$MNT" --map -1 -w 80 -H 12 -p "$A_pid"
	assert_line --regexp "^ +$A_managed activations "
	refute_output --partial "not shown"
}

# ---------------------------------------------------------------- events

LOG='4242 1795392227.100 migrate alloc=3 cpu->gpu1 bytes=8388608 (prefetch)
4242 1795392227.100 migrate alloc=3 gpu1->gpu2 bytes=8388608 (prefetch)
4242 1795392227.200 fault alloc=3 gpu2 read [0x7f0fb8400000,0x7f0fb8410000) faults=1
4242 1795392228.100 evict alloc=3 gpu2 [0x7f0fb8400000,0x7f0fb8600000) bytes=2097152
5151 1795392228.500 thrash alloc=9 [0x7f0fb8400000,0x7f0fb8600000) pinned to cpu
# cufs: 7 events were dropped here
4242 1795392228.550 dropped lines=5 in=process
cufs 1795392228.560 dropped lines=2 in=log
5151 1795392228.600 migrate alloc=9 gpu0->cpu bytes=65536 (fault)'

@test "cufs-events: migrations, evictions and thrashing with human sizes and each allocation's rate" {
	run "$SCRIPTS/cufs-events" -f - <<<"$LOG"
	assert_success
	assert_line --regexp '^TIME +PID +ALLOC +EVENT +WHERE +SIZE +RATE +DETAIL$'
	assert_line --regexp '^[0-9:]{8}\.100 +4242 +3 +migrate +cpu->gpu1 +8\.0MiB +8\.0MiB/s +prefetch$'
	# Two migrations in the same instant: the rate is both.
	assert_line --regexp '^[0-9:]{8}\.100 +4242 +3 +migrate +gpu1->gpu2 +8\.0MiB +16\.0MiB/s +prefetch$'
	assert_line --regexp '^[0-9:]{8}\.100 +4242 +3 +evict +gpu2->cpu +2\.0MiB +2\.0MiB/s +\[0x7f0fb8400000,0x7f0fb8600000\)$'
	assert_line --regexp '^[0-9:]{8}\.500 +5151 +9 +thrash +pin->cpu +2\.0MiB +1\.0/s +\[0x7f0fb8400000,0x7f0fb8600000\)$'
	assert_line --regexp '^[0-9:]{8}\.600 +5151 +9 +migrate +gpu0->cpu +64\.0KiB +64\.0KiB/s +fault$'
	# A note from cufs is passed on as it is; faults are not asked for.
	assert_line '# cufs: 7 events were dropped here'
	refute_output --partial ' fault '
	# cufs's notes of lines dropped are no event a type filters out
	assert_line '4242 1795392228.550 dropped lines=5 in=process'
	assert_line 'cufs 1795392228.560 dropped lines=2 in=log'
}

@test "cufs-events: filters by pid, allocation and type, and sums up per allocation" {
	run "$SCRIPTS/cufs-events" -f - -p 5151 <<<"$LOG"
	refute_output --regexp ' 4242 '
	refute_output --partial '4242 1795392228.550 dropped'
	assert_output --regexp ' 5151 +9 +thrash '
	assert_line 'cufs 1795392228.560 dropped lines=2 in=log'
	run "$SCRIPTS/cufs-events" -f - -a 3 -t evict <<<"$LOG"
	assert_output --regexp ' 4242 +3 +evict '
	refute_output --regexp ' migrate '
	run "$SCRIPTS/cufs-events" -f - -t fault <<<"$LOG"
	assert_output --regexp ' 4242 +3 +fault +.*gpu2 read'
	run "$SCRIPTS/cufs-events" -f - -n 1 <<<"$LOG"
	[ "$(echo "$output" | grep -c migrate)" = 1 ]
	run "$SCRIPTS/cufs-events" -f - --summary <<<"$LOG"
	assert_line --regexp '^ALLOC +PID +MIGRATIONS +MIGRATED +EVICTIONS +EVICTED +THRASH +PINNED$'
	assert_line --regexp '^3 +4242 +2 +16\.0MiB +1 +2\.0MiB +0 +0B$'
	assert_line --regexp '^9 +5151 +1 +64\.0KiB +0 +0B +1 +2\.0MiB$'
	# and says what it misses
	assert_line "7 event lines were dropped before they were read: the counts above miss what they said"
}

@test "cufs-events ends on SIGTERM while no event comes, and the mount can go" {
	("$SCRIPTS/cufs-events" -m "$MNT" -a 999999 >/dev/null 2>&1 3>&- &
	 echo $! >"$EXTRA/quiet.pid")
	pid=$(cat "$EXTRA/quiet.pid")
	# until its reader has the stream open
	wait_for bash -c "ls -l /proc/$pid/task/*/fd /proc/\$(pgrep -P $pid | head -1)/fd 2>/dev/null | grep -q events_pipe"
	kill -TERM "$pid"
	wait_for bash -c "! kill -0 $pid" || fail "cufs-events still runs 10 s after SIGTERM"
	# and nothing of it holds the stream open
	run bash -c "ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c '$MNT/events_pipe'"
	assert_output 0
}

@test "cufs-events follows the mount: a prefetch written to /cu shows as a migration of that allocation" {
	out=$EXTRA/events.out
	("$SCRIPTS/cufs-events" -m "$MNT" -a "$A_managed" -n 1 >"$out" 2>&1 3>&- &
	 echo $! >"$EXTRA/events.pid")
	# The stream shows what happens after it is opened: prefetch until the
	# follower has seen one, for at most 10 s.
	for i in $(seq 50); do
		echo "gpu$((i % 2 + 1))" >"$MNT/allocations/$A_managed/prefetch"
		grep -q ' migrate ' "$out" && break
		sleep 0.2
	done
	wait_for bash -c "! kill -0 $(cat "$EXTRA/events.pid")"
	run cat "$out"
	assert_line --regexp "^[0-9:.]+ +$A_pid +$A_managed +migrate +[a-z0-9]+->gpu[12] +[0-9.]+[KMG]iB +[0-9.]+[KMG]iB/s +prefetch\$"
}

# ---------------------------------------------------------------- the exporter

@test "cufs-prometheus: promtool check metrics accepts the textfile; counters end in _total, sizes in _bytes" {
	command -v promtool >/dev/null || skip "no promtool (prometheus)"
	"$SCRIPTS/cufs-prometheus" -m "$MNT" -o "$EXTRA/cufs.prom"
	run promtool check metrics <"$EXTRA/cufs.prom"
	assert_success
	assert_output ""
	run awk '$1 == "#" && $2 == "TYPE" && $4 == "counter" && $3 !~ /_total$/' "$EXTRA/cufs.prom"
	assert_output ""
	run awk '$1 == "#" && $2 == "TYPE" && $3 ~ /bytes/ && $3 !~ /_bytes(_total)?$/' "$EXTRA/cufs.prom"
	assert_output ""
	# A label with a quote and a backslash is escaped, not broken.
	printf 'a"b\\c\n' >"$MNT/allocations/$A_device/label"
	run "$SCRIPTS/cufs-prometheus" -m "$MNT"
	assert_line --partial "{id=\"$A_device\",pid=\"$A_pid\",kind=\"device\",label=\"a\\\"b\\\\c\",device=\"gpu0\"} 4194304"
	"$SCRIPTS/cufs-prometheus" -m "$MNT" | promtool check metrics
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

scrape() { # port
	curl -sf --max-time 5 "http://127.0.0.1:$1/metrics"
}

@test "node_exporter serves the textfile and a scrape on 127.0.0.1 reads the metrics back" {
	command -v prometheus-node-exporter >/dev/null || skip "no prometheus-node-exporter"
	command -v curl >/dev/null || skip "no curl"
	command -v python3 >/dev/null || skip "no python3 for a free port"
	mkdir -p "$EXTRA/textfile"
	wl_cmd A "prefetch gpu2"
	"$SCRIPTS/cufs-prometheus" -m "$MNT" -o "$EXTRA/textfile/cufs.prom"
	port=$(free_port)
	(exec prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$EXTRA/textfile" >"$EXTRA/node.log" 2>&1 3>&- &
	 echo $! >"$EXTRA/node.pid")
	wait_for scrape "$port" || { cat "$EXTRA/node.log" >&2; false; }
	run scrape "$port"
	assert_success
	assert_line 'node_textfile_scrape_error 0'
	# node_exporter writes numbers its own way (1.51397597184e+11): compare values.
	val() { # series prefix
		echo "$output" | awk -v s="$1" 'index($0, s) == 1 { printf("%.0f\n", $NF) }'
	}
	[ "$(val 'cufs_device_memory_total_bytes{device="gpu0"}')" = 151397597184 ]
	[ "$(val "cufs_allocation_resident_bytes{id=\"$A_managed\",kind=\"managed\",label=\"activations\",location=\"gpu2\",pid=\"$A_pid\"}")" = 8388608 ]
	[ "$(val "cufs_allocation_size_bytes{device=\"gpu0\",id=\"$A_device\"")" = 4194304 ]
	assert_line --regexp '^# TYPE cufs_device_migrated_bytes_total counter$'
}

@test "the Grafana dashboard is valid JSON and plots device use, residency per allocation and migration rates from the exporter's metrics" {
	dash=$SRC/grafana/cufs-dashboard.json
	json_valid "$dash"
	run jq -r '.panels[].title' "$dash"
	assert_line --partial "Device memory"
	assert_line "Residency per allocation"
	assert_line --regexp '^Migration rate'
	"$SCRIPTS/cufs-prometheus" -m "$MNT" -o "$EXTRA/cufs.prom"
	for m in $(jq -r '[.panels[].targets[].expr | scan("cufs_[a-z_]+")] | unique[]' "$dash"); do
		grep -q "^# TYPE $m " "$EXTRA/cufs.prom" || fail "the dashboard plots $m, which cufs-prometheus does not write"
	done
	run grep -c 'How to load the dashboard\|cufs-dashboard.json' "$SRC/README.md"
	refute_output 0
}
