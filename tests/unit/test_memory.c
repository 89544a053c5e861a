/*
 * test_memory.c - device, pinned and registered memory: cuMemAlloc,
 * cuMemAllocPitch, cuMemFree, cuMemAllocHost, cuMemHostAlloc with every
 * flag, cuMemFreeHost, cuMemHostGetFlags, cuMemHostGetDevicePointer,
 * cuMemHostRegister/Unregister, cuMemGetAddressRange, cuMemGetInfo, the
 * runtime twins and cuemuSetLabel, with the return codes of
 * shared/reference/real-driver-managed-pinned.txt (pinned.* lines).
 *
 * The test runs on a machine of its own: two GPUs of 1 GiB, so that
 * capacity is easy to exhaust, and a second process (a second run of this
 * program, spawn.h) shows that the machine's accounting is shared.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "cuemu.h"
#include "spawn.h"
#include "stacks.h"
#include "tap.h"

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)
#define PAGE 4096UL

static char machine[128], topo[PATH_MAX], holder_out[PATH_MAX];

/* A machine named after the one this test was given, so that
 * tests/private-machine.sh removes it even after a crash. */
static void machine_setup(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	FILE *f;

	snprintf(machine, sizeof machine, "%s-memtest", getenv("CUEMU_MACHINE"));
	snprintf(topo, sizeof topo, "%s/cuemu-memtest-%d.json", tmp,
		 (int)getpid());
	snprintf(holder_out, sizeof holder_out, "%s/cuemu-memtest-%d.out", tmp,
		 (int)getpid());
	f = fopen(topo, "w");
	if (!f)
		exit(99);
	fputs("{ \"name\": \"memtest\", \"device_count\": 2, \"devices\": "
	      "[ { \"name\": \"Small GPU\", \"memory\": \"1G\" } ] }\n", f);
	fclose(f);
	setenv("CUEMU_MACHINE", machine, 1);
	setenv("CUEMU_TOPOLOGY", topo, 1);
	setenv("CUEMU_CONTROL", "0", 1);
}

static size_t free_mem(void)
{
	size_t fr = 0, total = 0;

	if (cuMemGetInfo(&fr, &total) != CUDA_SUCCESS)
		return 0;
	return fr;
}

/* The second process, a role with its pipes' descriptors in
 * CUEMU_TEST_GO and CUEMU_TEST_DONE: allocates 64 MiB when told, answers,
 * frees when told, exits. It prints each call's result. */
static int holder(void)
{
	int go = atoi(getenv("CUEMU_TEST_GO") ?: "-1");
	int done = atoi(getenv("CUEMU_TEST_DONE") ?: "-1");
	CUdeviceptr d = 0;
	CUresult r;
	CUcontext c;
	char b;

	printf("go %d\n", read(go, &b, 1) == 1);
	printf("init %d\n", (int)cuInit(0));
	r = cuDevicePrimaryCtxRetain(&c, 0);
	printf("context %d\n", (int)(r ? r : cuCtxSetCurrent(c)));
	printf("alloc %d\n", (int)cuMemAlloc(&d, 64 * MIB));
	fflush(stdout);
	printf("done_sent %d\n", write(done, "a", 1) == 1);
	printf("go_again %d\n", read(go, &b, 1) == 1);
	printf("free %d\n", (int)cuMemFree(d));
	/* its context's stacks go with the context */
	printf("release %d\n", (int)cuDevicePrimaryCtxRelease(0));
	return 0;
}

static long long held(const char *key)
{
	return child_value(holder_out, key, -999);
}

