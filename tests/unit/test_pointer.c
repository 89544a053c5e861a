/*
 * test_pointer.c - pointer attributes: every CU_POINTER_ATTRIBUTE_* for
 * device, pinned, registered, managed, pool and VMM memory, at the base and
 * at an interior pointer; the width each answer is written with; buffer ids
 * unique and never reused; defaults for unknown pointers from
 * cuPointerGetAttributes and errors from cuPointerGetAttribute;
 * cuPointerSetAttribute; cudaPointerGetAttributes.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "tap.h"

#define MIB (1ULL << 20)
#define SENT 0xa5a5a5a5a5a5a5a5ULL

static CUcontext ctx0, ctx1;

/* The attribute as a u64, with the sentinel showing the unwritten bytes. */
static uint64_t get(CUpointer_attribute a, CUdeviceptr p, CUresult *r)
{
	uint64_t v[2] = { SENT, SENT };

	*r = cuPointerGetAttribute(v, a, p);
	return v[0];
}

static uint64_t must(CUpointer_attribute a, CUdeviceptr p)
{
	CUresult r;
	uint64_t v = get(a, p, &r);

	return r == CUDA_SUCCESS ? v : SENT;
}

/* Bytes written: the value with the untouched sentinel bytes masked. */
static uint64_t low(uint64_t v, unsigned bytes)
{
	return bytes == 8 ? v : v & ((1ULL << (8 * bytes)) - 1);
}

static void test_device(void)
{
	CUdeviceptr d, in;
	CUresult r;
	uint64_t v;

	cuMemAlloc(&d, 2 * MIB);
	in = d + 4096;
	is_int(low(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, in), 4),
	       CU_MEMORYTYPE_DEVICE, "device: MEMORY_TYPE is DEVICE");
	ok(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, in) >> 32 == 0xa5a5a5a5,
	   "MEMORY_TYPE writes 4 bytes");
	is_int(must(CU_POINTER_ATTRIBUTE_CONTEXT, in), (uintptr_t)ctx0,
	       "device: CONTEXT is the allocating context");
	is_int(must(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, in), in,
	       "device: DEVICE_POINTER is the pointer");
	get(CU_POINTER_ATTRIBUTE_HOST_POINTER, in, &r);
	is_res(r, CUDA_ERROR_INVALID_VALUE,
	       "device: HOST_POINTER is INVALID_VALUE");
	v = must(CU_POINTER_ATTRIBUTE_IS_MANAGED, in);
	is_int(low(v, 4), 0, "device: IS_MANAGED is 0");
	ok(v >> 32 == 0xa5a5a5a5, "a boolean is written as 4 bytes");
	v = get(CU_POINTER_ATTRIBUTE_HOST_POINTER, in, &r);
	is_int(v, 0, "device: HOST_POINTER writes NULL with its error");
	is_int(low(must(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, in), 4), 0,
	       "device: DEVICE_ORDINAL is 0");
	is_int(low(must(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, in), 1),
	       1, "device: IS_LEGACY_CUDA_IPC_CAPABLE");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, in), d,
	       "device: RANGE_START_ADDR of an interior pointer is the base");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_SIZE, in), 2 * MIB,
	       "device: RANGE_SIZE is the allocation's size");
	is_int(low(must(CU_POINTER_ATTRIBUTE_MAPPED, in), 1), 1,
	       "device: MAPPED");
	is_int(must(CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, in), 0,
	       "device: ALLOWED_HANDLE_TYPES is none");
	is_int(low(must(CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE, in), 1),
	       1, "device: IS_GPU_DIRECT_RDMA_CAPABLE");
	is_int(low(must(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, in), 4),
	       CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE,
	       "device: ACCESS_FLAGS is READWRITE from its own device");
	is_int(must(CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, in), 0,
	       "device: MEMPOOL_HANDLE is NULL");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, in), d,
	       "device: MAPPING_BASE_ADDR is the base");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, in), 2 * MIB,
	       "device: MAPPING_SIZE is the size");
	ok(must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, in) ==
	   must(CU_POINTER_ATTRIBUTE_BUFFER_ID, in),
	   "device: MEMORY_BLOCK_ID is the allocation's id");
	is_int(low(must(CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE, in), 4),
	       1, "device: IS_HW_DECOMPRESS_CAPABLE, as the real H200 says");
	is_int(low(must(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, in), 4), 0,
	       "device: SYNC_MEMOPS starts unset");
	{
		CUDA_POINTER_ATTRIBUTE_P2P_TOKENS t;

		memset(&t, 0xa5, sizeof t);
		is_res(cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_P2P_TOKENS,
					     in), CUDA_SUCCESS,
		       "device: P2P_TOKENS");
		ok(t.p2pToken == 0 && t.vaSpaceToken == 0xfe00,
		   "device: the tokens the real driver gives");
	}
	is_int(low(must(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, in), 4), 1,
	       "device: asking for P2P tokens sets SYNC_MEMOPS");

	cuCtxSetCurrent(ctx1);
	is_int(low(must(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, in), 4),
	       CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE,
	       "device: ACCESS_FLAGS reads READWRITE from another device too");
	is_int(must(CU_POINTER_ATTRIBUTE_CONTEXT, in), (uintptr_t)ctx0,
	       "device: CONTEXT is the same from another device");
	get(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, in, &r);
	is_res(r, CUDA_ERROR_INVALID_VALUE, "device: DEVICE_POINTER from a "
	       "device without peer access is INVALID_VALUE");
	cuCtxSetCurrent(NULL);
	is_int(must(CU_POINTER_ATTRIBUTE_CONTEXT, in), (uintptr_t)ctx0,
	       "device: CONTEXT answers with no current context");
	get(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, in, &r);
	is_res(r, CUDA_ERROR_INVALID_CONTEXT,
	       "device: DEVICE_POINTER with no context is INVALID_CONTEXT");
	cuCtxSetCurrent(ctx0);
	cuMemFree(d);
}

