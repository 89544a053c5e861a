/*
 * test_pool.c - the stream-ordered allocator: default and created pools,
 * backing memory reserved in 32 MiB granules and its accounting, reuse across
 * streams under each reuse rule, release to the threshold on
 * synchronization, trim, high-water marks, maxSize, access, host NUMA
 * pools, the errors the real driver gives, and the runtime twins.
 *
 * The emulation's device memory is host memory, so the test reads and
 * writes blocks through their pointers directly.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "ctl.h"
#include "tap.h"

#define MIB (1ULL << 20)
#define CHUNK (32 * MIB) /* the driver's granule of backing memory */

static CUcontext ctx0;

static cuuint64_t attr(CUmemoryPool p, CUmemPool_attribute a)
{
	cuuint64_t v = ~0ULL;

	if (cuMemPoolGetAttribute(p, a, &v) != CUDA_SUCCESS)
		return ~0ULL;
	return v;
}

static int iattr(CUmemoryPool p, CUmemPool_attribute a)
{
	int v = -1;

	if (cuMemPoolGetAttribute(p, a, &v) != CUDA_SUCCESS)
		return -1;
	return v;
}

static void set_i(CUmemoryPool p, CUmemPool_attribute a, int v)
{
	cuMemPoolSetAttribute(p, a, &v);
}

static void set_u(CUmemoryPool p, CUmemPool_attribute a, cuuint64_t v)
{
	cuMemPoolSetAttribute(p, a, &v);
}

static CUmemoryPool new_pool(int dev, size_t max)
{
	CUmemPoolProps pp = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.handleTypes = CU_MEM_HANDLE_TYPE_NONE,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev },
		.maxSize = max,
	};
	CUmemoryPool p = NULL;

	if (cuMemPoolCreate(&p, &pp) != CUDA_SUCCESS)
		return NULL;
	return p;
}

/* Only one reuse rule (or none) switched on. */
static void only_rule(CUmemoryPool p, int follow, int opp, int internal)
{
	set_i(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, follow);
	set_i(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, opp);
	set_i(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, internal);
}