static void test_two_processes(void)
{
	size_t before, during, stacks = context_stacks();
	int go[2], done[2];
	char b = 'g', goenv[48], doneenv[48];
	char *env[] = { goenv, doneenv, NULL };
	pid_t pid;

	/* Ours close on exec; the holder's ends are inherited. */
	if (!ok(pipe2(go, O_CLOEXEC) == 0 && pipe2(done, O_CLOEXEC) == 0 &&
		fcntl(go[0], F_SETFD, 0) == 0 && fcntl(done[1], F_SETFD, 0) == 0,
		"two processes: pipes between them"))
		return;
	snprintf(goenv, sizeof goenv, "CUEMU_TEST_GO=%d", go[0]);
	snprintf(doneenv, sizeof doneenv, "CUEMU_TEST_DONE=%d", done[1]);
	pid = spawn_self("holder", env, holder_out, NULL);
	close(go[0]);
	close(done[1]);
	ok(pid > 0, "two processes: the second is started");
	before = free_mem();
	ok(write(go[1], &b, 1) == 1 && readable_within(done[0], 30) &&
	   read(done[0], &b, 1) == 1,
	   "a second process answers that it allocated, within 30 s");
	is_res(held("alloc"), CUDA_SUCCESS,
	       "a second process allocates 64 MiB on gpu0");
	during = free_mem();
	ok(stacks > 0, "a context's stacks hold %zu bytes", stacks);
	is_int(before - during, 64 * MIB + stacks,
	       "cuMemGetInfo here sees the other process's 64 MiB and its "
	       "context's stacks");
	ok(write(go[1], &b, 1) == 1, "the second is told to free");
	is_int(pid > 0 ? wait_bounded(pid, 30) : -1, 0,
	       "the other process exits");
	is_res(held("free"), CUDA_SUCCESS, "the other process frees its 64 MiB");
	is_res(held("release"), CUDA_SUCCESS, "and releases its context");
	is_int(free_mem(), before, "its free gives the memory back");
	close(go[1]);
	close(done[0]);
	unlink(holder_out);
}