static void test_host(void)
{
	char *h, *buf = aligned_alloc(4096, 8 * 4096);
	CUdeviceptr p, in;

	cuMemHostAlloc((void **)&h, 64 * 1024, CU_MEMHOSTALLOC_PORTABLE);
	p = (CUdeviceptr)h;
	in = p + 4096;
	is_int(low(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, in), 4),
	       CU_MEMORYTYPE_HOST, "pinned: MEMORY_TYPE is HOST");
	is_int(must(CU_POINTER_ATTRIBUTE_HOST_POINTER, in), in,
	       "pinned: HOST_POINTER is the pointer");
	is_int(must(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, in), in,
	       "pinned: DEVICE_POINTER is the pointer");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, in), p,
	       "pinned: RANGE_START_ADDR");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_SIZE, in), 64 * 1024,
	       "pinned: RANGE_SIZE");
	is_int(low(must(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, in), 1),
	       0, "pinned: not IPC capable");
	is_int(low(must(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, in), 4),
	       CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE,
	       "pinned: ACCESS_FLAGS is READWRITE");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, in), 2 * MIB,
	       "pinned: MAPPING_SIZE is a 2 MiB page");
	{
		CUDA_POINTER_ATTRIBUTE_P2P_TOKENS t;

		is_res(cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_P2P_TOKENS,
					     in), CUDA_ERROR_INVALID_VALUE,
		       "pinned: P2P_TOKENS is INVALID_VALUE");
	}
	cuMemFreeHost(h);

	cuMemHostRegister(buf, 8 * 4096, CU_MEMHOSTREGISTER_READ_ONLY);
	p = (CUdeviceptr)buf;
	is_int(low(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 100), 4),
	       CU_MEMORYTYPE_HOST, "registered: MEMORY_TYPE is HOST");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_SIZE, p + 100), 8 * 4096,
	       "registered: RANGE_SIZE");
	is_int(low(must(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, p), 4),
	       CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ,
	       "registered read-only: ACCESS_FLAGS is READ");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, p + 100), 8 * 4096,
	       "registered: MAPPING_SIZE is the registration");
	cuMemHostUnregister(buf);
	free(buf);
}

