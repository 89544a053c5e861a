/*
 * test_ktime.c - what kernels the PTX engine runs (tests/unit/kernels/
 * ktime.cu) cost and fault: exact GPU fault counts and migrated bytes of
 * known access patterns over managed memory (every 4 KiB page once, one
 * byte a 2 MiB block, every 64 KiB, pages in a scrambled order, a second
 * launch over what the first brought), and the terms of a kernel's model
 * time: a stream of device memory takes its bytes at the HBM rate, a
 * compute-bound kernel's time follows its instructions, the SMs its grid
 * fills, and the topology's clock_rate and warp_issue_per_clock (children
 * on machines of their own, halved), and CUDA events around a launch read
 * that model time; a sparse touch moves whole 32-byte sectors, of device
 * memory and of managed memory resident on the GPU alike, and the DRAM
 * moves the 64-byte units they lie in; host memory mapped into the GPU
 * costs what crosses the link, each way at its own rate, and its read
 * requests at the rate the link serves them; every launch costs its fixed
 * time, and a grid of many blocks the SMs' time to take them; a kernel
 * after its GPU sat idle, its wake (the others follow a kernel at once,
 * keep_awake); writes to
 * read-mostly memory are serviced a batch's entries a block at a time.
 * Rates themselves are bench/'s rows.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cuda.h"
#include "cuemu.h"
#include "tap.h"
#include "ctl_alloc.h"
#include "kernel_file.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)

static CUmodule mod;
static CUstream s0;

static CUfunction fn(const char *name)
{
	return kernel_fn(mod, name);
}

static unsigned long long now(void)
{
	unsigned long long t = 0;

	cuemuStreamGetTime(s0, &t);
	return t;
}

/* A one-block kernel on s0, so that the next follows a kernel at once,
 * as on a GPU kept busy: its time is its own terms, not the wake of an
 * idle GPU (test_wake prices that). */
static void keep_awake(void)
{
	static CUdeviceptr warm;
	int iters = 0;
	void *args[] = { &warm, &iters };

	if (!warm && cuMemAlloc(&warm, 128 * sizeof(unsigned)) != CUDA_SUCCESS)
		return;
	cuLaunchKernel(fn("spin"), 1, 1, 1, 128, 1, 1, 0, s0, args, NULL);
}

/* The launch call's own time on the calling thread, before its kernel
 * can start (uvm.launch_call_ns, probes/results/launchloop.txt): 4 us
 * of LAUNCH_NS, the rest the GPU's. */
#define LAUNCH_CALL_NS 4000ULL

/* Launches f over grid x block with shared bytes of dynamic shared memory
 * and args on s0 and waits: the model time it took from the call, or ~0
 * where it failed. */
static unsigned long long launch_shared(const char *name, unsigned grid,
					unsigned block, unsigned shared,
					void **args)
{
	unsigned long long t0;

	/* an idle stream comes up to the host's time at a synchronization:
	 * what the host did before (CPU faults) is not the kernel's */
	cuStreamSynchronize(s0);
	keep_awake();
	cuStreamSynchronize(s0);
	t0 = now();
	if (cuLaunchKernel(fn(name), grid, 1, 1, block, 1, 1, shared, s0, args,
			   NULL) != CUDA_SUCCESS ||
	    cuStreamSynchronize(s0) != CUDA_SUCCESS)
		return ~0ULL;
	return now() - t0;
}

/* The model time of kernel name, as launch_shared's, without shared
 * memory. */
static unsigned long long launch(const char *name, unsigned grid,
				 unsigned block, void **args)
{
	return launch_shared(name, grid, block, 0, args);
}

/* Launches name right after whatever s0 ran last, nothing between: its
 * model time from the call, as launch() times it; ~0 where it failed. */
static unsigned long long launch_now(const char *name, unsigned grid,
				     unsigned block, void **args)
{
	unsigned long long t0 = now();

	if (cuLaunchKernel(fn(name), grid, 1, 1, block, 1, 1, 0, s0, args,
			   NULL) != CUDA_SUCCESS ||
	    cuStreamSynchronize(s0) != CUDA_SUCCESS)
		return ~0ULL;
	return now() - t0;
}

/* n bytes of managed memory, every page resident on the host. */
static CUdeviceptr on_host(size_t n)
{
	CUdeviceptr p = 0;

	cuMemAllocManaged(&p, n, CU_MEM_ATTACH_GLOBAL);
	memset((void *)p, 1, n);
	return p;
}

static void touch(CUdeviceptr p, unsigned long long n,
		  unsigned long long stride)
{
	unsigned long long t = n / stride;
	void *args[] = { &p, &n, &stride };

	launch("touch", (unsigned)((t + 255) / 256), 256, args);
}

static void test_faults(void)
{
	CUdeviceptr p = on_host(8 * MIB);
	unsigned long long pages = 2048, n;
	void *args[] = { &p, &pages };

	touch(p, 8 * MIB, 4 * KIB);
	is_int(cu_int(p, "counters", "gpu_faults"), 2048, "faults: a kernel "
	       "touching each 4 KiB page of 8 MiB on the host once takes "
	       "2048 GPU faults, one a page");
	is_int(cu_int(p, "counters", "bytes_htod"), 8 * MIB,
	       "faults: and migrates the 8 MiB to the GPU");
	is_int(cu_int(p, "residency", "gpu0"), 8 * MIB,
	       "faults: all of it now on gpu0");
	touch(p, 8 * MIB, 4 * KIB);
	is_int(cu_int(p, "counters", "gpu_faults"), 2048, "faults: a second "
	       "launch over the now-resident data faults zero times");
	is_int(cu_int(p, "counters", "bytes_htod"), 8 * MIB,
	       "faults: and migrates nothing");
	cuMemFree(p);

	p = on_host(64 * MIB);
	touch(p, 64 * MIB, 2 * MIB);
	is_int(cu_int(p, "counters", "gpu_faults"), 32, "faults: one byte "
	       "every 2 MiB of 64 MiB takes 32 faults");
	is_int(cu_int(p, "counters", "bytes_htod"), 32 * 64 * KIB,
	       "faults: each bringing its 64 KiB big page, too sparse to "
	       "grow (2 MiB in all)");
	cuMemFree(p);

	p = on_host(8 * MIB);
	touch(p, 8 * MIB, 64 * KIB);
	is_int(cu_int(p, "counters", "gpu_faults"), 128, "faults: one touch "
	       "every 64 KiB of 8 MiB takes 128, one a big page");
	is_int(cu_int(p, "counters", "bytes_htod"), 8 * MIB, "faults: and "
	       "the prefetch heuristic grows them to the whole 8 MiB");
	cuMemFree(p);

	p = on_host(8 * MIB);
	n = launch("scramble", 8, 256, args);
	ok(n != ~0ULL, "faults: the scrambled kernel runs");
	is_int(cu_int(p, "counters", "gpu_faults"), 2048, "faults: 2048 "
	       "pages touched in a scrambled order take 2048 faults too");
	is_int(cu_int(p, "residency", "gpu0"), 8 * MIB,
	       "faults: and bring all 8 MiB");
	cuMemFree(p);
}