/* A host function that holds its stream until released. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open;

static void CUDA_CB gate_fn(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&gate_lock);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

static void block_stream(CUstream s)
{
	gate_open = 0;
	cuLaunchHostFunc(s, gate_fn, NULL);
}

static void open_gate(void)
{
	pthread_mutex_lock(&gate_lock);
	gate_open = 1;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

static void test_default_pool(void)
{
	CUmemoryPool d0 = NULL, d0b = NULL, cur = NULL, d1 = NULL;
	CUdeviceptr p = 0;
	CUstream s;
	size_t free0 = 0, free1 = 0, total = 0;

	is_res(cuDeviceGetDefaultMemPool(&d0, 0), CUDA_SUCCESS, "default pool of gpu0");
	is_res(cuDeviceGetDefaultMemPool(&d0b, 0), CUDA_SUCCESS, "asked again");
	ok(d0 && d0 == d0b, "a device has one default pool");
	is_res(cuDeviceGetDefaultMemPool(&d1, 1), CUDA_SUCCESS, "default pool of gpu1");
	ok(d1 && d1 != d0, "each device has its own");
	is_res(cuDeviceGetMemPool(&cur, 0), CUDA_SUCCESS, "current pool");
	ok(cur == d0, "the current pool starts as the default");
	is_res(cuDeviceGetDefaultMemPool(&d0, 99), CUDA_ERROR_INVALID_DEVICE,
	       "no default pool for a device that does not exist");
	is_res(cuMemPoolDestroy(d0), CUDA_ERROR_INVALID_VALUE,
	       "the default pool cannot be destroyed");

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemGetInfo(&free0, &total);
	is_res(cuMemAllocAsync(&p, 1 * MIB, s), CUDA_SUCCESS, "cuMemAllocAsync 1 MiB");
	ok(p != 0 && p % 512 == 0, "the block is aligned");
	is_int(attr(d0, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "the pool reserved one 32 MiB granule");
	is_int(attr(d0, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), MIB, "1 MiB is used");
	cuMemGetInfo(&free1, &total);
	is_int(free0 - free1, CHUNK, "the granule counts against the device");
	memset((void *)(uintptr_t)p, 0x5a, MIB);
	ok(((unsigned char *)(uintptr_t)p)[MIB - 1] == 0x5a, "the block holds bytes");
	is_res(cuMemFreeAsync(p, s), CUDA_SUCCESS, "cuMemFreeAsync");
	is_int(attr(d0, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0, "nothing used after the free");
	is_int(attr(d0, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "reserved until a synchronization");
	is_res(cuStreamSynchronize(s), CUDA_SUCCESS, "synchronize");
	is_int(attr(d0, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0,
	       "synchronizing gives memory back down to threshold 0");
	cuMemGetInfo(&free1, &total);
	is_int(free1, free0, "and back to the device");
	is_int(attr(d0, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH), CHUNK, "reserved high-water mark");
	is_int(attr(d0, CU_MEMPOOL_ATTR_USED_MEM_HIGH), MIB, "used high-water mark");
	cuStreamDestroy(s);
}

static void test_errors(void)
{
	CUmemoryPool p = new_pool(0, 0);
	CUdeviceptr d = 0, dev = 0;
	cuuint64_t v = 0;
	int stack = 0, fd = -1;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	ok(p != NULL, "cuMemPoolCreate on gpu0");
	is_res(cuMemPoolGetAttribute(p, (CUmemPool_attribute)99, &v),
	       CUDA_ERROR_INVALID_VALUE, "get of an unknown attribute");
	is_res(cuMemPoolSetAttribute(p, (CUmemPool_attribute)99, &v),
	       CUDA_ERROR_INVALID_VALUE, "set of an unknown attribute");
	v = 5;
	is_res(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v),
	       CUDA_ERROR_INVALID_VALUE, "reserved high-water mark set non-zero");
	is_res(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v),
	       CUDA_ERROR_INVALID_VALUE, "used high-water mark set non-zero");
	v = 0;
	is_res(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v),
	       CUDA_ERROR_INVALID_VALUE, "reserved current cannot be set");
	is_res(cuMemPoolSetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v),
	       CUDA_ERROR_INVALID_VALUE, "used current cannot be set");
	is_res(cuMemPoolExportToShareableHandle(&fd, p,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
	       CUDA_ERROR_INVALID_VALUE, "a pool without a handle type cannot be exported");
	is_res(cuMemFreeAsync((CUdeviceptr)(uintptr_t)&stack, s),
	       CUDA_ERROR_INVALID_VALUE, "freeing an address no pool gave");
	cuMemAlloc(&dev, MIB);
	is_res(cuMemFreeAsync(dev, s), CUDA_SUCCESS,
	       "cuMemFreeAsync frees cuMemAlloc memory too");
	is_res(cuMemFree(dev), CUDA_ERROR_INVALID_VALUE, "which is then gone");
	is_res(cuMemAllocFromPoolAsync(&d, MIB, p, s), CUDA_SUCCESS, "allocate from it");
	is_res(cuMemFreeAsync(d + 512, s), CUDA_ERROR_INVALID_VALUE,
	       "freeing an interior pointer");
	is_res(cuMemFreeAsync(d, s), CUDA_SUCCESS, "free");
	is_res(cuMemFreeAsync(d, s), CUDA_ERROR_INVALID_VALUE, "freeing twice");
	d = 0;
	is_res(cuMemAllocAsync(&d, 0, s), CUDA_SUCCESS, "size 0 is accepted");
	is_res(cuMemFreeAsync(0, s), CUDA_SUCCESS, "freeing 0 is accepted");
	is_res(cuMemAllocAsync(NULL, MIB, s), CUDA_ERROR_INVALID_VALUE, "NULL pointer");
	{
		CUmemPoolProps pp = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
			.location = { .type = CU_MEM_LOCATION_TYPE_HOST } };
		CUmemoryPool q;
		pp.location.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
		is_res(cuMemPoolCreate(&q, &pp), CUDA_ERROR_INVALID_VALUE,
		       "a pool on HOST_NUMA_CURRENT");
		pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		pp.location.id = 42;
		is_res(cuMemPoolCreate(&q, &pp), CUDA_ERROR_INVALID_VALUE,
		       "a pool on a device that does not exist");
		pp.location.id = 0;
		pp.maxSize = 1ULL << 50;
		is_res(cuMemPoolCreate(&q, &pp), CUDA_ERROR_OUT_OF_MEMORY,
		       "a maxSize of 1 PiB does not fit");
		pp.maxSize = 0;
		pp.handleTypes = CU_MEM_HANDLE_TYPE_WIN32;
		is_res(cuMemPoolCreate(&q, &pp), CUDA_ERROR_INVALID_VALUE,
		       "Windows handles do not exist here");
		pp.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
		pp.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
		is_res(cuMemPoolCreate(&q, &pp), CUDA_ERROR_INVALID_VALUE,
		       "allocType must be pinned");
		pp.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		pp.handleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
		is_res(cuMemPoolCreate(&q, &pp), CUDA_SUCCESS,
		       "a fabric pool is made");
		is_res(cuMemPoolExportToShareableHandle(&fd, q,
			CU_MEM_HANDLE_TYPE_FABRIC, 0), CUDA_ERROR_NOT_PERMITTED,
		       "but its export needs an IMEX channel: NOT_PERMITTED");
		cuMemPoolDestroy(q);
	}
	is_res(cuMemPoolDestroy(p), CUDA_SUCCESS, "destroy");
	is_res(cuMemPoolDestroy(p), CUDA_ERROR_INVALID_VALUE, "destroy twice");
	is_res(cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v),
	       CUDA_ERROR_INVALID_VALUE, "a destroyed pool is refused");
	cuStreamDestroy(s);
}

static void test_accounting(void)
{
	CUmemoryPool p = new_pool(0, 0);
	CUdeviceptr a = 0, b = 0, c = 0, big = 0;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	set_u(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, ~0ULL);
	is_int(attr(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD), ~0ULL, "release threshold reads back");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0, "a new pool holds nothing");
	cuMemAllocFromPoolAsync(&a, 1000, p, s);
	cuMemAllocFromPoolAsync(&b, 3 * MIB, p, s);
	ok(a % (2 * MIB) == 0, "a new pool's first block is 2 MiB aligned");
	ok(b == a + 1024, "blocks are carved one after another at 512 bytes");
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 1000 + 3 * MIB,
	       "used counts the bytes asked for");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "both fit one 32 MiB granule");
	is_res(cuMemAllocFromPoolAsync(&big, 33 * MIB, p, s), CUDA_SUCCESS,
	       "a block larger than a granule");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * CHUNK,
	       "continues the pool's address space: one granule more");
	cuMemAllocFromPoolAsync(&c, 30 * MIB, p, s);
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 3 * CHUNK,
	       "and the next block one more");
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH), 1000 + 66 * MIB,
	       "used high-water mark");
	cuMemFreeAsync(c, s);
	cuMemFreeAsync(big, s);
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 1000 + 3 * MIB, "used after frees");
	cuStreamSynchronize(s);
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 3 * CHUNK,
	       "a threshold of all keeps everything on synchronize");
	set_u(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, 40 * MIB);
	cuStreamSynchronize(s);
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "over a 40 MiB threshold, synchronize releases unused granules "
	       "until at or under it");
	set_u(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, ~0ULL);
	cuMemAllocFromPoolAsync(&big, 33 * MIB, p, s);
	cuMemAllocFromPoolAsync(&c, 30 * MIB, p, s);
	cuMemFreeAsync(c, s);
	cuMemFreeAsync(big, s);
	cuStreamSynchronize(s);
	is_res(cuMemPoolTrimTo(p, 40 * MIB), CUDA_SUCCESS, "trim to 40 MiB");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * CHUNK,
	       "trim keeps at least what it is asked to");
	is_res(cuMemPoolTrimTo(p, 1), CUDA_SUCCESS, "trim to 1 byte");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "trim keeps what live blocks use");
	cuMemFreeAsync(a, s);
	cuMemFreeAsync(b, s);
	is_res(cuMemPoolTrimTo(p, 0), CUDA_SUCCESS, "trim to 0");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0,
	       "trim releases what no block uses once its free has run");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH), 3 * CHUNK,
	       "reserved high-water mark survives");
	cuMemAllocFromPoolAsync(&a, MIB, p, s);
	set_u(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, 0);
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH), CHUNK,
	       "reserved high-water mark resets to what is reserved now");
	set_u(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH, 0);
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_HIGH), MIB,
	       "used high-water mark resets to what is used now");
	cuMemFreeAsync(a, s);
	cuStreamSynchronize(s);
	cuMemPoolDestroy(p);

	p = new_pool(0, 64 * MIB);
	is_res(cuMemAllocFromPoolAsync(&a, 40 * MIB, p, s), CUDA_SUCCESS,
	       "40 MiB from a 64 MiB pool");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * CHUNK,
	       "takes two granules");
	is_res(cuMemAllocFromPoolAsync(&b, 40 * MIB, p, s), CUDA_ERROR_OUT_OF_MEMORY,
	       "maxSize bounds the pool");
	is_res(cuMemAllocFromPoolAsync(&b, 20 * MIB, p, s), CUDA_SUCCESS,
	       "what fits under maxSize is still given");
	is_res(cuMemAllocFromPoolAsync(&c, 5 * MIB, p, s), CUDA_ERROR_OUT_OF_MEMORY,
	       "and no more");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * CHUNK,
	       "reserved stays within maxSize");
	cuMemFreeAsync(a, s);
	cuMemFreeAsync(b, s);
	cuStreamSynchronize(s);
	cuMemPoolDestroy(p);

	p = new_pool(0, 1000);
	is_res(cuMemAllocFromPoolAsync(&a, 100, p, s), CUDA_SUCCESS,
	       "a pool of maxSize 1000 allocates");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "from one whole granule");
	cuMemFreeAsync(a, s);
	cuStreamSynchronize(s);
	cuMemPoolDestroy(p);
	cuStreamDestroy(s);
}

/* Reuse across streams. The pool holds one 32 MiB granule and h keeps half
 * of it, so a second 16 MiB block can only be the freed block a: each rule
 * shows as reuse when on and OUT_OF_MEMORY when off. */