static void test_managed(void)
{
	CUdeviceptr m;

	if (cuMemAllocManaged(&m, 2 * MIB, CU_MEM_ATTACH_GLOBAL)) {
		ok(0, "cuMemAllocManaged");
		return;
	}
	is_int(low(must(CU_POINTER_ATTRIBUTE_IS_MANAGED, m + 8192), 1), 1,
	       "managed: IS_MANAGED");
	is_int(low(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, m + 8192), 4),
	       CU_MEMORYTYPE_DEVICE, "managed: MEMORY_TYPE is DEVICE");
	is_int(must(CU_POINTER_ATTRIBUTE_HOST_POINTER, m + 8192), m + 8192,
	       "managed: HOST_POINTER is the pointer");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, m + 8192), m,
	       "managed: RANGE_START_ADDR");
	is_int(must(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m + 8192), 0xa5a5a5a500000001ULL,
	       "managed: SYNC_MEMOPS starts set, 4 bytes written");
	{
		unsigned zero = 0;

		is_res(cuPointerSetAttribute(&zero,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m + 4096),
		       CUDA_SUCCESS, "managed: SYNC_MEMOPS can be cleared");
		is_int(low(must(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m), 4), 0,
		       "managed: cleared through an interior pointer, the "
		       "whole allocation reads 0");
	}
	cuMemFree(m);
	if (cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_HOST)) {
		ok(0, "cuMemAllocManaged(ATTACH_HOST)");
		return;
	}
	is_int(low(must(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, m), 4), 1,
	       "managed, host-attached: SYNC_MEMOPS starts set");
	cuMemFree(m);
}

static void test_pool(void)
{
	CUmemoryPool def = NULL;
	CUdeviceptr p;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuDeviceGetDefaultMemPool(&def, 0);
	if (cuMemAllocAsync(&p, MIB, s)) {
		ok(0, "cuMemAllocAsync");
		return;
	}
	cuStreamSynchronize(s);
	is_int(must(CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p + 64), (uintptr_t)def,
	       "pool: MEMPOOL_HANDLE is the default pool");
	is_int(low(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p), 4),
	       CU_MEMORYTYPE_DEVICE, "pool: MEMORY_TYPE is DEVICE");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, p + 64), p,
	       "pool: RANGE_START_ADDR is the block");
	cuMemFreeAsync(p, s);
	cuStreamSynchronize(s);
	if (cuMemAllocAsync(&p, MIB, s) == CUDA_SUCCESS) {
		cuStreamSynchronize(s);
		is_res(cuMemFree(p), CUDA_SUCCESS,
		       "cuMemFree frees a pool block at once");
		is_res(cuMemFree(p), CUDA_ERROR_INVALID_VALUE,
		       "and it is gone");
	}
	cuStreamDestroy(s);
}