/* The model time of the touch kernel: one byte every stride of n. */
static unsigned long long touch_ns(CUdeviceptr p, unsigned long long n,
				   unsigned long long stride)
{
	unsigned long long t = n / stride;
	void *args[] = { &p, &n, &stride };

	return launch("touch", (unsigned)((t + 255) / 256), 256, args);
}

/* The rates the default machine (an H200) gives a kernel: its HBM, a
 * launch's fixed time and an SM's time to take a block, the host link's
 * rates toward the GPU and of read requests (uvm.h). */
#define HBM_GBPS 1850.0
#define SMS 132
#define LAUNCH_NS 5600ULL
#define BLOCK_NS 85ULL
#define HOST_READ_GBPS 51.0
#define HOST_READ_MRPS 198.0
/* a load of global memory's latency in a warp's chain (uvm.load_latency_ns,
 * probes/results/chains.txt), one served by the SM's L1 (l1_latency_ns) */
#define LOAD_NS 141ULL
/* ... and a global load whose line the L2 does not hold (the DRAM's:
 * 350 ns a hop, probes/results/tlb.txt) */
#define DRAM_NS 346ULL
#define L1_NS 16ULL
/* ns of n cycles of the H200's 1980 MHz: a line through an SM's memory
 * pipeline is one, for each of the SM's warps */
#define CYCLES_NS(n) ((unsigned long long)((n) / 1.98))

/* The pages a second the default machine's DRAM opens, a row each at
 * least (uvm.dram_page_mps, probes/results/prefnoop.txt), a nanosecond */
#define DRAM_PAGES_NS 12.2

/* A warp's memory instruction moves the 32-byte sectors its lanes touch,
 * not their bytes nor the 2 MiB blocks around them, and the DRAM the
 * 64-byte units they lie in: one byte every 4 KiB of 64 MiB is 16,384
 * units read and 16,384 written, 1 MiB of buffer at the HBM rate; but
 * each of its 16,384 pages opens a row of the DRAM, which takes longer,
 * after the launch's fixed time, in device memory and in managed memory
 * resident on the GPU alike. The same touches right after find their
 * bytes in the L2, which kept them (their 2 MiB of units, where their
 * pages' 64 MiB it could not): no rows, and the reads' units spared. */
static void test_sectors(void)
{
	unsigned long long n = 64 * MIB,
		want = LAUNCH_NS + (unsigned long long)(16384 / DRAM_PAGES_NS),
		warm = LAUNCH_NS + (unsigned long long)(16384ULL * 32 / HBM_GBPS);
	unsigned long long t, t2 = 0;
	CUdeviceptr p = 0;
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };

	cuMemAlloc(&p, n);
	cuMemsetD8(p, 0, n);
	t = touch_ns(p, n, 4 * KIB);
	is_int(t, want, "sectors: 16,384 one-byte touches of device memory "
	       "open 16,384 pages of the DRAM at 12,200 a microsecond after "
	       "the launch's 5.6 us (%llu ns), longer than their 64-byte "
	       "units' 1 MiB at 1850 GB/s (567 ns), not their 32 KiB of "
	       "bytes nor 512 KiB of sectors", t);
	t = touch_ns(p, n, 4 * KIB);
	ok(t >= warm && t < LAUNCH_NS + 600, "sectors: the same touches "
	   "again find them in the L2: no rows, the writes' units (%llu ns: "
	   "the loads' latency bounds it)", t);
	t2 = touch_ns(p, n, 2 * MIB);
	cuMemFree(p);

	cuMemAllocManaged(&p, n, CU_MEM_ATTACH_GLOBAL);
	memset((void *)p, 0, n);
	cuMemPrefetchAsync(p, n, gpu0, 0, s0);
	cuStreamSynchronize(s0);
	t = touch_ns(p, n, 4 * KIB);
	is_int(t, want, "sectors: the same touches of managed memory resident "
	       "on the GPU cost the same %llu ns, not 64 MiB of 2 MiB blocks "
	       "(36,275 ns)", t);
	t = touch_ns(p, n, 2 * MIB);
	ok(t == t2 && t >= LAUNCH_NS + CYCLES_NS(32 * 8) + LOAD_NS &&
	   t < LAUNCH_NS + CYCLES_NS(32 * 8) + LOAD_NS + 100,
	   "sectors: and one byte a 2 MiB block costs its thread's load, add "
	   "and store after the launch: its 32 lines through the SM's memory "
	   "pipeline, as many again for each of the block's other 7 warps, "
	   "then a load's latency, as in device memory (%llu ns, %llu there), "
	   "not 32 blocks", t, t2);
	cuMemFree(p);
}

/* The default machine's service of a batch's writes to one 2 MiB block
 * of read-duplicated memory (uvm.read_mostly_block_ns), and the wake of
 * the fault service a wave of faults pays (uvm.fault_wave_ns). */
#define RM_BLOCK_NS 1355000ULL
#define WAVE_NS 75000ULL

/* Writes to read-mostly memory resident on the writing GPU: each warp's
 * write to a page is a fault entry of its own, and the driver services a
 * batch's entries block by block, once a block. 8 MiB is 4 blocks. */
