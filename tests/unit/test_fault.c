/*
 * test_fault.c - faults on managed memory: real CPU faults (a SIGSEGV
 * handler) that migrate, duplicate and collapse by policy; emulated kernels
 * (cuemuLaunchHostFunc) and declared footprints (cuemuAccess) that fault on
 * a GPU, map remotely by policy, and thrash; the handler passing what is
 * not managed to the handler installed before it; kernels whose touches
 * would fill the process's memory map. Residency is read through device
 * capacity (cuMemGetInfo), which managed residency is charged to.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cuda.h"
#include "cuemu.h"
#include "spawn.h"
#include "tap.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* Under valgrind, a SIGSEGV handler that changes protections and restarts
 * the access does not get the faulting address reliably, so the cases
 * that need real CPU faults are skipped there. */
static int skip_faults(const char *what)
{
	if (!RUNNING_ON_VALGRIND)
		return 0;
	printf("ok %d - %s # SKIP real faults under valgrind\n", ++tap_n, what);
	return 1;
}

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)

static CUstream s0, s1;

static CUmemLocation dev(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

static const CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };

static long long used(int d)
{
	size_t fr = 0, tot = 0;
	CUcontext c, prev;

	cuDevicePrimaryCtxRetain(&c, d);
	cuCtxGetCurrent(&prev);
	cuCtxSetCurrent(c);
	cuMemGetInfo(&fr, &tot);
	cuCtxSetCurrent(prev);
	cuDevicePrimaryCtxRelease(d);
	return (long long)(tot - fr);
}

/* Writes every byte, a page at a time through a volatile pointer: libc's
 * memset would do, but valgrind's replacement of it does not survive a
 * fault handler that changes protections, and these tests run under
 * valgrind too. */
static void fill(void *p, int v, size_t n)
{
	volatile unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)v;
}

static void sync_all(void)
{
	cuStreamSynchronize(s0);
	cuStreamSynchronize(s1);
}

/* ------------------------------------------------------------------ */

static sigjmp_buf jb;

static void test_handler(int sig)
{
	(void)sig;
	siglongjmp(jb, 1);
}

static void test_chaining(void)
{
	volatile char *guard = mmap(NULL, 4096, PROT_NONE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int reached = 0;

	if (sigsetjmp(jb, 1) == 0) {
		(void)guard[0];
		reached = 1;
	}
	ok(!reached, "chaining: a fault outside managed memory reaches the "
	   "handler installed before");
	munmap((void *)guard, 4096);
}

static void test_cpu_faults(void)
{
	CUdeviceptr p;
	unsigned char *b;
	long long u0 = used(0);

	if (cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL) != CUDA_SUCCESS) {
		ok(0, "cpu: cuMemAllocManaged");
		return;
	}
	b = (unsigned char *)p;
	fill(b, 1, 4 * MIB);
	ok(b[0] == 1 && b[4 * MIB - 1] == 1,
	   "cpu: first touch populates on the host");
	cuMemPrefetchAsync(p, 4 * MIB, dev(0), 0, s0);
	sync_all();
	is_int(used(0) - u0, 4 * MIB, "cpu: prefetched to gpu0");
	b[100] = 42;
	ok(b[100] == 42 && b[101] == 1, "cpu: a write after the prefetch "
	   "faults, migrates and succeeds");
	is_int(used(0) - u0, 4 * MIB - 64 * KIB,
	       "cpu: one fault moved one 64 KiB block back to the host");
	(void)((volatile unsigned char *)b)[3 * MIB];
	is_int(used(0) - u0, 4 * MIB - 128 * KIB,
	       "cpu: a read of another block moves that block");

	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0));
	cuMemPrefetchAsync(p, 4 * MIB, dev(0), 0, s0);
	sync_all();
	is_int(used(0) - u0, 4 * MIB, "read mostly: gpu0 holds a copy of all");
	ok(b[2 * MIB] == 1, "read mostly: the CPU reads");
	is_int(used(0) - u0, 4 * MIB,
	       "read mostly: a CPU read duplicates, gpu0 keeps its copy");
	b[2 * MIB] = 9;
	ok(b[2 * MIB] == 9, "read mostly: the CPU writes");
	is_int(used(0) - u0, 4 * MIB - 64 * KIB,
	       "read mostly: the write collapsed gpu0's copy of that block");
	cuMemFree(p);
	is_int(used(0), u0, "free gives everything back");
}

/* ------------------------------------------------------------------ */

struct kargs {
	unsigned char *b;
	size_t n;
	int sum;
};