/* probes/results/ptrsweep.txt: blocks of explicit pools. */
static void test_pool_kinds(void)
{
	CUmemPoolProps pp = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 },
	};
	CUmemAccessDesc rw = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
			       CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	CUmemoryPool fp = NULL, hp = NULL;
	CUdeviceptr f = 0, h = 0;
	CUresult r;
	uint64_t v;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	if (cuMemPoolCreate(&fp, &pp) ||
	    cuMemAllocFromPoolAsync(&f, MIB, fp, s)) {
		ok(0, "an exportable pool's block");
		return;
	}
	pp.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
	pp.location.type = CU_MEM_LOCATION_TYPE_HOST;
	if (cuMemPoolCreate(&hp, &pp) ||
	    cuMemAllocFromPoolAsync(&h, MIB, hp, s)) {
		ok(0, "a host pool's block");
		return;
	}
	cuStreamSynchronize(s);
	is_int(must(CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, f + 8),
	       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
	       "pool: ALLOWED_HANDLE_TYPES are the pool's");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, f + 8), 32 * MIB,
	       "pool: MAPPING_SIZE is the 32 MiB chunk");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, f + 8), f,
	       "pool: MAPPING_BASE_ADDR is the chunk's start");
	v = get(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, h, &r);
	ok(r == CUDA_ERROR_INVALID_VALUE && v == 0,
	   "host pool: no DEVICE_POINTER before the device has access, 0 "
	   "written");
	is_int(low(must(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, h), 4), 0,
	       "host pool: DEVICE_ORDINAL is the allocating device");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, h + 8), 0,
	       "host pool: RANGE_START_ADDR is 0");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_SIZE, h + 8), MIB,
	       "host pool: RANGE_SIZE is the block's");
	cuMemPoolSetAccess(hp, &rw, 1);
	is_int(must(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, h + 8), h + 8,
	       "host pool: a DEVICE_POINTER once the device has access");
	cuMemFreeAsync(f, s);
	cuMemFreeAsync(h, s);
	cuStreamSynchronize(s);
	cuMemPoolDestroy(fp);
	cuMemPoolDestroy(hp);
	cuStreamDestroy(s);
}

static void test_vmm(void)
{
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	CUmemAccessDesc ad = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
			       CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	size_t gran = 2 * MIB;
	CUmemGenericAllocationHandle h;
	CUdeviceptr va;
	CUresult r;

	if (cuMemCreate(&h, gran, &prop, 0) ||
	    cuMemAddressReserve(&va, 2 * gran, 0, 0, 0)) {
		ok(0, "cuMemCreate and cuMemAddressReserve");
		return;
	}
	cuMemMap(va, gran, 0, h, 0);
	cuMemSetAccess(va, gran, &ad, 1);
	is_int(low(must(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + 64), 4),
	       CU_MEMORYTYPE_DEVICE, "vmm: MEMORY_TYPE is DEVICE");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, va + 64), va,
	       "vmm: RANGE_START_ADDR is the reservation");
	is_int(must(CU_POINTER_ATTRIBUTE_RANGE_SIZE, va + 64), 2 * gran,
	       "vmm: RANGE_SIZE is the reservation's size");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, va + 64), va,
	       "vmm: MAPPING_BASE_ADDR is the mapping");
	is_int(must(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, va + 64), gran,
	       "vmm: MAPPING_SIZE is the mapping's size");
	is_int(low(must(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, va), 4),
	       CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE,
	       "vmm: ACCESS_FLAGS from cuMemSetAccess");
	ok(must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va) != SENT,
	   "vmm: MEMORY_BLOCK_ID answers");
	ok(must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va) != 0,
	   "vmm: MEMORY_BLOCK_ID names a block (not 0)");
	is_int(must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va + gran - 1),
	       must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va),
	       "vmm: MEMORY_BLOCK_ID is the same block at the mapping's end");
	get(CU_POINTER_ATTRIBUTE_MAPPED, va + gran, &r);
	is_res(r, CUDA_ERROR_INVALID_VALUE,
	       "vmm: MAPPED of an unmapped reserved address is INVALID_VALUE");
	is_int(must(CU_POINTER_ATTRIBUTE_CONTEXT, va), 0,
	       "vmm: CONTEXT is NULL");
	{
		unsigned one = 1;

		is_res(cuPointerSetAttribute(&one,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, va),
		       CUDA_ERROR_NOT_SUPPORTED,
		       "vmm: setting SYNC_MEMOPS is NOT_SUPPORTED");
	}
	get(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + gran, &r);
	is_res(r, CUDA_ERROR_INVALID_VALUE,
	       "vmm: MEMORY_TYPE of an unmapped address is INVALID_VALUE");
	cuMemUnmap(va, gran);
	cuMemAddressFree(va, 2 * gran);
	cuMemRelease(h);
}