static void test_read_mostly(void)
{
	unsigned long long n = 8 * MIB, q = n / 16, t;
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUdeviceptr p = on_host(n);
	void *args[] = { &p, &q };

	cuMemPrefetchAsync(p, n, gpu0, 0, s0);
	cuStreamSynchronize(s0);
	if (!ok(cuMemAdvise(p, n, CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0) ==
		CUDA_SUCCESS, "read-mostly: advised on gpu0, where it is")) {
		cuMemFree(p);
		return;
	}
	t = touch_ns(p, n, 4 * KIB);
	ok(t >= 8 * RM_BLOCK_NS + WAVE_NS + LAUNCH_NS &&
	   t < 8 * RM_BLOCK_NS + WAVE_NS + LAUNCH_NS + 1000, "read-mostly: "
	   "one write a page of 8 MiB, one warp's lanes on 32 pages: 2,048 "
	   "entries, 512 a block, so 2 batches a block and 8 block services, "
	   "one wave (%llu ns), not 2,048 page services", t);
	t = launch("stream", 4, 256, args);
	/* and each thread's 512 steps of a load after the store before it
	 * (the same pointer: the compiler keeps them in order), each the
	 * store's 4 lines through the SM's pipeline for each of its 8 warps
	 * and a load's latency from the DRAM: the prefetch moved the pages,
	 * and the model passes a copy's lines through the L2, not a
	 * migration's */
	ok(t >= 64 * RM_BLOCK_NS + WAVE_NS + LAUNCH_NS +
		512 * (DRAM_NS + CYCLES_NS(4 * 8)) &&
	   t < 64 * RM_BLOCK_NS + WAVE_NS + LAUNCH_NS +
		512 * (DRAM_NS + CYCLES_NS(4 * 8)) + 10000,
	   "read-mostly: "
	   "a stream of int4 writes each page from 8 warps (512 bytes each): "
	   "16,384 entries, 16 batches a block, 64 block services, one wave "
	   "(%llu ns)", t);
	cuMemFree(p);
}

/* A fault batch's service (uvm.fault_batch_ns). */
#define BATCH_NS 20000ULL

/* A read duplication leaves the GPU's mapping read-only, also after the
 * advice is taken back: each page's first write faults, an entry that
 * only upgrades the mapping, which fills batches but has no service of
 * its own; the next kernel writes freely. Pages that left the GPU and
 * came back are mapped anew, writable. (An H200: 0.9 to 1.4 ms for
 * 64 MiB, probes/results/advise.txt.) */
static void test_read_only_after_read_mostly(void)
{
	unsigned long long n = 8 * MIB, t0, t1, t2, t3;
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };
	CUdeviceptr p = on_host(n);

	cuMemPrefetchAsync(p, n, gpu0, 0, s0);
	cuStreamSynchronize(s0);
	touch_ns(p, n, 4 * KIB);
	t0 = touch_ns(p, n, 4 * KIB);
	if (!ok(cuMemAdvise(p, n, CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0) ==
		CUDA_SUCCESS && cuMemAdvise(p, n, CU_MEM_ADVISE_UNSET_READ_MOSTLY,
					    gpu0) == CUDA_SUCCESS,
		"read-only after read-mostly: the advice given and taken back")) {
		cuMemFree(p);
		return;
	}
	t1 = touch_ns(p, n, 4 * KIB);
	t2 = touch_ns(p, n, 4 * KIB);
	ok(t1 >= t0 + 8 * BATCH_NS + WAVE_NS - 2000 &&
	   t1 <= t0 + 8 * BATCH_NS + WAVE_NS + 2000, "read-only after "
	   "read-mostly: a write a page of 8 MiB faults each page, 2,048 "
	   "upgrades in 8 batches and one wave (%llu ns, %llu before)", t1, t0);
	ok(t2 + 2000 >= t0 && t2 <= t0 + 2000, "read-only after read-mostly: "
	   "the same writes right after upgrade nothing (%llu ns)", t2);
	cuMemAdvise(p, n, CU_MEM_ADVISE_SET_READ_MOSTLY, gpu0);
	cuMemAdvise(p, n, CU_MEM_ADVISE_UNSET_READ_MOSTLY, gpu0);
	cuMemPrefetchAsync(p, n, host, 0, s0);
	cuMemPrefetchAsync(p, n, gpu0, 0, s0);
	cuStreamSynchronize(s0);
	touch_ns(p, n, 4 * KIB);
	t3 = touch_ns(p, n, 4 * KIB);
	ok(t3 + 2000 >= t0 && t3 <= t0 + 2000, "read-only after read-mostly: "
	   "pages that went to the host and back are mapped writable: the "
	   "writes after them as before (%llu ns)", t3);
	cuMemFree(p);
}

/* The default machine's advice calls over pages a GPU holds, a MiB
 * (uvm.advise_*_ns_mib, probes/results/advise.txt). */
#define ADVISE_AB_NS_MIB 19000ULL
#define ADVISE_PREF_NS_MIB 80ULL

/* An advice call rewrites the mappings of the pages a GPU holds: the
 * host waits for it, a MiB at a time, and the GPU's next kernel starts
 * that much later; its SMs slept, but not its memory, which the
 * rewriting kept up, so the kernel pays only the wake's share a peer's
 * traffic leaves. An advice that changes nothing, or over pages the
 * host holds, takes nothing. */
