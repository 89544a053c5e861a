# lib.sh - what the bench scripts (fsbench.sh, tools.sh) share: the clock
# and a bounded wait. Sourced, not run.

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# wait_for SECONDS COMMAND...: polls until the command succeeds.
wait_for() {
	t=$1
	shift
	end=$(($(now_ms) + t * 1000))
	until "$@" 2>/dev/null; do
		[ "$(now_ms)" -lt "$end" ] || return 1
		sleep 0.05
	done
}