static void test_ids(void)
{
	CUdeviceptr a, b, c;
	uint64_t ia, ib, ic;

	cuMemAlloc(&a, MIB);
	cuMemAlloc(&b, MIB);
	ia = must(CU_POINTER_ATTRIBUTE_BUFFER_ID, a);
	ib = must(CU_POINTER_ATTRIBUTE_BUFFER_ID, b + 100);
	ok(ia != ib && ia && ib, "two allocations have two buffer ids");
	cuMemFree(b);
	cuMemAlloc(&c, MIB);
	ic = must(CU_POINTER_ATTRIBUTE_BUFFER_ID, c);
	ok(ic != ib && ic != ia, "a new allocation never reuses an id%s",
	   c == b ? " (at the same address)" : "");
	cuMemFree(a);
	cuMemFree(c);
}

/* Each cuMemMap is a buffer of its own; the block is the handle
 * (probes/results/edges.txt, ids). */
static void test_vmm_ids(void)
{
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
	};
	CUmemAccessDesc ad = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
			       CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	const size_t g = 2 * MIB;
	CUmemGenericAllocationHandle h1 = 0, h2 = 0;
	CUdeviceptr va = 0;
	uint64_t b1, b2, b3;

	if (cuMemCreate(&h1, g, &prop, 0) || cuMemCreate(&h2, g, &prop, 0) ||
	    cuMemAddressReserve(&va, 4 * g, 0, 0, 0) ||
	    cuMemMap(va, g, 0, h1, 0) || cuMemMap(va + g, g, 0, h2, 0) ||
	    cuMemSetAccess(va, 2 * g, &ad, 1)) {
		ok(0, "two handles mapped into one reservation");
		goto out;
	}
	b1 = must(CU_POINTER_ATTRIBUTE_BUFFER_ID, va);
	b2 = must(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + g);
	ok(b1 && b2 && b1 != SENT && b2 != SENT && b1 != b2,
	   "vmm: two handles in one reservation are two buffers");
	is_int(must(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + g + 4096), b2,
	       "vmm: a mapping's interior is the mapping's buffer");
	ok(must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va) !=
	   must(CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, va + g),
	   "vmm: two handles are two blocks");
	cuMemUnmap(va + g, g);
	cuMemMap(va + g, g, 0, h2, 0);
	cuMemSetAccess(va + g, g, &ad, 1);
	b3 = must(CU_POINTER_ATTRIBUTE_BUFFER_ID, va + g);
	ok(b3 != b2 && b3 != b1,
	   "vmm: mapped again at the same place, a new buffer");
	cuMemUnmap(va, 2 * g);
out:
	if (va)
		cuMemAddressFree(va, 4 * g);
	if (h1)
		cuMemRelease(h1);
	if (h2)
		cuMemRelease(h2);
}

/* VMM memory on the host has a host pointer once the host was given
 * access (probes/results/edges.txt, hostvmm). */