static void test_reuse(void)
{
	CUmemoryPool p = new_pool(0, CHUNK);
	CUdeviceptr a = 0, h = 0, x = 0;
	CUstream s1, s2;
	CUevent e;

	cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
	is_int(iattr(p, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES), 1,
	       "follow event dependencies is on by default");
	is_int(iattr(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC), 1,
	       "opportunistic is on by default");
	is_int(iattr(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES), 1,
	       "internal dependencies is on by default");
	set_i(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, 5);
	is_int(iattr(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC), 1,
	       "a reuse rule reads back as 0 or 1");

	/* The same stream reuses at once, whatever the rules. */
	only_rule(p, 0, 0, 0);
	cuMemAllocFromPoolAsync(&h, 16 * MIB, p, s2);
	block_stream(s1);
	cuMemAllocFromPoolAsync(&a, 16 * MIB, p, s1);
	cuMemFreeAsync(a, s1);
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s1), CUDA_SUCCESS,
	       "allocate again on the stream that freed");
	ok(x == a, "a block freed on a stream is reused on that stream at once");
	cuMemFreeAsync(x, s1);

	/* Event dependency: s2 waits for an event recorded after the free. */
	cuEventRecord(e, s1);
	cuStreamWaitEvent(s2, e, 0);
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2), CUDA_ERROR_OUT_OF_MEMORY,
	       "FOLLOW_EVENT_DEPENDENCIES off: another stream does not reuse it");
	only_rule(p, 1, 0, 0);
	x = 0;
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2), CUDA_SUCCESS,
	       "FOLLOW_EVENT_DEPENDENCIES on");
	ok(x == a, "a stream that waited on an event after the free reuses it");
	cuMemFreeAsync(x, s2);
	open_gate();
	cuCtxSynchronize();

	/* Opportunistic: the free has run; no dependency, no synchronization. */
	only_rule(p, 0, 0, 0);
	cuMemAllocFromPoolAsync(&a, 16 * MIB, p, s1);
	cuMemFreeAsync(a, s1);
	while (cuStreamQuery(s1) == CUDA_ERROR_NOT_READY)
		usleep(100);
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2), CUDA_ERROR_OUT_OF_MEMORY,
	       "ALLOW_OPPORTUNISTIC off: a completed free on another stream is "
	       "not reused");
	only_rule(p, 0, 1, 0);
	x = 0;
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2), CUDA_SUCCESS,
	       "ALLOW_OPPORTUNISTIC on");
	ok(x == a, "a completed free is reused by another stream");
	cuMemFreeAsync(x, s2);
	cuCtxSynchronize();

	/* Internal dependency: the free has not run; when the pool cannot
	 * grow, the allocator makes s2 wait for it. */
	block_stream(s1);
	cuMemAllocFromPoolAsync(&a, 16 * MIB, p, s1);
	cuMemFreeAsync(a, s1);
	only_rule(p, 1, 1, 0);
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2), CUDA_ERROR_OUT_OF_MEMORY,
	       "ALLOW_INTERNAL_DEPENDENCIES off: a pending free on another "
	       "stream is not reused");
	is_res(cuStreamQuery(s2), CUDA_SUCCESS, "and s2 does not wait");
	only_rule(p, 0, 0, 1);
	x = 0;
	is_res(cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2), CUDA_SUCCESS,
	       "ALLOW_INTERNAL_DEPENDENCIES on");
	ok(x == a, "a pending free is reused");
	is_res(cuStreamQuery(s2), CUDA_ERROR_NOT_READY,
	       "and s2 now waits for the free's stream");
	open_gate();
	is_res(cuStreamSynchronize(s2), CUDA_SUCCESS, "s2 finishes once s1 does");
	cuMemFreeAsync(x, s2);
	cuMemFreeAsync(h, s2);
	cuCtxSynchronize();

	cuMemPoolDestroy(p);

	/* A pool that may grow grows rather than wait (the driver's order). */
	p = new_pool(0, 0);
	cuMemAllocFromPoolAsync(&h, 16 * MIB, p, s2);
	block_stream(s1);
	cuMemAllocFromPoolAsync(&a, 16 * MIB, p, s1);
	cuMemFreeAsync(a, s1);
	cuMemAllocFromPoolAsync(&x, 16 * MIB, p, s2);
	ok(x != a, "with room to grow, a pending free on another stream is left alone");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * CHUNK,
	       "the pool grows instead");
	is_res(cuStreamQuery(s2), CUDA_SUCCESS, "and s2 is not held back");
	open_gate();
	cuMemFreeAsync(x, s2);
	cuMemFreeAsync(h, s2);
	cuCtxSynchronize();
	cuMemPoolDestroy(p);

	cuEventDestroy(e);
	cuStreamDestroy(s1);
	cuStreamDestroy(s2);
}