static void test_advice_time(void)
{
	unsigned long long n = 64 * MIB, base, t, t2, t3;
	CUmemLocation gpu0 = { CU_MEM_LOCATION_TYPE_DEVICE, 0 };
	CUdeviceptr p = on_host(n), h = on_host(n);
	unsigned long long q = 4 * KIB, m = n;
	void *args[] = { &p, &m, &q };

	cuMemPrefetchAsync(p, n, gpu0, 0, s0);
	cuStreamSynchronize(s0);
	touch_ns(p, n, 4 * KIB);
	base = launch_now("touch", (unsigned)(n / q / 256), 256, args);
	cuMemAdvise(p, n, CU_MEM_ADVISE_SET_ACCESSED_BY, gpu0);
	t = launch_now("touch", (unsigned)(n / q / 256), 256, args);
	ok(t >= base + 64 * ADVISE_AB_NS_MIB &&
	   t < base + 64 * ADVISE_AB_NS_MIB + 6000, "advice's time: "
	   "SetAccessedBy over 64 MiB gpu0 holds takes the host 64 x 19 us, "
	   "and the kernel after it little more than back to back (%llu ns, "
	   "%llu)", t, base);
	cuMemAdvise(p, n, CU_MEM_ADVISE_SET_ACCESSED_BY, gpu0);
	t2 = launch_now("touch", (unsigned)(n / q / 256), 256, args);
	ok(t2 < base + 2000, "advice's time: the same advice again changes "
	   "nothing and takes nothing (%llu ns)", t2);
	cuMemAdvise(h, n, CU_MEM_ADVISE_SET_ACCESSED_BY, gpu0);
	t3 = launch_now("touch", (unsigned)(n / q / 256), 256, args);
	ok(t3 < base + 2000, "advice's time: over pages the host holds, "
	   "nothing (%llu ns)", t3);
	cuMemAdvise(p, n, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu0);
	t3 = launch_now("touch", (unsigned)(n / q / 256), 256, args);
	ok(t3 >= t2 + 64 * ADVISE_PREF_NS_MIB &&
	   t3 < t2 + 64 * ADVISE_PREF_NS_MIB + 2000, "advice's time: a "
	   "preferred location 80 ns a MiB (%llu ns)", t3);
	cuMemFree(p);
	cuMemFree(h);
}

/* The model time of the spin kernel: grid blocks of 128 threads, iters
 * rounds each. */
static unsigned long long spin(CUdeviceptr out, unsigned grid, int iters)
{
	void *args[] = { &out, &iters };

	return launch("spin", grid, 128, args);
}

/* The same in blocks of 512 threads: 16 warps an SM, four to each of its
 * schedulers, which issue a round's instructions in more cycles than one
 * warp's chain of a round takes (a multiply-add's and two 2 ns results):
 * a compute-bound kernel. */
#define WIDE 512
static unsigned long long spin_wide(CUdeviceptr out, unsigned grid,
				    int iters)
{
	void *args[] = { &out, &iters };

	return launch("spin", grid, WIDE, args);
}

static void test_time(unsigned long long *spin_ns)
{
	CUdeviceptr a, b, out;
	unsigned long long n = 64 * MIB / 16, t, t2, half;
	void *args[] = { &a, &b, &n };
	CUevent e0, e1;
	float ms = 0;

	cuMemAlloc(&a, 64 * MIB);
	cuMemAlloc(&b, 64 * MIB);
	cuMemsetD8(a, 3, 64 * MIB);
	cuCtxSynchronize();
	t = launch("copy", 4 * SMS, 256, args);
	is_int(t, (long long)(LAUNCH_NS + 64 * MIB / HBM_GBPS), "time: a copy "
	       "of 64 MiB within device memory reads and writes 64 MiB of "
	       "buffer at the HBM rate (1850 GB/s) after the launch's fixed "
	       "time: %llu ns, its instructions hidden behind it", t);
	cuEventCreate(&e0, CU_EVENT_DEFAULT);
	cuEventCreate(&e1, CU_EVENT_DEFAULT);
	cuStreamSynchronize(s0);   /* e0 at the host's time: the call next */
	cuEventRecord(e0, s0);
	cuLaunchKernel(fn("copy"), 4 * SMS, 1, 1, 256, 1, 1, 0, s0, args, NULL);
	cuEventRecord(e1, s0);
	cuEventSynchronize(e1);
	cuEventElapsedTime(&ms, e0, e1);
	ok(ms > 0 && ms * 1e6 > (double)t - 1000 && ms * 1e6 < (double)t + 1000,
	   "time: cuEventElapsedTime around the launch reads that model "
	   "time (%.4f ms)", ms);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	cuMemFree(a);
	cuMemFree(b);

	cuMemAlloc(&out, 2 * SMS * WIDE * 4);
	t = spin_wide(out, SMS, 1000) - LAUNCH_NS;
	t2 = spin_wide(out, SMS, 2000) - LAUNCH_NS;
	*spin_ns = t;
	ok(t > 100 && t2 > 1.9 * t && t2 < 2.1 * t, "time: a compute-bound "
	   "kernel's time follows its instructions (%llu ns for 1000 rounds, "
	   "%llu for 2000)", t, t2);
	half = spin_wide(out, SMS / 2, 1000) - LAUNCH_NS;
	ok(half == t, "time: half the grid on half the SMs takes as long "
	   "(%llu ns): the other SMs idle", half);
	t2 = spin_wide(out, 2 * SMS, 1000) - LAUNCH_NS;
	ok(t2 > 1.95 * t && t2 < 2.05 * t, "time: twice the grid on every SM "
	   "takes twice as long (%llu ns)", t2);
	cuMemFree(out);
}

/* A kernel after its GPU sat idle pays the wake (uvm.wake_*,
 * probes/results/idlewake.txt): 10 ms of idle, 18 us a tenfold past
 * 0.3 ms, 27.4 us; back to back, none. */
static void test_wake(void)
{
	CUdeviceptr out;
	int iters = 100;
	void *args[] = { &out, &iters };
	unsigned long long t0, busy, idle;

	cuMemAlloc(&out, SMS * 128 * 4);
	busy = launch("spin", SMS, 128, args);
	cuemuStreamSleep(s0, 10000000);
	cuStreamSynchronize(s0);
	t0 = now();
	cuLaunchKernel(fn("spin"), SMS, 1, 1, 128, 1, 1, 0, s0, args, NULL);
	cuStreamSynchronize(s0);
	idle = now() - t0;
	ok(idle > busy + 27000 && idle < busy + 28000, "wake: after 10 ms "
	   "idle a kernel takes %llu ns, %llu back to back: 27.4 us more",
	   idle, busy);
	cuMemFree(out);
}

/* A GPU whose memory another GPU's work kept busy wakes faster
 * (uvm.wake_peer_share, probes/results/idlepeer.txt): 10 ms of idle that
 * ends in a peer copy out of gpu0 costs its next kernel 0.35 of the
 * 27.4 us, 9.6 us. */