static void test_vmm_host(void)
{
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_HOST, 0 },
	};
	CUmemAccessDesc dev = { { CU_MEM_LOCATION_TYPE_DEVICE, 0 },
				CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	CUmemAccessDesc host = { { CU_MEM_LOCATION_TYPE_HOST, 0 },
				 CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
	const size_t g = 2 * MIB;
	CUmemGenericAllocationHandle h = 0;
	CUdeviceptr va = 0;
	CUresult r;
	uint64_t v;

	if (cuMemCreate(&h, g, &prop, 0) ||
	    cuMemAddressReserve(&va, g, 0, 0, 0) || cuMemMap(va, g, 0, h, 0) ||
	    cuMemSetAccess(va, g, &dev, 1)) {
		ok(0, "a host handle mapped");
		goto out;
	}
	v = get(CU_POINTER_ATTRIBUTE_HOST_POINTER, va + 64, &r);
	ok(r == CUDA_ERROR_INVALID_VALUE && v == 0,
	   "vmm on the host, device access only: HOST_POINTER is "
	   "INVALID_VALUE and writes 0");
	is_res(cuMemSetAccess(va, g, &host, 1), CUDA_SUCCESS,
	       "vmm on the host: the host given access");
	is_int(must(CU_POINTER_ATTRIBUTE_HOST_POINTER, va + 64), va + 64,
	       "vmm on the host, host access: HOST_POINTER is the pointer");
	cuMemUnmap(va, g);
out:
	if (va)
		cuMemAddressFree(va, g);
	if (h)
		cuMemRelease(h);
}

static void test_unknown(void)
{
	char stack[64];
	CUdeviceptr p = (CUdeviceptr)(uintptr_t)stack;
	CUpointer_attribute at[20];
	uint64_t store[20][4];
	void *data[20];
	struct cudaPointerAttributes pa;
	int bad = 0, i;
	CUresult r;

	for (i = 1; i <= 21; i++) {
		if (i == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
			continue;
		get((CUpointer_attribute)i, p, &r);
		if (r != CUDA_ERROR_INVALID_VALUE)
			bad++;
	}
	is_int(bad, 0, "cuPointerGetAttribute of an unknown pointer is "
	       "INVALID_VALUE for every attribute");
	/* every attribute but P2P_TOKENS, which this call refuses */
	for (i = 0; i < 20; i++) {
		at[i] = (CUpointer_attribute)(i < 4 ? i + 1 : i + 2);
		memset(store[i], 0xa5, sizeof store[i]);
		data[i] = store[i];
	}
	is_res(cuPointerGetAttributes(20, at, data, p), CUDA_SUCCESS,
	       "cuPointerGetAttributes of an unknown pointer is SUCCESS");
	is_int(store[0][0], 0, "unknown: CONTEXT is NULL");
	is_int(low(store[1][0], 4), 0, "unknown: MEMORY_TYPE is 0");
	ok(store[1][0] >> 32 == 0xa5a5a5a5, "in 4 bytes");
	is_int(store[2][0], 0, "unknown: DEVICE_POINTER is NULL");
	is_int(store[3][0], p, "unknown: HOST_POINTER is the pointer");
	is_int(store[CU_POINTER_ATTRIBUTE_BUFFER_ID - 2][0], 0,
	       "unknown: BUFFER_ID is 0");
	is_int((int32_t)low(store[CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL - 2][0], 4),
	       -2, "unknown: DEVICE_ORDINAL is -2");
	is_int(store[CU_POINTER_ATTRIBUTE_RANGE_START_ADDR - 2][0], SENT,
	       "unknown: RANGE_START_ADDR is left unwritten");
	is_int(store[CU_POINTER_ATTRIBUTE_MAPPING_SIZE - 2][0], 0,
	       "unknown: MAPPING_SIZE is 0");
	at[3] = CU_POINTER_ATTRIBUTE_P2P_TOKENS;
	memset(store[0], 0xa5, sizeof store[0]);
	is_res(cuPointerGetAttributes(20, at, data, p), CUDA_ERROR_INVALID_VALUE,
	       "cuPointerGetAttributes refuses P2P_TOKENS");
	is_int(store[0][0], 0, "after answering the attributes before it");
	data[1] = NULL;
	memset(store[0], 0xa5, sizeof store[0]);
	is_res(cuPointerGetAttributes(2, at, data, p), CUDA_ERROR_INVALID_VALUE,
	       "a NULL data slot is INVALID_VALUE");
	is_int(store[0][0], SENT, "and nothing is written");
	data[1] = store[1];
	is_res(cuPointerGetAttributes(0, at, data, p), CUDA_ERROR_INVALID_VALUE,
	       "cuPointerGetAttributes of no attributes is INVALID_VALUE");
	at[0] = (CUpointer_attribute)999;
	is_res(cuPointerGetAttributes(2, at, data, p), CUDA_ERROR_INVALID_VALUE,
	       "an unknown attribute is INVALID_VALUE");
	get((CUpointer_attribute)999, p, &r);
	is_res(r, CUDA_ERROR_INVALID_VALUE,
	       "cuPointerGetAttribute of attribute 999 is INVALID_VALUE");
	is_res(cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p),
	       CUDA_ERROR_INVALID_VALUE, "NULL data is INVALID_VALUE");

	ok(cudaPointerGetAttributes(&pa, stack) == cudaSuccess,
	   "cudaPointerGetAttributes of an unknown pointer");
	ok(pa.type == cudaMemoryTypeUnregistered && pa.device == -2 &&
	   !pa.devicePointer && pa.hostPointer == stack,
	   "is unregistered memory, handed back as a host pointer");
	ok(cudaPointerGetAttributes(NULL, stack) == cudaErrorInvalidValue,
	   "cudaPointerGetAttributes(NULL) is cudaErrorInvalidValue");
	cudaGetLastError();
}

static void test_set(void)
{
	unsigned one = 1;
	CUdeviceptr d;

	cuMemAlloc(&d, MIB);
	is_res(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d),
	       CUDA_SUCCESS, "cuPointerSetAttribute SYNC_MEMOPS");
	is_int(low(must(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 10), 1), 1,
	       "SYNC_MEMOPS reads back set");
	is_res(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
				     d), CUDA_ERROR_INVALID_VALUE,
	       "MEMORY_TYPE cannot be set");
	is_res(cuPointerSetAttribute(NULL, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
				     d), CUDA_ERROR_INVALID_VALUE,
	       "a NULL value is INVALID_VALUE");
	is_res(cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
				     (CUdeviceptr)(uintptr_t)&one),
	       CUDA_ERROR_INVALID_VALUE, "an unknown pointer is INVALID_VALUE");
	cuMemFree(d);
	{
		void *h;

		cuMemAllocHost(&h, 4096);
		is_res(cuPointerSetAttribute(&one,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)h + 8),
		       CUDA_SUCCESS, "SYNC_MEMOPS on pinned memory, through an "
		       "interior pointer");
		cuMemFreeHost(h);
	}
}