static void test_access(void)
{
	CUmemoryPool p = new_pool(0, 0);
	CUmemLocation l0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemLocation l1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
	CUmemAccess_flags f = CU_MEM_ACCESS_FLAGS_PROT_READ;
	CUmemAccessDesc d = { .location = l1, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE };

	is_res(cuMemPoolGetAccess(&f, p, &l0), CUDA_SUCCESS, "get access of gpu0");
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "the owning device is read-write");
	cuMemPoolGetAccess(&f, p, &l1);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "another device has none until set");
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_SUCCESS, "give gpu1 read-write");
	cuMemPoolGetAccess(&f, p, &l1);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "gpu1 is read-write");
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_ERROR_NOT_SUPPORTED,
	       "read-only access is not supported");
	cuMemPoolGetAccess(&f, p, &l1);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "a refused set changes nothing");
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_SUCCESS, "take gpu1's access away");
	cuMemPoolGetAccess(&f, p, &l1);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "gpu1 has none again");
	is_res(cuMemPoolSetAccess(p, NULL, 0), CUDA_ERROR_INVALID_VALUE,
	       "a NULL descriptor list");
	d.location.id = 77;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_ERROR_INVALID_DEVICE,
	       "access for a device that does not exist");
	d.location = l0;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_ERROR_INVALID_DEVICE,
	       "the owning device cannot lose its access");
	cuMemPoolGetAccess(&f, p, &l0);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "it stays read-write");
	d.flags = (CUmemAccess_flags)7;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_ERROR_INVALID_VALUE,
	       "unknown access flags");
	d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	d.location.type = CU_MEM_LOCATION_TYPE_HOST;
	is_res(cuMemPoolSetAccess(p, &d, 1), CUDA_ERROR_NOT_SUPPORTED,
	       "access is set for devices, not the host");
	{
		CUmemLocation h = { CU_MEM_LOCATION_TYPE_HOST, 0 };
		f = CU_MEM_ACCESS_FLAGS_PROT_READ;
		is_res(cuMemPoolGetAccess(&f, p, &h), CUDA_SUCCESS,
		       "the host's access to a device pool");
		is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "is none");
	}
	{
		CUmemAccessDesc two[2] = {
			{ .location = l1, .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE },
			{ .location = { CU_MEM_LOCATION_TYPE_DEVICE, 88 },
			  .flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE },
		};
		is_res(cuMemPoolSetAccess(p, two, 2), CUDA_ERROR_INVALID_DEVICE,
		       "a list with one bad descriptor is refused");
		cuMemPoolGetAccess(&f, p, &l1);
		is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "and none of it applies");
	}
	cuMemPoolDestroy(p);
}