static void test_wake_peer(void)
{
	CUdeviceptr out, src = 0, dst = 0;
	CUcontext c0, c1;
	int iters = 100, n = 0;
	void *args[] = { &out, &iters };
	unsigned long long t0, busy, kept;

	if (cuDeviceGetCount(&n) || n < 2) {
		printf("ok %d - wake kept by a peer # SKIP one GPU\n", ++tap_n);
		return;
	}
	cuCtxGetCurrent(&c0);
	cuDevicePrimaryCtxRetain(&c1, 1);
	cuCtxSetCurrent(c1);
	cuMemAlloc(&dst, 64 * MIB);
	cuCtxSetCurrent(c0);
	cuMemAlloc(&src, 64 * MIB);
	cuMemAlloc(&out, SMS * 128 * 4);
	busy = launch("spin", SMS, 128, args);
	cuemuStreamSleep(s0, 10000000);
	ok(cuMemcpyPeerAsync(dst, c1, src, c0, 64 * MIB, s0) == CUDA_SUCCESS,
	   "wake kept: a peer copy out of gpu0 ends its 10 ms of idle");
	cuStreamSynchronize(s0);
	t0 = now();
	cuLaunchKernel(fn("spin"), SMS, 1, 1, 128, 1, 1, 0, s0, args, NULL);
	cuStreamSynchronize(s0);
	kept = now() - t0;
	ok(kept > busy + 9000 && kept < busy + 10200, "wake kept: gpu0's next "
	   "kernel takes %llu ns, %llu back to back: 9.6 us more, where 10 "
	   "ms alone costs 27.4", kept, busy);
	cuMemFree(out);
	cuMemFree(src);
	cuCtxSetCurrent(c1);
	cuMemFree(dst);
	cuCtxSetCurrent(c0);
	cuDevicePrimaryCtxRelease(1);
}

/* A kernel stalled on faults leaves its GPU as idle as a sleep does
 * (probes/results/afterfault.txt: on an H200 the kernel after one that
 * waited 20 ms on faults from the host paid what one after 15 ms of sleep
 * pays, on memory the faults never touched): the next kernel pays the wake
 * of the faults' time, back to back with it. Faults a peer GPU served kept
 * the fabric up, as a peer's reads do: only uvm.wake_peer_share of it. */
static void test_wake_after_faults(void)
{
	CUdeviceptr out, p = on_host(64 * MIB);
	CUcontext c0, c1;
	int iters = 100, n = 0;
	void *args[] = { &out, &iters };
	unsigned long long busy, after, again, peer;

	cuMemAlloc(&out, SMS * 128 * 4);
	busy = launch("spin", SMS, 128, args);
	touch(p, 64 * MIB, 4 * KIB);
	after = launch_now("spin", SMS, 128, args);
	ok(after > busy + 20000 && after <= busy + 38000, "wake after faults: "
	   "the kernel right after 16,384 faults from the host takes %llu ns, "
	   "%llu after a kernel that ran: their stall's wake", after, busy);
	touch(p, 64 * MIB, 4 * KIB);
	again = launch_now("spin", SMS, 128, args);
	ok(again >= busy && again < busy + 100, "wake after faults: after the "
	   "same touches of the now-resident pages, none (%llu ns)", again);
	if (cuDeviceGetCount(&n) || n < 2) {
		printf("ok %d - wake after a peer's faults # SKIP one GPU\n",
		       ++tap_n);
	} else {
		CUmemLocation gpu1 = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };

		cuCtxGetCurrent(&c0);
		cuDevicePrimaryCtxRetain(&c1, 1);
		ok(cuMemPrefetchAsync_v2(p, 64 * MIB, gpu1, 0, s0) ==
		   CUDA_SUCCESS && cuStreamSynchronize(s0) == CUDA_SUCCESS,
		   "wake after a peer's faults: 64 MiB prefetched to gpu1");
		touch(p, 64 * MIB, 4 * KIB);
		peer = launch_now("spin", SMS, 128, args);
		ok(peer > busy && (peer - busy) * 100 < (after - busy) * 45,
		   "wake after a peer's faults: gpu0's kernel right after its "
		   "faults from gpu1 takes %llu ns, under half the host's "
		   "wake", peer);
		cuDevicePrimaryCtxRelease(1);
	}
	cuMemFree(p);
	cuMemFree(out);
}

/* Rereads come from the caches: 8,192 warps each sum 64 runs of 32
 * floats of one 4 MiB array, 64 MiB of sectors read and 1 MiB written.
 * The DRAM moves the array once and the sums once (5 MiB, 1.4 us at 1850
 * GB/s of buffer); the caches serve the 65 MiB of sectors, at the L2's
 * rate (uvm.cache_gbps, 9,000 GB/s, 7.6 us) at most, at the L1's (30,500,
 * 2.2 us) where a block's warps read the lines the one beside it brought
 * in, as here; the chains of its loads then bound it. Every sector's DRAM
 * unit took 18.4 us. */
static void test_cache(void)
{
	CUdeviceptr a = 0, out = 0;
	unsigned m = 1u << 20, rounds = 64;
	void *args[] = { &a, &m, &rounds, &out };
	unsigned long long t, sectors = 65ULL * MIB;

	if (cuMemAlloc(&a, m * 4) || cuMemAlloc(&out, 1 * MIB) ||
	    cuMemsetD8(a, 0, m * 4)) {
		ok(0, "cache: two buffers");
		return;
	}
	t = launch("reread", 1024, 256, args);
	ok(t >= LAUNCH_NS + sectors * 10 / 305 / 1000 &&
	   t <= LAUNCH_NS + sectors / 9 / 1000, "cache: 64 MiB of sectors "
	   "reread from 4 MiB take between the L1's rate and the L2's after "
	   "the launch (%llu ns), not 65 MiB of DRAM units (18.4 us)", t);
	cuMemFree(a);
	cuMemFree(out);
}

/* The DRAM moves 64 bytes at a time: one byte every 32 bytes of 64 MiB
 * (two sectors a unit) costs what one byte every 64 does, 1 M units each
 * way; by sectors alone the second would cost half. */
