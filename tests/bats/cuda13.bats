#!/usr/bin/env bats
# cuda13.bats - what CUDA 12.8/13 calls leave in /cu, read through the
# mount: a managed allocation's stream attachment (cuStreamAttachMemAsync)
# and the residency of a managed pool's block after a batch prefetch.

load helpers

workload_lifecycle

@test "attach: /cu shows a managed allocation's attachment and stream" {
	M=$MNT/allocations/$A_managed
	run cat "$M/attach"
	assert_output global
	run cat "$M/attach_stream"
	assert_output none
	wl_cmd A "attach single"
	run cat "$M/attach"
	assert_output single
	run cat "$M/attach_stream"
	assert_success
	assert_output --regexp '^[0-9]+$'
	wl_cmd A "attach host"
	run cat "$M/attach"
	assert_output host
	run cat "$M/attach_stream"
	assert_output none
}

@test "managed pool: a block is managed memory whose residency /cu shows" {
	wl_cmd A mpool
	id=$(wl_attr A mpool_block)
	[[ $id =~ ^[0-9]+$ ]] || fail "no managed pool block: $id"
	B=$MNT/allocations/$id
	run cat "$B/kind"
	assert_output managed
	pool=$(cat "$B/pool")
	run cat "$MNT/pools/$pool/alloc_type"
	assert_output managed
	run cat "$MNT/pools/$pool/allocations"
	assert_output "$id"
	run cat "$B/residency"
	refute_output --partial "gpu0 4194304"
	wl_cmd A "mpool_prefetch gpu0"
	run cat "$B/residency"
	assert_line "gpu0 4194304"
	run cat "$B/last_prefetch_location"
	assert_output gpu0
	wl_cmd A "mpool_prefetch cpu"
	run cat "$B/residency"
	assert_line "cpu 4194304"
	refute_line "gpu0 4194304"
	# a write to /cu prefetches it through the API, as for any managed memory
	echo gpu1 >"$B/prefetch"
	run cat "$B/residency"
	assert_line "gpu1 4194304"
	run cat "$B/last_prefetch_location"
	assert_output gpu1
}
