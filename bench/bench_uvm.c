/*
 * bench_uvm.c - "model vs H200": every scenario of the managed-memory
 * timing table (issue 24) on a 1 GiB managed buffer, its model bandwidth
 * beside the real one and their ratio, and the wall time the emulator took
 * for the scenario once its buffer was filled on the host.
 * Kernels run both ways an emulated kernel can run where both can express
 * them: a host function run as a kernel (cuemuLaunchHostFunc, "kernel") and
 * a declared footprint (cuemuAccess, "declared"); a touch of one byte every
 * 4 or 64 KiB has no declared form.
 *
 * Real figures: one H200, driver 580.159, CUDA 13.0, the mean time of every
 * repetition measured (shared reference real-driver-migration, and
 * probes/faults.cu, raw output in probes/results/faults.txt): "touches" add
 * 1 to one byte every 4 or 64 KiB, "streams" read and write every 16 bytes,
 * timed by events around the kernel or the prefetch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda.h"
#include "cuemu.h"
#include "bench.h"

#define GIB (1UL << 30)
#define SZ GIB

static const CUmemLocation host = { CU_MEM_LOCATION_TYPE_HOST, 0 };

static CUmemLocation gpu(int d)
{
	return (CUmemLocation){ CU_MEM_LOCATION_TYPE_DEVICE, d };
}

struct kern {
	char *p;
	size_t n, stride;      /* stride 0: a stream of 16-byte elements */
};

struct v4 {
	uint32_t x, y, z, w;
};

static void kernel_fn(void *arg)
{
	struct kern *k = arg;

	if (!k->stride) {
		struct v4 *q = (struct v4 *)k->p;
		for (size_t i = 0; i < k->n / sizeof *q; i++) {
			struct v4 v = q[i];
			v.x += 1;
			q[i] = v;
		}
		return;
	}
	for (size_t i = 0; i < k->n; i += k->stride)
		k->p[i] += 1;
}

static double wall_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

enum how { KERNEL, DECLARED, PREFETCH, CPU };

/* One timed step on stream s: a kernel either way, a prefetch to loc, or
 * the CPU touching every 4 KiB. Model ms by events, or -1. */
static double timed(CUstream s, enum how how, struct kern *k, CUmemLocation loc)
{
	CUevent e0 = NULL, e1 = NULL;
	float ms = -1;
	int bad;

	bad = cuEventCreate(&e0, 0) || cuEventCreate(&e1, 0) ||
	      cuStreamSynchronize(s) || cuEventRecord(e0, s);
	if (!bad) {
		switch (how) {
		case KERNEL:
			bad = cuemuLaunchHostFunc(s, kernel_fn, k) != 0;
			break;
		case DECLARED:
			bad = cuemuAccess(s, (CUdeviceptr)k->p, k->n,
					  CUEMU_ACCESS_READ |
					  CUEMU_ACCESS_WRITE) != 0;
			break;
		case PREFETCH:
			bad = cuMemPrefetchAsync_v2((CUdeviceptr)k->p, k->n, loc,
						    0, s) != 0;
			break;
		case CPU:
			for (size_t i = 0; i < k->n; i += 4096)
				k->p[i] += 1;
			break;
		}
	}
	bad = bad || cuEventRecord(e1, s) || cuEventSynchronize(e1) ||
	      cuEventElapsedTime(&ms, e0, e1);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	return bad ? -1 : ms;
}

enum scen {
	TOUCH4K, TOUCH64K, STREAM_CPU, STREAM_RES, REMOTE_CPU, GPU1_FROM_GPU0,
	PF_H2D, PF_D2H, PF_D2D, CPU_TOUCH, RM_GPU0, RM_GPU1,
};

struct env {
	CUcontext c0, c1;
	CUstream s0, s1;
	CUdeviceptr p;
};

static int env_get(struct env *v)
{
	memset(v, 0, sizeof *v);
	return cuInit(0) || cuDevicePrimaryCtxRetain(&v->c0, 0) ||
	       cuDevicePrimaryCtxRetain(&v->c1, 1) || cuCtxSetCurrent(v->c1) ||
	       cuStreamCreate(&v->s1, CU_STREAM_NON_BLOCKING) ||
	       cuCtxSetCurrent(v->c0) ||
	       cuStreamCreate(&v->s0, CU_STREAM_NON_BLOCKING) ||
	       cuMemAllocManaged(&v->p, SZ, CU_MEM_ATTACH_GLOBAL);
}

static void env_put(struct env *v)
{
	cuCtxSetCurrent(v->c0);
	if (v->p)
		cuMemFree(v->p);
	if (v->s0)
		cuStreamDestroy(v->s0);
	if (v->s1)
		cuStreamDestroy(v->s1);
	if (v->c1)
		cuDevicePrimaryCtxRelease(1);
	if (v->c0)
		cuDevicePrimaryCtxRelease(0);
}

/* When the scenario's own work began, after the buffer was filled on the
 * host (the wall time a row shows is from there). */
static double work_t0;