static void test_dram(void)
{
	unsigned long long n = 64 * MIB, t, t32, t64,
		want = LAUNCH_NS + (unsigned long long)(2 * MIB * 64 / 2 /
							HBM_GBPS);
	CUdeviceptr p = 0;

	cuMemAlloc(&p, n);
	cuMemsetD8(p, 0, n);
	/* right after a touch of a byte a page: the L2 kept their 2 MiB of
	 * units, a 32nd of the pages, which is all it spares a touch of
	 * every 64th byte of them */
	touch_ns(p, n, 4 * KIB);
	t = touch_ns(p, n, 64);
	/* each after a kernel whose 64 MiB the L2 keeps none of */
	t32 = touch_ns(p, n, 32);
	t64 = touch_ns(p, n, 64);
	cuMemFree(p);
	ok(t < want && t > want - (want - LAUNCH_NS) / 32 - 100, "dram: "
	   "right after a byte a page of the same 64 MiB, the L2 spares only "
	   "what it kept of them, a 32nd of the units (%llu ns)", t);
	is_int(t64, want, "dram: one byte every 64 of 64 MiB moves 1 M 64-byte "
	       "units each way, 64 MiB of buffer at 1850 GB/s after the launch "
	       "(%llu ns; by sectors, old: 18,137 ns without the launch)", t64);
	is_int(t32, t64, "dram: one byte every 32 costs the same (%llu ns): "
	       "twice the sectors, the same units", t32);
}

/* The index a chase follows: from each of lines 128-byte lines to the
 * next, the last back to the first. */
static int chase_ring(CUdeviceptr next, unsigned lines)
{
	unsigned *h = calloc((size_t)lines * 32, sizeof *h);
	int rc;

	if (!h)
		return -1;
	for (unsigned i = 0; i < lines; i++)
		h[i * 32] = (i + 1) % lines * 32;
	rc = cuMemcpyHtoD(next, h, (size_t)lines * 128) == CUDA_SUCCESS ? 0 : -1;
	free(h);
	return rc;
}

/* A warp's chain bounds its kernel: one warp following a pointer 1,000
 * times waits a load's latency each time (an H200: 145 ns a hop through
 * the L2, probes/results/chains.txt), where its sectors and instructions
 * take a few microseconds; where the hops come back to lines it read
 * before, the SM's L1 serves them (20 ns a hop through 16 KiB). The copy
 * that wrote the ring passed the L2, which holds its lines; after a
 * memset of 128 MiB of other memory it holds none of them, and each hop
 * waits the DRAM (350 ns, probes/results/tlb.txt) until the chase has
 * brought them back. */
static void test_chain(void)
{
	unsigned long long t;
	CUdeviceptr next = 0, out = 0, other = 0;
	int steps = 1000;
	void *args[] = { &next, &steps, &out };

	if (!ok(cuMemAlloc(&next, 1000 * 128) == CUDA_SUCCESS &&
		cuMemAlloc(&out, 128) == CUDA_SUCCESS &&
		cuMemAlloc(&other, 128 * MIB) == CUDA_SUCCESS &&
		chase_ring(next, 1000) == 0, "chain: the index"))
		return;
	t = launch("chase", 1, 32, args);
	ok(t >= LAUNCH_NS + 999 * LOAD_NS &&
	   t < LAUNCH_NS + 999 * (LOAD_NS + 10), "chain: a warp's 1,000 "
	   "dependent loads of lines a copy just wrote take the L2's latency "
	   "each after the launch (%llu ns)", t);
	cuMemsetD8(other, 1, 128 * MIB);
	t = launch("chase", 1, 32, args);
	ok(t >= LAUNCH_NS + 999 * DRAM_NS &&
	   t < LAUNCH_NS + 999 * (DRAM_NS + 10), "chain: after a memset of "
	   "128 MiB of other memory, the DRAM's latency each (%llu ns)", t);
	t = launch("chase", 1, 32, args);
	ok(t >= LAUNCH_NS + 999 * LOAD_NS &&
	   t < LAUNCH_NS + 999 * (LOAD_NS + 10), "chain: the chase brought "
	   "them back: the L2's again (%llu ns)", t);
	/* the copies before a kernel pass the L2 in their order: the ring
	 * written after a memset of 128 MiB is what the L2 holds last */
	cuMemsetD8(other, 2, 128 * MIB);
	chase_ring(next, 1000);
	t = launch("chase", 1, 32, args);
	ok(t >= LAUNCH_NS + 999 * LOAD_NS &&
	   t < LAUNCH_NS + 999 * (LOAD_NS + 10), "chain: a ring copied after a "
	   "memset of 128 MiB is in the L2: the L2's latency each (%llu ns)",
	   t);
	cuMemFree(other);
	chase_ring(next, 16);
	t = launch("chase", 1, 32, args);
	ok(t >= LAUNCH_NS + 16 * LOAD_NS + 983 * L1_NS &&
	   t < LAUNCH_NS + 16 * LOAD_NS + 983 * (L1_NS + 10), "chain: "
	   "round 16 lines, the L2's latency for the first 16 and the L1's "
	   "for the 984 after (%llu ns)", t);
	cuMemFree(next);
	cuMemFree(out);
}

/* The L1 is what the shared memory carveout leaves of an SM's 256 KiB
 * (probes/results/l1.txt): a chase four times round 128 KiB of lines
 * hits after its first round in a kernel of no shared memory (240 KiB of
 * L1), and hardly ever beside 160 KiB of shared memory (the 164 KiB
 * carveout: 92 KiB of L1, least recently used lines replaced; the H200
 * still hits a third of its hops there, the model's edge is sharper). */
static void test_carveout(void)
{
	unsigned long long t, t_shared;
	CUdeviceptr next = 0, out = 0;
	int steps = 4 * 1024;
	void *args[] = { &next, &steps, &out };

	if (!ok(cuMemAlloc(&next, 1024 * 128) == CUDA_SUCCESS &&
		cuMemAlloc(&out, 128) == CUDA_SUCCESS &&
		chase_ring(next, 1024) == 0 &&
		cuFuncSetAttribute(fn("chase"),
			CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
			160 << 10) == CUDA_SUCCESS, "carveout: the ring"))
		return;
	t = launch("chase", 1, 32, args);
	t_shared = launch_shared("chase", 1, 32, 160 << 10, args);
	ok(t >= LAUNCH_NS + 1024 * LOAD_NS + 3 * 1024 * L1_NS &&
	   t < LAUNCH_NS + 1024 * (LOAD_NS + 10) + 3 * 1024 * (L1_NS + 10),
	   "carveout: no shared memory: the first round from the L2, three "
	   "from the L1 (%llu ns)", t);
	ok(t_shared >= LAUNCH_NS + 4 * 1024 * LOAD_NS * 9 / 10 &&
	   t_shared < LAUNCH_NS + 4 * 1024 * (LOAD_NS + 10),
	   "carveout: beside 160 KiB of shared memory: nine hops in ten or "
	   "more from the L2 (%llu ns)", t_shared);
	cuFuncSetAttribute(fn("chase"),
			   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0);
	cuMemFree(next);
	cuMemFree(out);
}