static void kernel_write(void *arg)
{
	struct kargs *k = arg;
	size_t i;

	for (i = 0; i < k->n; i += 64 * KIB)
		k->b[i] = (unsigned char)(i / (64 * KIB));
}

static void kernel_read(void *arg)
{
	struct kargs *k = arg;
	size_t i;

	k->sum = 0;
	for (i = 0; i < k->n; i += 64 * KIB)
		k->sum += k->b[i];
}

static void test_kernels(void)
{
	CUdeviceptr p;
	struct kargs k;
	long long u1 = used(1), u0 = used(0);
	unsigned long long t0 = 0, t1 = 0;

	cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL);
	fill((void *)p, 0, 4 * MIB);
	k.b = (unsigned char *)p;
	k.n = 4 * MIB;
	cuemuStreamGetTime(s1, &t0);
	is_res(cuemuLaunchHostFunc(s1, kernel_write, &k), CUDA_SUCCESS,
	       "kernel: cuemuLaunchHostFunc on a gpu1 stream");
	sync_all();
	cuemuStreamGetTime(s1, &t1);
	is_int(used(1) - u1, 4 * MIB,
	       "kernel: its touches faulted the blocks over to gpu1");
	ok(t1 > t0, "kernel: the faults cost model time (%llu ns)", t1 - t0);
	ok(k.b[64 * KIB * 5] == 5 && k.b[64 * KIB * 63] == 63,
	   "kernel: the CPU reads what the kernel wrote");
	is_int(used(1) - u1, 4 * MIB - 128 * KIB,
	       "kernel: and those reads faulted two blocks back");

	/* Preferred location the host, accessed by gpu0: mapped remotely. */
	cuMemPrefetchAsync(p, 4 * MIB, host, 0, s0);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0));
	sync_all();
	cuemuLaunchHostFunc(s0, kernel_read, &k);
	sync_all();
	is_int(k.sum, 63 * 64 / 2, "remote: the kernel read every block");
	is_int(used(0) - u0, 0, "remote: nothing migrated to gpu0");
	cuemuAccess(s0, p, 4 * MIB, CUEMU_ACCESS_WRITE);
	sync_all();
	is_int(used(0) - u0, 0, "remote: a declared write stays remote too");
	cuMemFree(p);
}

static void test_access(void)
{
	CUdeviceptr p;
	long long u0 = used(0), u1 = used(1);
	unsigned long long t0 = 0, t1 = 0;
	double gbps;
	int i;

	cuMemAllocManaged(&p, 64 * MIB, CU_MEM_ATTACH_GLOBAL);
	fill((void *)p, 3, 64 * MIB);
	cuMemPrefetchAsync(p, 64 * MIB, host, 0, s0); /* on the host, however
							 filled */
	sync_all();
	cuemuStreamGetTime(s0, &t0);
	is_res(cuemuAccess(s0, p, 64 * MIB, CUEMU_ACCESS_READ), CUDA_SUCCESS,
	       "access: cuemuAccess read of 64 MiB on gpu0");
	sync_all();
	cuemuStreamGetTime(s0, &t1);
	is_int(used(0) - u0, 64 * MIB, "access: the footprint migrated to gpu0");
	gbps = 64.0 * MIB / (double)(t1 - t0);
	ok(gbps > 5 && gbps < 40, "access: fault-driven migration at %.1f GB/s "
	   "(real: ~20 at 64 KiB a touch)", gbps);
	is_res(cuemuAccess(s0, p, 0, CUEMU_ACCESS_READ), CUDA_ERROR_INVALID_VALUE,
	       "access: size 0");
	is_res(cuemuAccess(s0, p, 4096, 0x8), CUDA_ERROR_INVALID_VALUE,
	       "access: unknown flags");

	/* A write by one GPU to read-duplicated pages leaves one copy. */
	cuMemAdvise(p, 64 * MIB, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0));
	cuemuAccess(s1, p, 64 * MIB, CUEMU_ACCESS_READ);
	sync_all();
	ok(used(0) - u0 == 64 * MIB && used(1) - u1 == 64 * MIB,
	   "read mostly: a gpu1 read duplicates what gpu0 holds");
	cuemuAccess(s1, p, 64 * MIB, CUEMU_ACCESS_WRITE);
	sync_all();
	ok(used(0) - u0 == 0 && used(1) - u1 == 64 * MIB,
	   "read mostly: a gpu1 write collapses gpu0's copies");
	cuMemAdvise(p, 64 * MIB, CU_MEM_ADVISE_UNSET_READ_MOSTLY, dev(0));

	/* Thrashing: one block bounced between gpu0 and the CPU. */
	if (skip_faults("thrash")) {
		cuMemFree(p);
		return;
	}
	for (i = 0; i < 12; i++) {
		cuemuAccess(s0, p, 64 * KIB, CUEMU_ACCESS_WRITE);
		sync_all();
		((volatile unsigned char *)p)[0] = (unsigned char)i;
	}
	cuemuAccess(s0, p, 64 * KIB, CUEMU_ACCESS_WRITE);
	sync_all();
	is_int(used(0) - u0, 0, "thrash: a block bounced too often is pinned "
	       "to the host and gpu0 maps it remotely");
	cuMemFree(p);
}