static int node_of(void *addr)
{
	int status = -1;
	void *page = (void *)((uintptr_t)addr & ~4095UL);

	/* The raw system call: the test need not link libnuma. */
	if (syscall(SYS_move_pages, 0, 1UL, &page, NULL, &status, 0) < 0)
		return -1;
	return status;
}

static void test_host_numa(void)
{
	CUmemPoolProps pp = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { .type = CU_MEM_LOCATION_TYPE_HOST_NUMA, .id = 0 },
	};
	CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	CUmemLocation l0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemAccess_flags f = CU_MEM_ACCESS_FLAGS_PROT_READ;
	CUmemoryPool p = NULL;
	CUdeviceptr d = 0;
	size_t free0 = 0, free1 = 0, total = 0;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	is_res(cuMemPoolCreate(&p, &pp), CUDA_SUCCESS, "a pool on host NUMA node 0");
	cuMemGetInfo(&free0, &total);
	is_res(cuMemAllocFromPoolAsync(&d, MIB, p, s), CUDA_SUCCESS, "allocate from it");
	cuMemGetInfo(&free1, &total);
	is_int(free0, free1, "host NUMA memory is not charged to a device");
	memset((void *)(uintptr_t)d, 1, MIB);
	if (node_of((void *)(uintptr_t)d) < 0)
		ok(1, "its pages are on node 0 # SKIP move_pages unavailable");
	else
		is_int(node_of((void *)(uintptr_t)d), 0, "its pages are on node 0");
	cuMemPoolGetAccess(&f, p, &host);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "the host is read-write");
	{
		/* probes/results/pool.txt: pool.host_numa.memtype is 1. */
		unsigned int mt = 0;
		struct cudaPointerAttributes pa;

		is_res(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					     d), CUDA_SUCCESS, "its memory type");
		is_int(mt, CU_MEMORYTYPE_HOST, "is host memory");
		ok(cudaPointerGetAttributes(&pa, (void *)(uintptr_t)d) ==
		   cudaSuccess && pa.type == cudaMemoryTypeHost &&
		   pa.hostPointer == (void *)(uintptr_t)d,
		   "cudaPointerGetAttributes says host memory too");
	}
	{
		/* probes/results/pool.txt: pool.host_numa.memset_by_dev0. */
		uint32_t v = 0;

		is_res(cuMemsetD32Async(d, 0x01020304, 4, s), CUDA_SUCCESS,
		       "a GPU memset of a host-NUMA block runs");
		cuStreamSynchronize(s);
		is_res(cuMemcpyDtoH(&v, d, 4), CUDA_ERROR_INVALID_VALUE,
		       "cuMemcpyDtoH from it is refused");
		is_int(v, 0, "and writes nothing");
		is_int(*(volatile uint32_t *)(uintptr_t)d, 0x01020304,
		       "the CPU reads what the memset wrote");
	}
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), CHUNK,
	       "it reserves host memory in granules too");
	cuMemPoolGetAccess(&f, p, &l0);
	is_int(f, CU_MEM_ACCESS_FLAGS_PROT_NONE, "a device has none until set");
	cuMemFreeAsync(d, s);
	cuStreamSynchronize(s);
	is_res(cuMemPoolDestroy(p), CUDA_SUCCESS, "destroy it");
	pp.location.id = 63;
	is_res(cuMemPoolCreate(&p, &pp), CUDA_ERROR_INVALID_VALUE,
	       "a NUMA node that does not exist");
	pp.location.type = CU_MEM_LOCATION_TYPE_HOST;
	pp.location.id = 0;
	is_res(cuMemPoolCreate(&p, &pp), CUDA_SUCCESS, "a pool of host memory");
	is_res(cuMemAllocFromPoolAsync(&d, 4096, p, s), CUDA_SUCCESS,
	       "allocates host memory");
	cuMemGetInfo(&free1, &total);
	is_int(free0, free1, "not charged to a device either");
	cuMemFreeAsync(d, s);
	cuStreamSynchronize(s);
	cuMemPoolDestroy(p);
	cuStreamDestroy(s);
}