/* The model time of readsum over mib MiB at a, in 1,056 blocks of 256. */
static unsigned long long readsum_ns(CUdeviceptr a, unsigned long long mib,
				     CUdeviceptr out)
{
	unsigned long long n = mib * MIB / 4;
	void *args[] = { &a, &n, &out };

	return launch("readsum", SMS * 8, 256, args);
}

/* The L2 keeps what a kernel reached for the next kernel (model/kept.c,
 * probes/results/l2keep.txt: one H200, whole to 32 MiB, nothing at 48):
 * reading 16 MiB right after reading them costs only the caches' rate,
 * 64 MiB the DRAM's again, 40 MiB between; a kernel over other memory in
 * between leaves nothing of them. */
static void test_l2_keeps(void)
{
	CUdeviceptr a = 0, other = 0, out = 0;
	unsigned long long cold, warm, c64, w64, c40, w40;

	if (!ok(cuMemAlloc(&a, 64 * MIB) == CUDA_SUCCESS &&
		cuMemAlloc(&other, 128 * MIB) == CUDA_SUCCESS &&
		cuMemAlloc(&out, 64) == CUDA_SUCCESS, "l2: the arrays"))
		return;
	readsum_ns(other, 128, out);
	cold = readsum_ns(a, 16, out);
	warm = readsum_ns(a, 16, out);
	/* the DRAM's part, 8 MiB of buffer at 1850 GB/s, goes, and with it
	 * the DRAM's latency of each load (the kernel over other memory
	 * left none of a's lines in the L2); the sectors at the caches'
	 * rate, the blocks' dispatch and chains stay (each thread's 16 loads
	 * a line through its SM's pipeline with its 63 neighbours' and a
	 * load's latency each: 2.9 us, 2.4 to 3.1 on the H200,
	 * probes/results/l2keep.txt, where the cold kernel takes 13.8 to
	 * 14.0 us) */
	ok(warm >= LAUNCH_NS + 16 * MIB / 9000 && cold >= warm + 1500 &&
	   cold >= LAUNCH_NS + 8 * MIB / 1850 - 2 && cold <= 14000,
	   "l2: 16 MiB read again come from the L2 (%llu ns, %llu from the "
	   "DRAM)", warm, cold);
	readsum_ns(other, 128, out);
	is_int(readsum_ns(a, 16, out), cold, "l2: after a kernel over 128 MiB "
	       "of other memory, the DRAM again");
	readsum_ns(other, 128, out);
	c64 = readsum_ns(a, 64, out);
	w64 = readsum_ns(a, 64, out);
	is_int(w64, c64, "l2: 64 MiB read twice: the second from the DRAM "
	       "too, a scan past the L2 (%llu ns)", w64);
	readsum_ns(other, 128, out);
	c40 = readsum_ns(a, 40, out);
	w40 = readsum_ns(a, 40, out);
	ok(w40 < c40 && w40 > LAUNCH_NS + 40 * MIB / 9000, "l2: 40 MiB read "
	   "twice: half from the L2 (%llu ns, %llu cold)", w40, c40);
	cuMemFree(a);
	cuMemFree(other);
	cuMemFree(out);
}

/* A launch has a fixed time, and the SMs take a grid's blocks a few at a
 * time: the spin kernel with no rounds (a store a thread) in one block
 * costs the launch and one block; in 125 blocks an SM, the launch and
 * 125 blocks' time, longer than its stores and instructions. */
static void test_launch(void)
{
	unsigned waves = 125;
	unsigned long long t;
	CUdeviceptr out = 0;

	if (!ok(cuMemAlloc(&out, (size_t)SMS * waves * 128 * 4) ==
		CUDA_SUCCESS, "launch: the output"))
		return;
	t = spin(out, 1, 0);
	is_int(t, LAUNCH_NS + BLOCK_NS, "launch: a kernel of one block with "
	       "nothing to do takes the launch's 5.6 us and a block's 85 ns "
	       "(%llu ns; old: 8)", t);
	{
		int iters = 0;
		void *args[] = { &out, &iters };
		unsigned long long t0;

		cuStreamSynchronize(s0);
		keep_awake();
		cuStreamSynchronize(s0);
		t0 = now();
		for (int i = 0; i < 100; i++)
			cuLaunchKernel(fn("spin"), 1, 1, 1, 128, 1, 1, 0, s0,
				       args, NULL);
		cuStreamSynchronize(s0);
		is_int(now() - t0, 100 * LAUNCH_CALL_NS + LAUNCH_NS -
		       LAUNCH_CALL_NS + BLOCK_NS, "launch: 100 empty kernels "
		       "queued back to back take their calls' 4 us each, "
		       "then the last kernel's own 1.6 us (an H200: 4.1 to "
		       "4.7 us a launch; %llu ns)", now() - t0);
	}
	t = spin(out, SMS * waves, 0);
	is_int(t, LAUNCH_NS + waves * BLOCK_NS, "launch: 125 blocks an SM take "
	       "125 blocks' time after the launch (%llu ns), more than their "
	       "stores (4 MiB of buffer, 2.3 us)", t);
	cuMemFree(out);
}

/* n bytes of pinned host memory mapped into the GPU: its device address
 * (0: none), the host's in *h. */
static CUdeviceptr host_mapped(size_t n, void **h)
{
	CUdeviceptr d = 0;

	*h = NULL;
	if (cuMemHostAlloc(h, n, CU_MEMHOSTALLOC_DEVICEMAP) != CUDA_SUCCESS)
		return 0;
	memset(*h, 0, n);
	if (cuMemHostGetDevicePointer(&d, *h, 0) != CUDA_SUCCESS) {
		cuMemFreeHost(*h);
		*h = NULL;
		return 0;
	}
	return d;
}