/* Preferred location gpu0 and accessed by gpu0 as well: for gpu0 itself the
 * preference wins (seed: when the preferred location is also the
 * accessed-by device, SET_PREFERRED_LOCATION's policy overrides), and data
 * not yet at its preferred location migrates to it when gpu0 touches it,
 * rather than being mapped remotely from the host. */
static void test_pref_over_accessed_by(void)
{
	CUdeviceptr p;
	long long u0 = used(0);

	cuMemAllocManaged(&p, 4 * MIB, CU_MEM_ATTACH_GLOBAL);
	cuMemPrefetchAsync(p, 4 * MIB, host, 0, s0);
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, dev(0));
	cuMemAdvise(p, 4 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0));
	sync_all();
	cuemuAccess(s0, p, 4 * MIB, CUEMU_ACCESS_READ);
	sync_all();
	is_int(used(0) - u0, 4 * MIB, "policy: preferred gpu0 and accessed by "
	       "gpu0: a gpu0 access migrates the data to its preferred location");
	cuMemFree(p);
}

/* A program that prefetches a block to a GPU and then writes its first
 * byte, again and again, faults at the same address each time, and each
 * fault moves the block back: that is progress, not a fault the handler
 * cannot resolve, and must never be passed on as a crash. */
static void test_refault_same_address(void)
{
	CUdeviceptr p;
	volatile unsigned char *b;
	volatile int i = 0, crashed = 0;

	cuMemAllocManaged(&p, 64 * KIB, CU_MEM_ATTACH_GLOBAL);
	b = (volatile unsigned char *)p;
	if (sigsetjmp(jb, 1) == 0) {
		for (i = 0; i < 40; i++) {
			cuMemPrefetchAsync(p, 64 * KIB, dev(0), 0, s0);
			sync_all();
			b[0] = (unsigned char)i;
		}
	} else {
		crashed = 1;
	}
	ok(!crashed && i == 40 && b[0] == 39, "cpu: 40 faults in a row at one "
	   "address, each after a prefetch moved it away, all resolve "
	   "(stopped at %d)", i);
	cuMemFree(p);
}

static void test_copies(void)
{
	CUdeviceptr p, d;
	unsigned char src[8192], back[8192];
	size_t i;

	for (i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 7);
	cuMemAllocManaged(&p, 1 * MIB, CU_MEM_ATTACH_GLOBAL);
	cuMemAlloc(&d, 1 * MIB);
	cuMemPrefetchAsync(p, 1 * MIB, dev(0), 0, s0);
	sync_all();
	is_res(cuMemcpyHtoD(p + 4096, src, sizeof src), CUDA_SUCCESS,
	       "copy: host to managed memory resident on gpu0");
	is_res(cuMemcpyDtoD(d, p + 4096, sizeof src), CUDA_SUCCESS,
	       "copy: managed to device memory");
	is_res(cuMemcpyDtoH(back, d, sizeof back), CUDA_SUCCESS,
	       "copy: device memory back to the host");
	ok(!memcmp(src, back, sizeof src), "copy: the bytes went through");
	for (i = 0; i < sizeof src; i++)
		if (((volatile unsigned char *)p)[4096 + i] != src[i])
			break;
	ok(i == sizeof src, "copy: and the CPU reads them in place");
	cuMemFree(d);
	cuMemFree(p);
}

/* A copy a GPU made reads managed memory through a temporary opening of
 * its pages; once the host holds them alone again it may write them, by
 * a copy from pinned memory or by its own stores, without faulting for
 * ever (the opening used to be put back read-only over the host's write
 * access). */