static void test_current_pool(void)
{
	CUmemoryPool p = new_pool(0, 0), d0 = NULL, cur = NULL;
	CUdeviceptr a = 0, b = 0;
	CUstream s;

	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuDeviceGetDefaultMemPool(&d0, 0);
	is_res(cuDeviceSetMemPool(1, p), CUDA_ERROR_INVALID_VALUE,
	       "a pool cannot serve another device");
	is_res(cuDeviceSetMemPool(0, p), CUDA_SUCCESS, "set gpu0's pool");
	cuDeviceGetMemPool(&cur, 0);
	ok(cur == p, "it is current");
	cuMemAllocAsync(&a, MIB, s);
	is_int(attr(p, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), MIB,
	       "cuMemAllocAsync takes from the current pool");
	is_res(cuMemPoolDestroy(p), CUDA_SUCCESS,
	       "destroying a pool with a live block returns at once");
	cuDeviceGetMemPool(&cur, 0);
	ok(cur == d0, "the default pool is current again");
	((volatile char *)(uintptr_t)a)[0] = 7;
	ok(((volatile char *)(uintptr_t)a)[0] == 7, "the live block still works");
	is_res(cuMemFreeAsync(a, s), CUDA_SUCCESS, "and can be freed");
	{
		/* Destroyed while its last free waits on the stream: the
		 * memory stays until the stream is past the free. */
		CUmemoryPool q = new_pool(0, 0);
		size_t f0 = 0, f1 = 0, f2 = 0, tot = 0;

		cuMemGetInfo(&f0, &tot);
		cuMemAllocFromPoolAsync(&b, MIB, q, s);
		block_stream(s);
		cuMemFreeAsync(b, s);
		is_res(cuMemPoolDestroy(q), CUDA_SUCCESS,
		       "destroy a pool whose free has not run");
		cuMemGetInfo(&f1, &tot);
		is_int(f0 - f1, CHUNK, "its memory is held until the free runs");
		open_gate();
		cuStreamSynchronize(s);
		cuMemGetInfo(&f2, &tot);
		is_int(f2, f0, "and given back once the stream is past it");
	}
	cuMemAllocAsync(&b, MIB, s);
	is_res(cuMemFree(b), CUDA_SUCCESS, "cuMemFree frees a pool block");
	is_res(cuMemFreeAsync(b, s), CUDA_ERROR_INVALID_VALUE, "and it is gone");
	cuStreamSynchronize(s);
	cuStreamDestroy(s);
}