/* Sets the buffer up for a scenario, then times its step: model ms. */
static double scenario(struct env *v, enum scen sc, enum how how)
{
	struct kern k = { (char *)v->p, SZ, 0 };
	CUstream s = v->s0;

	memset(k.p, 1, SZ); /* resident on the host */
	work_t0 = wall_s();
	switch (sc) {
	case TOUCH4K:
		k.stride = 4096;
		break;
	case TOUCH64K:
		k.stride = 65536;
		break;
	case STREAM_CPU:
		break;
	case STREAM_RES:
		if (timed(s, PREFETCH, &k, gpu(0)) < 0)
			return -1;
		break;
	case REMOTE_CPU:
		if (cuMemAdvise_v2(v->p, SZ, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
				   host) ||
		    cuMemAdvise_v2(v->p, SZ, CU_MEM_ADVISE_SET_ACCESSED_BY,
				   gpu(0)))
			return -1;
		break;
	case GPU1_FROM_GPU0:
	case RM_GPU1:
		if (timed(s, PREFETCH, &k, gpu(0)) < 0)
			return -1;
		s = v->s1;
		break;
	case PF_H2D:
		return timed(s, PREFETCH, &k, gpu(0));
	case PF_D2H:
		if (timed(s, PREFETCH, &k, gpu(0)) < 0)
			return -1;
		return timed(s, PREFETCH, &k, host);
	case PF_D2D:
		if (timed(s, PREFETCH, &k, gpu(0)) < 0)
			return -1;
		return timed(s, PREFETCH, &k, gpu(1));
	case CPU_TOUCH:
		if (timed(s, PREFETCH, &k, gpu(0)) < 0)
			return -1;
		return timed(s, CPU, &k, host);
	case RM_GPU0:
		if (timed(s, PREFETCH, &k, gpu(0)) < 0)
			return -1;
		break;
	}
	if (sc == RM_GPU0 || sc == RM_GPU1) {
		if (cuMemAdvise_v2(v->p, SZ, CU_MEM_ADVISE_SET_READ_MOSTLY, gpu(0)))
			return -1;
		if (sc == RM_GPU1 && timed(v->s0, how, &k, host) < 0)
			return -1;
	}
	return timed(s, how, &k, host);
}

static int row(enum scen sc, enum how how, double real_ms, char *value,
	       size_t len, char *unit, size_t ulen)
{
	struct env v;
	double ms = -1, gbps, real;

	if (!env_get(&v))
		ms = scenario(&v, sc, how);
	env_put(&v);
	if (ms <= 0)
		return 1;
	gbps = SZ / (ms * 1e6);
	real = SZ / (real_ms * 1e6);
	snprintf(value, len, "%.3g GB/s model, %.3g real", gbps, real);
	snprintf(unit, ulen, "(ratio %.2f, %.1f s wall)", gbps / real,
		 wall_s() - work_t0);
	return 0;
}

#define ROW(fn, sc, how, real_ms)                                      \
	static int fn(char *v, size_t l, char *u, size_t ul)           \
	{                                                              \
		return row(sc, how, real_ms, v, l, u, ul);             \
	}

/* Real ms a GiB: the mean over every repetition measured. */
ROW(touch4k, TOUCH4K, KERNEL, 152.56)
ROW(touch64k, TOUCH64K, KERNEL, 59.46)
ROW(stream_cpu_k, STREAM_CPU, KERNEL, 98.74)
ROW(stream_cpu_d, STREAM_CPU, DECLARED, 98.74)
ROW(stream_res_k, STREAM_RES, KERNEL, 0.575)
ROW(stream_res_d, STREAM_RES, DECLARED, 0.575)
ROW(remote_k, REMOTE_CPU, KERNEL, 25.49)
ROW(remote_d, REMOTE_CPU, DECLARED, 25.49)
ROW(gpu1_k, GPU1_FROM_GPU0, KERNEL, 67.59)
ROW(gpu1_d, GPU1_FROM_GPU0, DECLARED, 67.59)
ROW(pf_h2d, PF_H2D, PREFETCH, 22.53)
ROW(pf_d2h, PF_D2H, PREFETCH, 76.12)
ROW(pf_d2d, PF_D2D, PREFETCH, 9.18)
ROW(cpu_touch, CPU_TOUCH, CPU, 233.4)
ROW(rm0_k, RM_GPU0, KERNEL, 14330)
ROW(rm0_d, RM_GPU0, DECLARED, 14330)
ROW(rm1_k, RM_GPU1, KERNEL, 8839)
ROW(rm1_d, RM_GPU1, DECLARED, 8839)

#define R(name, fn) { "model vs H200: " name, 0, NULL, NULL, NULL, 0, fn }

const struct bench_row bench_uvm_rows[] = {
	R("GPU touches every 4KiB of CPU data, kernel", touch4k),
	R("GPU touches every 64KiB of CPU data, kernel", touch64k),
	R("GPU streams CPU data, kernel", stream_cpu_k),
	R("GPU streams CPU data, declared", stream_cpu_d),
	R("GPU streams its own data, kernel", stream_res_k),
	R("GPU streams its own data, declared", stream_res_d),
	R("GPU streams pref-CPU accessed-by data, kernel", remote_k),
	R("GPU streams pref-CPU accessed-by data, declared", remote_d),
	R("GPU1 streams GPU0 data, kernel", gpu1_k),
	R("GPU1 streams GPU0 data, declared", gpu1_d),
	R("prefetch host to GPU", pf_h2d),
	R("prefetch GPU to host", pf_d2h),
	R("prefetch GPU to GPU", pf_d2d),
	R("CPU touches every 4KiB of GPU data", cpu_touch),
	R("read-mostly, GPU0 streams (writes) it, kernel", rm0_k),
	R("read-mostly, GPU0 streams (writes) it, declared", rm0_d),
	R("read-mostly, then GPU1 streams it, kernel", rm1_k),
	R("read-mostly, then GPU1 streams it, declared", rm1_d),
	{ NULL, 0, NULL, NULL, NULL, 0, NULL },
};