/* Host memory over the link: a sparse touch is as many read requests as
 * touches, served 198 million a second (a read waits for its answer),
 * not its sectors at the stream's rate; a copy from host memory reads its
 * 64 MiB at the link's rate toward the GPU (51.0 GB/s), not at half the
 * rate of a stream that reads and writes (42.1 GB/s of buffer). */
static void test_host_link(void)
{
	unsigned long long n = 64 * MIB, q = n / 16, t, want;
	CUdeviceptr hd, d = 0;
	void *h, *args[] = { &hd, &d, &q };

	if (!ok((hd = host_mapped(n, &h)) != 0, "host link: 64 MiB of pinned "
		"host memory mapped into the GPU"))
		return;
	t = touch_ns(hd, n, 4 * KIB);
	want = LAUNCH_NS + (unsigned long long)(16384 * 1e3 / HOST_READ_MRPS);
	ok(t + 1 >= want && t <= want + 1, "host link: one byte every 4 KiB of "
	   "64 MiB is 16,384 read requests at 198 M/s after the launch (%llu "
	   "ns, want %llu; old: 12,453, its sectors at 42.1 GB/s)", t, want);
	if (ok(cuMemAlloc(&d, n) == CUDA_SUCCESS, "host link: a device "
	       "buffer")) {
		want = LAUNCH_NS + (unsigned long long)(n / HOST_READ_GBPS +
							n / 2 / HBM_GBPS);
		t = launch("copy", 4 * SMS, 256, args);
		ok(t + 1 >= want && t <= want + 1, "host link: a copy of 64 MiB "
		   "from host memory reads it at 51.0 GB/s toward the GPU, its "
		   "writes to device memory at the HBM rate after (%llu ns, "
		   "want %llu; old: 815,154)", t, want);
		cuMemFree(d);
	}
	cuMemFreeHost(h);
}

/* A child on a machine of its own (named tag) whose devices are the
 * default's with device's fields: the spin kernel's time there (0:
 * failed). */
static unsigned long long spin_on(const char *tag, const char *device)
{
	char path[4096], machine[512];
	const char *tmp = getenv("TMPDIR"), *base = getenv("CUEMU_MACHINE");
	unsigned long long t = 0;
	int fd[2], st;
	pid_t pid;
	FILE *f;

	snprintf(path, sizeof path, "%s/test_ktime-%s-%d.json",
		 tmp && *tmp ? tmp : "/tmp", tag, (int)getpid());
	snprintf(machine, sizeof machine, "%s-%s",
		 base && *base ? base : "cuemu-ktime", tag);
	if (!(f = fopen(path, "w")))
		return 0;
	fprintf(f, "{\"devices\": [%s]}\n", device);
	if (fclose(f) != 0 || pipe(fd) < 0)
		return 0;
	if ((pid = fork()) == 0) {
		CUcontext c;
		CUdeviceptr out;

		close(fd[0]);
		setenv("CUEMU_MACHINE", machine, 1);
		setenv("CUEMU_TOPOLOGY", path, 1);
		setenv("CUEMU_CONTROL", "0", 1);
		if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) ||
		    cuCtxSetCurrent(c) || cuStreamCreate(&s0, 0) ||
		    cuModuleLoadData(&mod, kernel_file("ktime.ptx", NULL)) ||
		    cuMemAlloc(&out, SMS * WIDE * 4))
			_exit(1);
		t = spin_wide(out, SMS, 1000) - LAUNCH_NS;
		_exit(write(fd[1], &t, sizeof t) == sizeof t ? 0 : 1);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], &t, sizeof t) != sizeof t)
		t = 0;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &st, 0);
	unlink(path);
	snprintf(path, sizeof path, "/dev/shm/%s", machine);
	unlink(path);   /* the child's machine, which nothing else removes
			 * when the test is run by hand */
	return t;
}

/* The topology's compute fields change the answer, and only as the
 * compute term says. Run before this process's own machine: a child
 * forked after cuInit would share its state. */
static void test_fields(unsigned long long *clock2, unsigned long long *issue2)
{
	*clock2 = spin_on("clock", "{\"attributes\": {\"clock_rate\": 990000}}");
	*issue2 = spin_on("issue", "{\"warp_issue_per_clock\": 2}");
}

int main(void)
{
	unsigned long long t = 0, clock2, issue2;
	char *ptx = kernel_file("ktime.ptx", NULL);
	CUcontext c;
	CUresult r;

	test_fields(&clock2, &issue2);
	r = cuInit(0);
	if (!r && !(r = cuDevicePrimaryCtxRetain(&c, 0)) &&
	    !(r = cuCtxSetCurrent(c)) &&
	    !(r = cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING)))
		r = cuModuleLoadData(&mod, ptx);
	free(ptx);
	if (r) {
		printf("Bail out! no context or no module (%d)\n", (int)r);
		return 1;
	}
	test_time(&t);
	test_wake();
	test_wake_peer();
	test_sectors();
	test_dram();
	test_cache();
	test_chain();
	test_carveout();
	test_l2_keeps();
	test_launch();
	test_host_link();
	ok(t > 0 && clock2 >= 2 * t - 2 && clock2 <= 2 * t + 2, "fields: at clock_rate "
	   "990000 kHz (half the H200's) the same kernel takes twice as long "
	   "(%llu ns against %llu)", clock2, t);
	ok(t > 0 && issue2 >= 2 * t - 2 && issue2 <= 2 * t + 2, "fields: at "
	   "warp_issue_per_clock 2 (half Hopper's 4) twice as long too "
	   "(%llu ns)", issue2);
	if (RUNNING_ON_VALGRIND || getenv("CUEMU_NO_FAULTS")) {
		printf("ok %d - fault counts # SKIP real faults are off\n",
		       ++tap_n);
	} else if (ok(ctl_open() == 0, "the control socket answers")) {
		test_faults();
		test_read_mostly();
		test_read_only_after_read_mostly();
		test_advice_time();
		test_wake_after_faults();
		close(ctl_fd);
	}
	cuModuleUnload(mod);
	cuStreamDestroy(s0);
	cuDevicePrimaryCtxRelease(0);
	return done_testing();
}