static void test_runtime(void)
{
	cudaMemPool_t p = NULL, d = NULL;
	struct cudaMemPoolProps pp = {
		.allocType = cudaMemAllocationTypePinned,
		.location = { .type = cudaMemLocationTypeDevice, .id = 0 },
	};
	cuuint64_t v = 1;
	void *ptr = NULL;
	cudaStream_t s;

	cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
	ok(cudaMemPoolCreate(&p, &pp) == cudaSuccess, "cudaMemPoolCreate");
	ok(cudaMallocFromPoolAsync(&ptr, 4096, p, s) == cudaSuccess && ptr,
	   "cudaMallocFromPoolAsync");
	ok(cudaMemPoolGetAttribute(p, cudaMemPoolAttrUsedMemCurrent, &v) ==
	   cudaSuccess && v == 4096, "cudaMemPoolGetAttribute");
	ok(cudaFreeAsync(ptr, s) == cudaSuccess, "cudaFreeAsync");
	ok(cudaMemPoolSetAttribute(p, cudaMemPoolAttrUsedMemHigh, &v) ==
	   cudaErrorInvalidValue, "cudaMemPoolSetAttribute refuses a non-zero mark");
	cudaGetLastError();
	ok(cudaDeviceGetDefaultMemPool(&d, 0) == cudaSuccess && d,
	   "cudaDeviceGetDefaultMemPool");
	ok(cudaMemPoolDestroy(d) == cudaErrorInvalidValue,
	   "cudaMemPoolDestroy of a default pool");
	cudaGetLastError();
	ok(cudaMallocAsync(&ptr, 1 << 20, s) == cudaSuccess, "cudaMallocAsync");
	ok(cudaFreeAsync(ptr, s) == cudaSuccess, "cudaFreeAsync");
	ok(cudaStreamSynchronize(s) == cudaSuccess, "cudaStreamSynchronize");
	ok(cudaMemPoolTrimTo(p, 0) == cudaSuccess, "cudaMemPoolTrimTo");
	/* As cuMemPoolSetAccess answers (pool.setaccess.count0_null). */
	ok(cudaMemPoolSetAccess(p, NULL, 0) == cudaErrorInvalidValue,
	   "cudaMemPoolSetAccess with no descriptors");
	cudaGetLastError();
	ok(cudaMemPoolDestroy(p) == cudaSuccess, "cudaMemPoolDestroy");
	cudaStreamDestroy(s);
}

/* Two threads, four streams each, allocating and freeing at once. */
static CUmemoryPool mt_pool;

static void *mt_worker(void *arg)
{
	CUstream s[4];
	CUdeviceptr d[4][8];
	long bad = 0;

	cuCtxSetCurrent(ctx0);
	for (int i = 0; i < 4; i++)
		cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING);
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < 4; i++)
			for (int k = 0; k < 8; k++)
				bad += cuMemAllocFromPoolAsync(&d[i][k],
					4096 * (size_t)(k + 1), mt_pool, s[i]) != 0;
		for (int i = 0; i < 4; i++)
			for (int k = 0; k < 8; k++)
				bad += cuMemFreeAsync(d[i][k], s[i]) != 0;
	}
	for (int i = 0; i < 4; i++) {
		cuStreamSynchronize(s[i]);
		cuStreamDestroy(s[i]);
	}
	return (void *)bad;
}