static void test_write_after_gpu_copy(void)
{
	const size_t n = 10240000; /* not a multiple of a fault block */
	volatile int crashed = 0;
	unsigned char *pinned;
	CUdeviceptr m, d;

	cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL);
	cuMemAlloc(&d, n);
	cuMemAllocHost((void **)&pinned, n);
	memset(pinned, 5, n);
	fill((void *)m, 3, n);
	is_res(cuMemcpyDtoDAsync(d, m, n, s0), CUDA_SUCCESS,
	       "write after a GPU copy: gpu0 copies the managed buffer out");
	sync_all();
	if (sigsetjmp(jb, 1) == 0)
		memset((void *)m, 4, n);
	else
		crashed = 1;
	ok(!crashed, "write after a GPU copy: the host's stores to all of it "
	   "resolve");
	is_res(cuMemcpyHtoDAsync(m, pinned, n, s0), CUDA_SUCCESS,
	       "write after a GPU copy: a copy from pinned memory into it");
	sync_all();
	ok(((volatile unsigned char *)m)[n - 1] == 5,
	   "write after a GPU copy: its last byte reads what the copy wrote");
	cuMemFreeHost(pinned);
	cuMemFree(d);
	cuMemFree(m);
}

/* ------------------------------------------------------------------ */
/* A kernel touching every other page: each page its kernel opens is a
 * mapping of its own between closed ones, and a process may have 65,530
 * (vm.max_map_count). 384 MiB is 49,152 such pages, 98,304 mappings. */

#define SCATTER (384 * MIB)

struct scatter {
	volatile unsigned char *b;
	int passes;
};

static void kernel_scatter(void *arg)
{
	struct scatter *x = arg;

	for (int pass = 0; pass < x->passes; pass++)
		for (size_t i = 0; i < SCATTER; i += 8 * KIB)
			x->b[i] += 1;
}

/* The model time of a kernel making passes over every other page of a
 * fresh SCATTER on gpu0, or 0. */
static unsigned long long scatter_ns(CUstream s, int passes)
{
	unsigned long long t0 = 0, t1 = 0;
	struct scatter x = { NULL, passes };
	CUdeviceptr p;
	int bad;

	if (cuMemAllocManaged(&p, SCATTER, CU_MEM_ATTACH_GLOBAL))
		return 0;
	x.b = (volatile unsigned char *)p;
	bad = cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t0) ||
	      cuemuLaunchHostFunc(s, kernel_scatter, &x) ||
	      cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t1);
	bad = bad || x.b[0] != passes || x.b[SCATTER - 8 * KIB] != passes ||
	      x.b[4 * KIB] != 0;
	cuMemFree(p);
	return bad ? 0 : t1 - t0;
}

/* The child: one pass, then two; "ns1", "ns2" lines. */
static int scatter_child(void)
{
	CUcontext c;
	CUstream s;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c) || cuStreamCreate(&s, CU_STREAM_NON_BLOCKING))
		return 2;
	printf("ns1 %llu\n", scatter_ns(s, 1));
	fflush(stdout);
	printf("ns2 %llu\n", scatter_ns(s, 2));
	cuStreamDestroy(s);
	return 0;
}

static void test_scattered_kernel(void)
{
	char out[256];
	long long ns1, ns2;
	int rc;

	snprintf(out, sizeof out, "%s/cuemu-fault-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	rc = run_self("scatter", NULL, out, NULL, 300);
	ns1 = child_value(out, "ns1", -1);
	ns2 = child_value(out, "ns2", -1);
	unlink(out);
	is_int(rc, 0, "scatter: a kernel touching every other page of 384 MiB "
	       "runs to its end (the process's memory map does not fill)");
	ok(ns1 > 0, "scatter: it costs model time (%lld ns)", ns1);
	is_int(ns2, ns1, "scatter: touching those pages again in the same "
	       "kernel, after its looks were closed, costs nothing more");
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	struct sigaction sa;
	CUcontext c0, c1;
	int n = 0;

	if (role && !strcmp(role, "scatter"))
		return scatter_child();

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = test_handler;
	sigaction(SIGSEGV, &sa, NULL);
	if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&n) != CUDA_SUCCESS ||
	    n < 2) {
		ok(0, "cuInit with at least two devices");
		return done_testing();
	}
	cuDevicePrimaryCtxRetain(&c1, 1);
	cuCtxSetCurrent(c1);
	cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
	cuDevicePrimaryCtxRetain(&c0, 0);
	cuCtxSetCurrent(c0);
	cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING);
	if (!skip_faults("cpu faults"))
		test_cpu_faults();
	if (!skip_faults("chaining"))
		test_chaining();
	if (!skip_faults("repeated faults at one address"))
		test_refault_same_address();
	if (!skip_faults("emulated kernels"))
		test_kernels();
	test_access();
	test_pref_over_accessed_by();
	if (!skip_faults("copies of managed memory"))
		test_copies();
	if (!skip_faults("writes after a GPU's copy"))
		test_write_after_gpu_copy();
	if (!skip_faults("a kernel touching every other page"))
		test_scattered_kernel();
	return done_testing();
}
