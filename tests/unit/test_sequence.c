/*
 * test_sequence.c - model time is a function of the program: the timing
 * model's scenarios over managed memory, each on a fresh allocation with
 * the one before freed, cost the same model time run one after another in
 * one process, run again in it, and run alone in a fresh process. Model
 * times, not wall times: the same steps must give the same nanoseconds
 * whatever ran before them (DESIGN.md, "The timing model").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "cuemu.h"
#include "spawn.h"
#include "tap.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)
#define SZ (64 * MIB)

static CUstream s0, s1;
static CUdeviceptr m;   /* the scenario's allocation */

static const CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };

static CUmemLocation dev(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

/* Reads and writes every 16th word, as a kernel streaming it would. */
static void stream16(void *arg)
{
	volatile uint32_t *p = (volatile uint32_t *)m;

	(void)arg;
	for (size_t i = 0; i < SZ / 4; i += 4)
		p[i] += 1;
}

/* Touches every other page. */
static void scattered(void *arg)
{
	volatile unsigned char *p = (volatile unsigned char *)m;

	(void)arg;
	for (size_t i = 0; i < SZ; i += 8 * KIB)
		p[i] += 1;
}

/* Touches one byte. */
static void one_byte(void *arg)
{
	(void)arg;
	((volatile unsigned char *)m)[0] += 1;
}

/* s's model time once it is idle; the host waits for it. */
static unsigned long long clk(CUstream s)
{
	unsigned long long t = 0;

	if (cuStreamSynchronize(s) || cuemuStreamGetTime(s, &t))
		return 0;
	return t;
}

static unsigned long long kern(CUstream s, void (*fn)(void *))
{
	unsigned long long a = clk(s);

	if (cuemuLaunchHostFunc(s, fn, NULL))
		return 0;
	return clk(s) - a;
}

/* A new allocation that the CPU wrote, the one before freed. */
static int fresh(void)
{
	if (m)
		cuMemFree(m);
	m = 0;
	if (cuMemAllocManaged(&m, SZ, CU_MEM_ATTACH_GLOBAL))
		return -1;
	memset((void *)m, 1, SZ);
	return 0;
}

static int to_gpu0(void)
{
	if (cuMemPrefetchAsync_v2(m, SZ, dev(0), 0, s0))
		return -1;
	return clk(s0) ? 0 : -1;
}

/* The scenarios: each returns its step's model time, 0 when a call
 * failed. */
static unsigned long long gpu0_from_cpu(void)
{
	return fresh() ? 0 : kern(s0, stream16);
}

static unsigned long long gpu1_from_gpu0(void)
{
	return fresh() || to_gpu0() ? 0 : kern(s1, stream16);
}

static unsigned long long gpu1_from_gpu0_declared(void)
{
	unsigned long long a;

	if (fresh() || to_gpu0())
		return 0;
	a = clk(s1);
	if (cuemuAccess(s1, m, SZ, CUEMU_ACCESS_READ | CUEMU_ACCESS_WRITE))
		return 0;
	return clk(s1) - a;
}

static unsigned long long read_mostly_gpu1(void)
{
	if (fresh() || to_gpu0() ||
	    cuMemAdvise_v2(m, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, dev(0)) ||
	    !kern(s0, stream16))
		return 0;
	return kern(s1, stream16);
}

/* The CPU's touches of gpu0's data, then a kernel: how far s0 moved. */
static unsigned long long cpu_then_kernel(void)
{
	volatile unsigned char *p;
	unsigned long long a;

	if (fresh() || to_gpu0())
		return 0;
	a = clk(s0);
	p = (volatile unsigned char *)m;
	for (size_t i = 0; i < SZ; i += 4 * KIB)
		p[i] += 1;
	if (cuemuLaunchHostFunc(s0, one_byte, NULL))
		return 0;
	return clk(s0) - a;
}

static unsigned long long gpu0_scattered(void)
{
	return fresh() ? 0 : kern(s0, scattered);
}

static unsigned long long remote_pref_cpu(void)
{
	if (fresh() ||
	    cuMemAdvise_v2(m, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host) ||
	    cuMemAdvise_v2(m, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY, dev(0)))
		return 0;
	return kern(s0, stream16);
}

static const struct {
	const char *name;
	unsigned long long (*fn)(void);
} scen[] = {
	{ "gpu0 streams what the CPU wrote", gpu0_from_cpu },
	{ "gpu1 streams what was prefetched to gpu0", gpu1_from_gpu0 },
	{ "gpu1 declares that access", gpu1_from_gpu0_declared },
	{ "gpu1 writes read-mostly data after gpu0", read_mostly_gpu1 },
	{ "the CPU touches gpu0's data, then a kernel", cpu_then_kernel },
	{ "gpu0 touches every other page", gpu0_scattered },
	{ "gpu0 maps the host's data remotely", remote_pref_cpu },
};
#define NSCEN (sizeof scen / sizeof scen[0])

static int start(void)
{
	CUcontext c0, c1;
	int n = 0;

	if (cuInit(0) || cuDeviceGetCount(&n) || n < 2 ||
	    cuDevicePrimaryCtxRetain(&c1, 1) || cuCtxSetCurrent(c1) ||
	    cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING) ||
	    cuDevicePrimaryCtxRetain(&c0, 0) || cuCtxSetCurrent(c0) ||
	    cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING))
		return -1;
	return 0;
}

static void stop(void)
{
	if (m)
		cuMemFree(m);
	m = 0;
	cuStreamDestroy(s0);
	cuStreamDestroy(s1);
}

/* The child "alone-N": scenario N in a fresh process, "ns" on stdout. */
static int alone(const char *role)
{
	char *end;
	unsigned long i = strtoul(role + strlen("alone-"), &end, 10);

	if (*end || i >= NSCEN || start())
		return 2;
	printf("ns %llu\n", scen[i].fn());
	stop();
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	unsigned long long first[NSCEN], second[NSCEN];
	char out[256], r[32];

	if (role && !strncmp(role, "alone-", strlen("alone-")))
		return alone(role);
	/* Nothing here reads /cu: no published state, which every fault
	 * would render again. */
	setenv("CUEMU_CONTROL", "0", 1);
	if (RUNNING_ON_VALGRIND) {
		/* Kernels' touches are not seen without real faults. */
		printf("1..0 # SKIP real faults under valgrind\n");
		return 0;
	}
	if (start()) {
		ok(0, "cuInit with two devices, a stream on each");
		return done_testing();
	}
	for (size_t i = 0; i < NSCEN; i++)
		first[i] = scen[i].fn();
	for (size_t i = 0; i < NSCEN; i++)
		second[i] = scen[i].fn();
	stop();
	snprintf(out, sizeof out, "%s/cuemu-sequence-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	for (size_t i = 0; i < NSCEN; i++) {
		long long one;
		int rc;

		snprintf(r, sizeof r, "alone-%zu", i);
		rc = run_self(r, NULL, out, NULL, 120);
		one = child_value(out, "ns", -1);
		unlink(out);
		ok(rc == 0 && one > 0, "%s: %lld ns alone, in a fresh process",
		   scen[i].name, one);
		is_int((long long)first[i], one, "%s: the same after the "
		       "scenarios before it", scen[i].name);
		is_int((long long)second[i], one, "%s: the same when the "
		       "sequence runs again", scen[i].name);
	}
	return done_testing();
}