static void test_runtime(void)
{
	struct cudaPointerAttributes pa;
	void *d, *h, *m;

	cudaMalloc(&d, 4096);
	cudaMallocHost(&h, 4096);
	ok(cudaPointerGetAttributes(&pa, (char *)d + 8) == cudaSuccess &&
	   pa.type == cudaMemoryTypeDevice && pa.device == 0 &&
	   pa.devicePointer == (char *)d + 8 && !pa.hostPointer,
	   "cudaPointerGetAttributes of device memory");
	ok(cudaPointerGetAttributes(&pa, h) == cudaSuccess &&
	   pa.type == cudaMemoryTypeHost && pa.hostPointer == h &&
	   pa.devicePointer == h, "cudaPointerGetAttributes of pinned memory");
	if (cudaMallocManaged(&m, 4096, cudaMemAttachGlobal) == cudaSuccess) {
		ok(cudaPointerGetAttributes(&pa, m) == cudaSuccess &&
		   pa.type == cudaMemoryTypeManaged && pa.hostPointer == m,
		   "cudaPointerGetAttributes of managed memory");
		cudaFree(m);
	} else {
		ok(0, "cudaMallocManaged");
	}
	cudaFree(d);
	cudaFreeHost(h);
}

int main(void)
{
	CUresult r;
	char x;

	setenv("CUEMU_CONTROL", "0", 0);
	is_res(cuPointerGetAttribute(&x, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0),
	       CUDA_ERROR_NOT_INITIALIZED, "before cuInit: NOT_INITIALIZED");
	cuInit(0);
	cuDevicePrimaryCtxRetain(&ctx0, 0);
	cuDevicePrimaryCtxRetain(&ctx1, 1);
	cuCtxSetCurrent(ctx0);

	test_device();
	test_host();
	test_managed();
	test_pool();
	test_pool_kinds();
	test_vmm();
	test_ids();
	test_vmm_ids();
	test_vmm_host();
	test_unknown();
	test_set();
	test_runtime();
	(void)r;
	return done_testing();
}