static void test_device(void)
{
	CUdeviceptr d, d1, big, base;
	size_t fr, total, size, before;

	is_res(cuMemGetInfo(&fr, &total), CUDA_SUCCESS, "cuMemGetInfo");
	is_int(total, GIB, "total is the topology's 1 GiB");
	is_res(cuMemGetInfo(NULL, &total), CUDA_SUCCESS,
	       "cuMemGetInfo with a NULL free out is SUCCESS");
	is_res(cuMemGetInfo(&fr, NULL), CUDA_SUCCESS,
	       "cuMemGetInfo with a NULL total out is SUCCESS");

	before = free_mem();
	is_res(cuMemAlloc(&d, MIB), CUDA_SUCCESS, "cuMemAlloc 1 MiB");
	is_int(before - free_mem(), MIB, "free drops by 1 MiB");
	ok(d % PAGE == 0, "device memory is page aligned");
	memset((void *)d, 0x5a, MIB);
	ok(((unsigned char *)d)[MIB - 1] == 0x5a, "device memory is real");
	before = free_mem();
	is_res(cuMemAlloc(&d1, 1), CUDA_SUCCESS, "cuMemAlloc 1 byte");
	is_int(before - free_mem(), PAGE, "a small allocation is charged a page");

	is_res(cuMemAlloc(NULL, MIB), CUDA_ERROR_INVALID_VALUE,
	       "cuMemAlloc(NULL) is INVALID_VALUE");
	is_res(cuMemAlloc(&big, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuMemAlloc of 0 bytes is INVALID_VALUE");
	is_res(cuMemAlloc(&big, GIB + 1), CUDA_ERROR_OUT_OF_MEMORY,
	       "more than the device holds is OUT_OF_MEMORY");
	fr = free_mem();
	is_res(cuMemAlloc(&big, fr), CUDA_SUCCESS,
	       "exactly what is free fits");
	is_int(free_mem(), 0, "then nothing is free");
	is_res(cuMemAlloc(&base, 1), CUDA_ERROR_OUT_OF_MEMORY,
	       "one byte more is OUT_OF_MEMORY");
	is_res(cuMemFree(big), CUDA_SUCCESS, "cuMemFree gives it back");
	is_int(free_mem(), fr, "free is back where it was");

	is_res(cuMemGetAddressRange(&base, &size, d + 12345), CUDA_SUCCESS,
	       "cuMemGetAddressRange of an interior pointer");
	ok(base == d && size == MIB, "answers the allocation's base and size");
	is_res(cuMemGetAddressRange(NULL, &size, d + 1), CUDA_SUCCESS,
	       "cuMemGetAddressRange with a NULL base out");
	is_res(cuMemGetAddressRange(&base, &size, d + MIB + 64 * GIB),
	       CUDA_ERROR_NOT_FOUND, "an unknown pointer is NOT_FOUND");

	is_res(cuMemFree(d + 16), CUDA_ERROR_INVALID_VALUE,
	       "cuMemFree of an interior pointer is INVALID_VALUE");
	is_res(cuMemFree(0), CUDA_SUCCESS, "cuMemFree(0) is SUCCESS");
	is_res(cuMemFree(d), CUDA_SUCCESS, "cuMemFree");
	is_res(cuMemFree(d), CUDA_ERROR_INVALID_VALUE,
	       "a second cuMemFree is INVALID_VALUE");
	is_res(cuMemFree(d1), CUDA_SUCCESS, "cuMemFree of the small one");
	is_res(cuMemGetAddressRange(&base, &size, d), CUDA_ERROR_NOT_FOUND,
	       "a freed pointer is NOT_FOUND");
}

static void test_pitch(void)
{
	CUdeviceptr d, base;
	size_t pitch = 0, size = 0;

	is_res(cuMemAllocPitch(&d, &pitch, 100, 10, 4), CUDA_SUCCESS,
	       "cuMemAllocPitch 100 x 10");
	is_int(pitch, 512, "rows are 512-byte aligned");
	cuMemGetAddressRange(&base, &size, d);
	is_int(size, 5120, "the allocation is pitch x height");
	is_res(cuMemFree(d), CUDA_SUCCESS, "freed with cuMemFree");
	is_res(cuMemAllocPitch(&d, &pitch, 100, 10, 3),
	       CUDA_ERROR_INVALID_VALUE, "element size 3 is INVALID_VALUE");
	is_res(cuMemAllocPitch(&d, &pitch, 0, 10, 4),
	       CUDA_ERROR_INVALID_VALUE, "width 0 is INVALID_VALUE");
	is_res(cuMemAllocPitch(&d, NULL, 100, 10, 4),
	       CUDA_ERROR_INVALID_VALUE, "NULL pitch is INVALID_VALUE");
}

static void test_hostalloc_flags(unsigned flags)
{
	unsigned got = 0;
	CUdeviceptr dp = 0;
	void *p = NULL;

	is_res(cuMemHostAlloc(&p, 64 * 1024, flags), CUDA_SUCCESS,
	       "cuMemHostAlloc flags %#x", flags);
	is_res(cuMemHostGetFlags(&got, p), CUDA_SUCCESS,
	       "cuMemHostGetFlags, flags %#x", flags);
	is_int(got, flags | CU_MEMHOSTALLOC_DEVICEMAP,
	       "flags %#x read back with DEVICEMAP", flags);
	is_res(cuMemHostGetDevicePointer(&dp, p, 0), CUDA_SUCCESS,
	       "cuMemHostGetDevicePointer, flags %#x", flags);
	ok(dp == (CUdeviceptr)p, "the device pointer is the host pointer");
	is_res(cuMemHostGetDevicePointer(&dp, p, 1), CUDA_ERROR_INVALID_VALUE,
	       "cuMemHostGetDevicePointer with Flags 1 is INVALID_VALUE");
	cuMemHostGetDevicePointer(&dp, (char *)p + 100, 0);
	ok(dp == (CUdeviceptr)p + 100, "an interior pointer maps to itself");
	memset(p, 7, 64 * 1024);
	is_res(cuMemFreeHost(p), CUDA_SUCCESS, "cuMemFreeHost, flags %#x",
	       flags);
}

static void test_pinned(void)
{
	static const unsigned flags[] = { 0, 1, 2, 4, 7 };
	size_t before = free_mem();
	CUdeviceptr dp;
	unsigned got;
	void *p, *m = malloc(4096);

	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
		test_hostalloc_flags(flags[i]);
	p = (void *)1;
	is_res(cuMemHostAlloc(&p, 4096, 0x40), CUDA_ERROR_INVALID_VALUE,
	       "cuMemHostAlloc flags 0x40 is INVALID_VALUE");
	is_res(cuMemHostAlloc(&p, 0, 0), CUDA_SUCCESS,
	       "cuMemHostAlloc of 0 bytes is SUCCESS");
	ok(p == NULL, "and answers NULL");
	p = (void *)1;
	is_res(cuMemAllocHost(&p, 0), CUDA_SUCCESS,
	       "cuMemAllocHost of 0 bytes is SUCCESS");
	ok(p == (void *)1, "and leaves the pointer as it was");
	is_res(cuMemHostAlloc(NULL, 4096, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuMemHostAlloc(NULL) is INVALID_VALUE");
	is_res(cuMemAllocHost(&p, 3 * PAGE), CUDA_SUCCESS, "cuMemAllocHost");
	is_res(cuMemHostGetFlags(&got, p), CUDA_SUCCESS,
	       "cuMemHostGetFlags of cuMemAllocHost memory");
	is_int(got, CU_MEMHOSTALLOC_DEVICEMAP, "reads DEVICEMAP");
	is_int(free_mem(), before, "pinned memory is not device memory");
	is_res(cuMemFreeHost((char *)p + 8), CUDA_ERROR_INVALID_VALUE,
	       "cuMemFreeHost of an interior pointer is INVALID_VALUE");
	is_res(cuMemFree((CUdeviceptr)p), CUDA_ERROR_INVALID_VALUE,
	       "cuMemFree of pinned memory is INVALID_VALUE");
	is_res(cuMemFreeHost(p), CUDA_SUCCESS, "cuMemFreeHost");

	is_res(cuMemHostGetFlags(&got, m), CUDA_ERROR_INVALID_VALUE,
	       "cuMemHostGetFlags of malloc memory is INVALID_VALUE");
	{
		CUdeviceptr mg = 0;

		got = 0;
		if (cuMemAllocManaged(&mg, 3 * PAGE, CU_MEM_ATTACH_GLOBAL)) {
			ok(0, "cuMemAllocManaged");
		} else {
			is_res(cuMemHostGetFlags(&got, (char *)mg + PAGE),
			       CUDA_SUCCESS, "cuMemHostGetFlags of managed "
			       "memory (an interior pointer)");
			is_int(got, CU_MEMHOSTALLOC_DEVICEMAP,
			       "managed memory reads DEVICEMAP");
			cuMemFree(mg);
		}
	}
	is_res(cuMemHostGetDevicePointer(&dp, m, 0), CUDA_ERROR_INVALID_VALUE,
	       "cuMemHostGetDevicePointer of malloc memory is INVALID_VALUE");
	is_res(cuMemFreeHost(m), CUDA_ERROR_INVALID_VALUE,
	       "cuMemFreeHost of malloc memory is INVALID_VALUE");
	is_res(cuMemHostUnregister(m), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
	       "cuMemHostUnregister of unregistered memory");
	free(m);
}

static void test_register_flags(char *buf, unsigned flags, unsigned want)
{
	unsigned got = 0;
	CUdeviceptr dp = 0;

	is_res(cuMemHostRegister(buf, 4 * PAGE, flags), CUDA_SUCCESS,
	       "cuMemHostRegister flags %#x", flags);
	cuMemHostGetFlags(&got, buf);
	is_int(got, want, "cuMemHostGetFlags after register %#x", flags);
	is_res(cuMemHostGetDevicePointer(&dp, buf + 5, 0), CUDA_SUCCESS,
	       "cuMemHostGetDevicePointer of registered memory");
	ok(dp == (CUdeviceptr)(buf + 5), "is the host pointer");
	is_res(cuMemHostRegister(buf, 4 * PAGE, flags),
	       CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
	       "registering twice (flags %#x)", flags);
	is_res(cuMemHostRegister(buf + 2 * PAGE, 4 * PAGE, flags),
	       CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
	       "an overlapping registration (flags %#x)", flags);
	is_res(cuMemHostUnregister(buf + PAGE), CUDA_ERROR_INVALID_VALUE,
	       "unregistering an interior pointer is INVALID_VALUE");
	is_res(cuMemHostUnregister(buf), CUDA_SUCCESS,
	       "cuMemHostUnregister (flags %#x)", flags);
}

static void test_register(void)
{
	char *buf = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *hole;
	void *pinned;

	test_register_flags(buf, 0, 0x2);
	test_register_flags(buf, 1, 0x3);
	test_register_flags(buf, 2, 0x2);
	test_register_flags(buf, 8, 0x2);
	is_res(cuMemHostRegister(buf + 100, 1000, 0), CUDA_SUCCESS,
	       "an unaligned range registers");
	is_res(cuMemHostRegister(buf + 2000, 100, 0), CUDA_SUCCESS,
	       "another range in the same page registers: ranges are exact");
	is_res(cuMemHostRegister(buf + 1000, 200, 0),
	       CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
	       "a range over the end of one is ALREADY_REGISTERED");
	{
		CUdeviceptr b = 1;
		size_t sz = 1;

		is_res(cuMemGetAddressRange(&b, &sz, (CUdeviceptr)buf + 150),
		       CUDA_SUCCESS, "cuMemGetAddressRange of registered "
		       "memory is SUCCESS");
		ok(b == 0 && sz == 0, "with an empty range, as the driver "
		   "answers");
	}
	is_res(cuMemHostUnregister(buf + 2000), CUDA_SUCCESS,
	       "unregister the second range of the page");
	is_res(cuMemHostRegister(buf + PAGE, PAGE, 0), CUDA_SUCCESS,
	       "the next page registers");
	is_res(cuMemHostUnregister(buf + 100), CUDA_SUCCESS,
	       "unregister the unaligned one");
	is_res(cuMemHostUnregister(buf + PAGE), CUDA_SUCCESS,
	       "unregister the next page");
	is_res(cuMemHostRegister(buf, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "size 0 is INVALID_VALUE");
	is_res(cuMemHostRegister(NULL, PAGE, 0), CUDA_ERROR_INVALID_VALUE,
	       "NULL is INVALID_VALUE");
	is_res(cuMemHostRegister(buf, PAGE, 0x10), CUDA_ERROR_INVALID_VALUE,
	       "an unknown flag is INVALID_VALUE");
	is_res(cuMemHostRegister(buf, PAGE, CU_MEMHOSTREGISTER_IOMEMORY),
	       CUDA_ERROR_INVALID_VALUE,
	       "IOMEMORY on ordinary memory is INVALID_VALUE");
	hole = buf + 8 * PAGE;
	munmap(hole, PAGE);
	is_res(cuMemHostRegister(hole, PAGE, 0), CUDA_ERROR_INVALID_VALUE,
	       "unmapped memory is INVALID_VALUE");
	cuMemAllocHost(&pinned, PAGE);
	is_res(cuMemHostRegister(pinned, PAGE, 0), CUDA_ERROR_INVALID_VALUE,
	       "registering pinned memory is INVALID_VALUE");
	is_res(cuMemHostUnregister(pinned), CUDA_ERROR_INVALID_VALUE,
	       "unregistering pinned memory is INVALID_VALUE");
	cuMemFreeHost(pinned);
	is_res(cuMemHostUnregister(NULL), CUDA_ERROR_INVALID_VALUE,
	       "unregistering NULL is INVALID_VALUE");
	is_res(cuMemFreeHost(NULL), CUDA_SUCCESS, "cuMemFreeHost(NULL)");
	mprotect(buf, 2 * PAGE, PROT_READ);
	is_res(cuMemHostRegister(buf, 2 * PAGE, 0), CUDA_ERROR_INVALID_VALUE,
	       "read-only pages need CU_MEMHOSTREGISTER_READ_ONLY");
	is_res(cuMemHostRegister(buf, 2 * PAGE, CU_MEMHOSTREGISTER_READ_ONLY),
	       CUDA_SUCCESS, "and register with it");
	cuMemHostUnregister(buf);
	munmap(buf, 16 * PAGE);
}

static void test_label(void)
{
	CUdeviceptr d;

	cuMemAlloc(&d, MIB);
	is_res(cuemuSetLabel(d + 10, "weights"), CUDA_SUCCESS,
	       "cuemuSetLabel through an interior pointer");
	/* That it clears the label is read back in test_control.c. */
	is_res(cuemuSetLabel(d, NULL), CUDA_SUCCESS,
	       "cuemuSetLabel(NULL) answers SUCCESS");
	is_res(cuemuSetLabel(d + 2 * MIB + 64 * GIB, "x"),
	       CUDA_ERROR_INVALID_VALUE, "an unknown pointer is INVALID_VALUE");
	cuMemFree(d);
}

static void test_many(void)
{
	enum { N = 2000 };
	static CUdeviceptr d[N];
	CUdeviceptr base;
	size_t size;
	int good = 1, i;

	for (i = 0; i < N; i++)
		if (cuMemAlloc(&d[i], 100 + i) != CUDA_SUCCESS)
			good = 0;
	ok(good, "%d live allocations", N);
	for (i = 0; i < N; i++) {
		if (cuMemGetAddressRange(&base, &size, d[i] + 99 + i) ||
		    base != d[i] || size != (size_t)(100 + i))
			good = 0;
	}
	ok(good, "every last byte finds its own allocation");
	for (i = 0; i < N; i++)
		if (cuMemFree(d[i]) != CUDA_SUCCESS)
			good = 0;
	ok(good, "all freed");
}

static void test_runtime(void)
{
	unsigned flags = 0;
	size_t fr = 0, total = 0, pitch = 0;
	void *p = (void *)1, *h, *dp;
	char buf[3 * 4096];
	char *reg = (char *)(((uintptr_t)buf + PAGE - 1) & ~(PAGE - 1));

	ok(cudaMalloc(&p, 0) == cudaSuccess && p == NULL,
	   "cudaMalloc of 0 bytes answers NULL");
	ok(cudaMalloc(&p, MIB) == cudaSuccess && p, "cudaMalloc");
	ok(cudaMemGetInfo(&fr, &total) == cudaSuccess && total == GIB,
	   "cudaMemGetInfo");
	ok(cudaFree((char *)p + 1) == cudaErrorInvalidValue,
	   "cudaFree of an interior pointer is cudaErrorInvalidValue");
	ok(cudaFree(p) == cudaSuccess, "cudaFree");
	ok(cudaFree(NULL) == cudaSuccess, "cudaFree(NULL)");
	ok(cudaMallocPitch(&p, &pitch, 10, 3) == cudaSuccess && pitch == 512,
	   "cudaMallocPitch");
	cudaFree(p);
	ok(cudaMallocPitch(&p, &pitch, 0, 3) == cudaSuccess && !p && !pitch,
	   "cudaMallocPitch of width 0 answers NULL and pitch 0");
	ok(cudaMallocHost(&h, 4096) == cudaSuccess, "cudaMallocHost");
	ok(cudaFreeHost(h) == cudaSuccess, "cudaFreeHost");
	ok(cudaHostAlloc(&h, 4096, cudaHostAllocPortable) == cudaSuccess,
	   "cudaHostAlloc portable");
	ok(cudaHostGetFlags(&flags, h) == cudaSuccess && flags == 3,
	   "cudaHostGetFlags");
	ok(cudaHostGetDevicePointer(&dp, h, 0) == cudaSuccess && dp == h,
	   "cudaHostGetDevicePointer");
	ok(cudaHostGetDevicePointer(&dp, h, 1) == cudaErrorInvalidValue,
	   "cudaHostGetDevicePointer: flags must be 0");
	ok(cudaHostGetDevicePointer(&dp, buf, 0) == cudaErrorInvalidValue,
	   "cudaHostGetDevicePointer of pageable memory fails");
	ok(cudaFreeHost(h) == cudaSuccess, "cudaFreeHost");
	ok(cudaHostAlloc(&h, 4096, cudaHostAllocPortable | cudaHostAllocMapped |
			 cudaHostAllocWriteCombined) == cudaSuccess &&
	   cudaHostGetFlags(&flags, h) == cudaSuccess && flags == 7,
	   "cudaHostAlloc takes the three flags together and keeps them");
	cudaFreeHost(h);
	ok(cudaHostAlloc(&h, 4096, 0x40) == cudaErrorInvalidValue,
	   "cudaHostAlloc with a bad flag is cudaErrorInvalidValue");
	ok(cudaHostRegister(reg, PAGE, 0) == cudaSuccess, "cudaHostRegister");
	ok(cudaHostRegister(reg, PAGE, 0) ==
	   cudaErrorHostMemoryAlreadyRegistered,
	   "twice is cudaErrorHostMemoryAlreadyRegistered");
	ok(cudaHostUnregister(reg) == cudaSuccess, "cudaHostUnregister");
	ok(cudaHostUnregister(reg) == cudaErrorHostMemoryNotRegistered,
	   "again is cudaErrorHostMemoryNotRegistered");
	ok(cudaHostRegister(reg, PAGE, cudaHostRegisterIoMemory) ==
	   cudaErrorInvalidValue,
	   "cudaHostRegisterIoMemory on ordinary memory is cudaErrorInvalidValue");
	ok(cudaHostRegister(reg, PAGE, cudaHostRegisterReadOnly) == cudaSuccess &&
	   cudaHostUnregister(reg) == cudaSuccess,
	   "cudaHostRegisterReadOnly");
	cudaGetLastError();
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUcontext ctx;
	CUdeviceptr d;
	char shm[160];

	if (role && !strcmp(role, "holder"))
		return holder();
	machine_setup();

	is_res(cuMemAlloc(&d, MIB), CUDA_ERROR_NOT_INITIALIZED,
	       "cuMemAlloc before cuInit is NOT_INITIALIZED");
	is_res(cuInit(0), CUDA_SUCCESS, "cuInit");
	is_res(cuMemAlloc(&d, MIB), CUDA_ERROR_INVALID_CONTEXT,
	       "cuMemAlloc with no context is INVALID_CONTEXT");
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);

	test_two_processes();
	test_device();
	test_pitch();
	test_pinned();
	test_register();
	test_label();
	test_many();
	test_runtime();

	unlink(topo);
	snprintf(shm, sizeof shm, "/%s", machine);
	shm_unlink(shm);
	return done_testing();
}