static void test_threads(void)
{
	pthread_t t[2];
	void *bad[2] = { (void *)1, (void *)1 };

	mt_pool = new_pool(0, 0);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, mt_worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], &bad[i]);
	ok(!bad[0] && !bad[1], "two threads on eight streams allocate and free");
	is_int(attr(mt_pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0,
	       "nothing is left used");
	cuMemPoolDestroy(mt_pool);
}

/* /cu/pools through this process's control socket (ctl.h): one JSON
 * line each way, answers read as text. */
static void test_control(void)
{
	CUmemoryPool p = new_pool(0, 0);
	CUdeviceptr d = 0;
	unsigned long long id = 0;
	char buf[8192];
	const char *ids;
	CUstream s;

	if (!ok(ctl_open() == 0, "/cu/pools: the process's control socket "
		"in CUEMU_RUNDIR (%s) answers", getenv("CUEMU_RUNDIR")))
		return;
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemAllocFromPoolAsync(&d, MIB, p, s);
	ctl(buf, sizeof buf, "{\"op\":\"list\",\"path\":\"pools\"}");
	ids = strstr(buf, "\"ids\":[");
	ok(ids && sscanf(ids, "\"ids\":[%llu", &id) == 1, "pools are listed");
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"pools/%llu\"}", id);
	ok(strstr(buf, "\"location\":\"gpu0\"") != NULL, "a pool shows its location");
	ok(strstr(buf, "\"used_mem_current\":1048576") != NULL,
	   "and what is used");
	ok(strstr(buf, "\"reserved_mem_current\":33554432") != NULL,
	   "and reserved");
	ok(strstr(buf, "\"handle_types\":\"none\"") != NULL, "and its handle types");
	ok(strstr(buf, "\"gpu0\":\"rw\"") && strstr(buf, "\"gpu1\":\"none\""),
	   "and access per device");
	{
		const char *al = strstr(buf, "\"allocations\":[");
		unsigned long long aid = 0;
		char want[64];

		ok(al && sscanf(al, "\"allocations\":[%llu", &aid) == 1,
		   "and the allocations it holds");
		ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"allocations/%llu\"}", aid);
		snprintf(want, sizeof want, "\"pool\":%llu", id);
		ok(strstr(buf, "\"kind\":\"pool\"") && strstr(buf, want),
		   "a pool block's allocation names its pool");
	}
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"pools/%llu/release_threshold\"}", id);
	ok(strstr(buf, "\"value\":0") != NULL, "one file reads alone");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/release_threshold\","
	    "\"value\":\"64M\\n\"}", id);
	ok(strstr(buf, "CUDA_SUCCESS") != NULL, "release_threshold is written");
	is_int(attr(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD), 64 * MIB,
	       "through the API");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/used_mem_high\","
	    "\"value\":\"5\"}", id);
	ok(strstr(buf, "CUDA_ERROR_INVALID_VALUE") != NULL,
	   "a high-water mark refuses a non-zero value with the API's error");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/access\","
	    "\"value\":\"gpu1 rw\"}", id);
	ok(strstr(buf, "CUDA_SUCCESS") != NULL, "access is written");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/access\","
	    "\"value\":\"gpu1 ro\"}", id);
	ok(strstr(buf, "CUDA_ERROR_NOT_SUPPORTED") != NULL, "read-only is refused");
	ctl(buf, sizeof buf, "{\"op\":\"get\",\"path\":\"pools/%llu/access\"}", id);
	ok(strstr(buf, "\"gpu1\":\"rw\"") != NULL, "access reads back");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/reuse_allow_opportunistic\","
	    "\"value\":\"0\"}", id);
	is_int(iattr(p, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC), 0,
	       "a reuse rule is switched off");
	cuMemFreeAsync(d, s);
	cuStreamSynchronize(s);
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/trim\","
	    "\"value\":\"0\"}", id);
	ok(strstr(buf, "CUDA_SUCCESS") != NULL, "trim is written");
	is_int(attr(p, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0, "and trims");
	ctl(buf, sizeof buf, "{\"op\":\"set\",\"path\":\"pools/%llu/used_mem_current\","
	    "\"value\":\"0\"}", id);
	ok(strstr(buf, "\"ok\":false") != NULL, "a current value cannot be written");
	close(ctl_fd);
	cuStreamDestroy(s);
	cuMemPoolDestroy(p);
}

int main(void)
{
	CUdevice dev;

	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&ctx0, dev) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx0) != CUDA_SUCCESS) {
		printf("Bail out! no context\n");
		return 1;
	}
	test_default_pool();
	test_errors();
	test_accounting();
	test_reuse();
	test_access();
	test_host_numa();
	test_current_pool();
	test_runtime();
	test_threads();
	test_control();
	return done_testing();
}
