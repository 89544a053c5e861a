/*
 * bench_copy.c - "copies vs H200": the model bandwidth of each kind of copy
 * at 4 KiB, 1 MiB and 32 MiB beside the real one, and their ratio. The
 * model figure is model time, measured as the real one was: CUDA events
 * around back-to-back copies on the legacy stream, or around synchronous
 * copies for the pageable rows the real driver timed by the wall clock.
 *
 * Real figures: one H200, driver 580.159, CUDA 13.0, probes/streamops.c
 * (probes/results/streamops.txt), 100 copies a figure. Peer copies were
 * not measured (no two-GPU machine was lent): the only NVLink figure is a
 * managed prefetch from device to device of 1 GiB, 115 to 119 GB/s
 * (../shared/reference/real-driver-migration.txt), shown beside the 32 MiB
 * row. 2D copies are bench_shape.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "bench.h"

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define MAXB (32 * MIB)
/* Model time does not vary from copy to copy: a few tell the rate. */
#define COPIES 10

enum kind {
	PINNED_HTOD, PINNED_DTOH, PAGEABLE_HTOD, PAGEABLE_DTOH,
	PAGEABLE_HTOD_SYNC, PAGEABLE_DTOH_SYNC, DEVICE, MEMSET, PEER,
};

struct bufs {
	CUcontext c1;
	CUdeviceptr d0, d0b, d1;
	void *pinned, *pageable;
};

static void bufs_free(struct bufs *b)
{
	if (b->d1) {
		cuCtxSetCurrent(b->c1);
		cuMemFree(b->d1);
	}
	if (b->c1) {
		cuDevicePrimaryCtxRelease(1);
		cuDevicePrimaryCtxRetain(&b->c1, 0);
		cuCtxSetCurrent(b->c1);
		cuDevicePrimaryCtxRelease(0);
	}
	cuMemFree(b->d0);
	cuMemFree(b->d0b);
	cuMemFreeHost(b->pinned);
	free(b->pageable);
}

/* Device 0's memory, the host's, and device 1's for a peer copy. */
static int bufs_get(struct bufs *b, enum kind k)
{
	CUcontext c0;

	memset(b, 0, sizeof *b);
	if (cuCtxGetCurrent(&c0) || cuMemAlloc(&b->d0, MAXB) ||
	    cuMemAlloc(&b->d0b, MAXB) || cuMemAllocHost(&b->pinned, MAXB) ||
	    !(b->pageable = calloc(1, MAXB)))
		return 1;
	if (k != PEER)
		return 0;
	if (cuDevicePrimaryCtxRetain(&b->c1, 1) || cuCtxSetCurrent(b->c1) ||
	    cuMemAlloc(&b->d1, MAXB))
		return 1;
	return cuCtxSetCurrent(c0) != CUDA_SUCCESS;
}

static CUresult one(const struct bufs *b, enum kind k, size_t n)
{
	switch (k) {
	case PINNED_HTOD:
		return cuMemcpyHtoDAsync(b->d0, b->pinned, n, 0);
	case PINNED_DTOH:
		return cuMemcpyDtoHAsync(b->pinned, b->d0, n, 0);
	case PAGEABLE_HTOD:
		return cuMemcpyHtoDAsync(b->d0, b->pageable, n, 0);
	case PAGEABLE_DTOH:
		return cuMemcpyDtoHAsync(b->pageable, b->d0, n, 0);
	case PAGEABLE_HTOD_SYNC:
		return cuMemcpyHtoD(b->d0, b->pageable, n);
	case PAGEABLE_DTOH_SYNC:
		return cuMemcpyDtoH(b->pageable, b->d0, n);
	case DEVICE:
		return cuMemcpyDtoDAsync(b->d0b, b->d0, n, 0);
	case MEMSET:
		return cuMemsetD8Async(b->d0, 0, n, 0);
	case PEER:
		return cuMemcpyDtoDAsync(b->d1, b->d0, n, 0);
	}
	return CUDA_ERROR_INVALID_VALUE;
}

/* Model GB/s of COPIES copies of n bytes of kind k, timed by events on
 * the legacy stream; 0 when a call fails. */
static double model_gbps(enum kind k, size_t n)
{
	CUevent e0 = NULL, e1 = NULL;
	struct bufs b;
	float ms = 0;
	int bad;

	bad = bufs_get(&b, k) || cuEventCreate(&e0, 0) ||
	      cuEventCreate(&e1, 0) || cuCtxSynchronize() ||
	      cuEventRecord(e0, 0);
	for (int i = 0; !bad && i < COPIES; i++)
		bad = one(&b, k, n) != CUDA_SUCCESS;
	bad = bad || cuEventRecord(e1, 0) || cuEventSynchronize(e1) ||
	      cuEventElapsedTime(&ms, e0, e1);
	cuEventDestroy(e0);
	cuEventDestroy(e1);
	bufs_free(&b);
	return bad || ms <= 0 ? 0 : (double)n * COPIES / (ms * 1e6);
}

static int row(enum kind k, size_t n, double real, char *value, size_t len,
	       char *unit, size_t ulen)
{
	double m = model_gbps(k, n);

	if (m <= 0)
		return 1;
	if (real <= 0) {
		snprintf(value, len, "%.2f GB/s model, real -", m);
		snprintf(unit, ulen, "(not measured)");
		return 0;
	}
	snprintf(value, len, "%.2f GB/s model, %.2f real", m, real);
	snprintf(unit, ulen, "(ratio %.2f)", m / real);
	return 0;
}

/* One report function a row: a report row has no state of its own. */
#define ROW(fn, k, n, real)                                            \
	static int fn(char *v, size_t l, char *u, size_t ul)           \
	{                                                              \
		return row(k, n, real, v, l, u, ul);                   \
	}

ROW(pin_h2d_4k, PINNED_HTOD, 4 * KIB, 1.53)
ROW(pin_h2d_1m, PINNED_HTOD, MIB, 48.25)
ROW(pin_h2d_32m, PINNED_HTOD, 32 * MIB, 55.17)
ROW(pin_d2h_4k, PINNED_DTOH, 4 * KIB, 2.35)
ROW(pin_d2h_1m, PINNED_DTOH, MIB, 51.10)
ROW(pin_d2h_32m, PINNED_DTOH, 32 * MIB, 55.21)
ROW(pag_h2d_4k, PAGEABLE_HTOD, 4 * KIB, 1.51)
ROW(pag_h2d_1m, PAGEABLE_HTOD, MIB, 16.16)
ROW(pag_h2d_32m, PAGEABLE_HTOD, 32 * MIB, 13.83)
ROW(pag_d2h_4k, PAGEABLE_DTOH, 4 * KIB, 0.54)
ROW(pag_d2h_1m, PAGEABLE_DTOH, MIB, 8.98)
ROW(pag_d2h_32m, PAGEABLE_DTOH, 32 * MIB, 11.65)
ROW(syn_h2d_4k, PAGEABLE_HTOD_SYNC, 4 * KIB, 0.60)
ROW(syn_h2d_1m, PAGEABLE_HTOD_SYNC, MIB, 12.08)
ROW(syn_h2d_32m, PAGEABLE_HTOD_SYNC, 32 * MIB, 12.77)
ROW(syn_d2h_4k, PAGEABLE_DTOH_SYNC, 4 * KIB, 0.53)
ROW(syn_d2h_1m, PAGEABLE_DTOH_SYNC, MIB, 8.99)
ROW(syn_d2h_32m, PAGEABLE_DTOH_SYNC, 32 * MIB, 11.58)
ROW(dev_4k, DEVICE, 4 * KIB, 0.95)
ROW(dev_1m, DEVICE, MIB, 258.91)
ROW(dev_32m, DEVICE, 32 * MIB, 1802.51)
ROW(set_4k, MEMSET, 4 * KIB, 2.38)
ROW(set_1m, MEMSET, MIB, 280.24)
ROW(set_32m, MEMSET, 32 * MIB, 3635.46)
ROW(peer_4k, PEER, 4 * KIB, 0)
ROW(peer_1m, PEER, MIB, 0)
ROW(peer_32m, PEER, 32 * MIB, 117.0)

#define R(name, fn) { "copies vs H200: " name, 0, NULL, NULL, NULL, 0, fn }

const struct bench_row bench_copy_rows[] = {
	R("pinned HtoD 4KiB", pin_h2d_4k),
	R("pinned HtoD 1MiB", pin_h2d_1m),
	R("pinned HtoD 32MiB", pin_h2d_32m),
	R("pinned DtoH 4KiB", pin_d2h_4k),
	R("pinned DtoH 1MiB", pin_d2h_1m),
	R("pinned DtoH 32MiB", pin_d2h_32m),
	R("pageable HtoD 4KiB, events", pag_h2d_4k),
	R("pageable HtoD 1MiB, events", pag_h2d_1m),
	R("pageable HtoD 32MiB, events", pag_h2d_32m),
	R("pageable DtoH 4KiB, events", pag_d2h_4k),
	R("pageable DtoH 1MiB, events", pag_d2h_1m),
	R("pageable DtoH 32MiB, events", pag_d2h_32m),
	R("pageable HtoD 4KiB, sync (wall)", syn_h2d_4k),
	R("pageable HtoD 1MiB, sync (wall)", syn_h2d_1m),
	R("pageable HtoD 32MiB, sync (wall)", syn_h2d_32m),
	R("pageable DtoH 4KiB, sync (wall)", syn_d2h_4k),
	R("pageable DtoH 1MiB, sync (wall)", syn_d2h_1m),
	R("pageable DtoH 32MiB, sync (wall)", syn_d2h_32m),
	R("DtoD 4KiB", dev_4k),
	R("DtoD 1MiB", dev_1m),
	R("DtoD 32MiB", dev_32m),
	R("memsetD8 4KiB", set_4k),
	R("memsetD8 1MiB", set_1m),
	R("memsetD8 32MiB", set_32m),
	R("peer gpu0->gpu1 4KiB", peer_4k),
	R("peer gpu0->gpu1 1MiB", peer_1m),
	R("peer gpu0->gpu1 32MiB, vs prefetch", peer_32m),
	{ NULL, 0, NULL, NULL, NULL, 0, NULL },
};
