/* Times of the shaping calls for bench/: cuMemcpy2D of 1 MiB device to
 * device (1024 rows of 1024 bytes, pitched allocations) by the wall clock
 * of one synchronous call (median of 1000) and by CUDA events around 100
 * back-to-back cuMemcpy2DAsync on the legacy stream; the same for a 1D
 * cuMemcpyDtoD of 1 MiB beside it; cuArrayCreate+cuArrayDestroy. */
#include "common.h"
#include <time.h>

#define REPS 1000
static long long t_ns[REPS];

static long long now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *name)
{
	qsort(t_ns, REPS, sizeof *t_ns, cmp);
	P("shapelat.%s: median_ns=%lld p10_ns=%lld p90_ns=%lld\n", name,
	  t_ns[REPS / 2], t_ns[REPS / 10], t_ns[REPS * 9 / 10]);
}

int main(void)
{
	CUdeviceptr a, b;
	size_t pa, pb;
	CUevent e0, e1;
	float ms;

	setup("shapelat");
	CK(cuMemAllocPitch(&a, &pa, 1024, 1024, 16));
	CK(cuMemAllocPitch(&b, &pb, 1024, 1024, 16));
	P("shapelat.pitch: %zu %zu\n", pa, pb);
	CUDA_MEMCPY2D c;
	memset(&c, 0, sizeof c);
	c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = a;
	c.srcPitch = pa;
	c.dstDevice = b;
	c.dstPitch = pb;
	c.WidthInBytes = 1024;
	c.Height = 1024;
	CK(cuMemsetD8(a, 1, pa * 1024));
	for (int i = 0; i < 50; i++)
		CK(cuMemcpy2D(&c));
	for (int i = 0; i < REPS; i++) {
		long long t = now();
		CK(cuMemcpy2D(&c));
		t_ns[i] = now() - t;
	}
	report("cuMemcpy2D.dtod.1MiB");
	for (int i = 0; i < REPS; i++) {
		long long t = now();
		CK(cuMemcpyDtoD(b, a, 1 << 20));
		t_ns[i] = now() - t;
	}
	report("cuMemcpyDtoD.1MiB");
	CK(cuEventCreate(&e0, 0));
	CK(cuEventCreate(&e1, 0));
	for (int k = 0; k < 3; k++) {
		CK(cuEventRecord(e0, 0));
		for (int i = 0; i < 100; i++)
			CK(cuMemcpy2DAsync(&c, 0));
		CK(cuEventRecord(e1, 0));
		CK(cuEventSynchronize(e1));
		CK(cuEventElapsedTime(&ms, e0, e1));
		P("shapelat.cuMemcpy2DAsync.dtod.1MiB.events_run%d: per_copy_ns=%.0f\n",
		  k, ms * 1e6 / 100);
	}
	for (int k = 0; k < 3; k++) {
		CK(cuEventRecord(e0, 0));
		for (int i = 0; i < 100; i++)
			CK(cuMemcpyDtoDAsync(b, a, 1 << 20, 0));
		CK(cuEventRecord(e1, 0));
		CK(cuEventSynchronize(e1));
		CK(cuEventElapsedTime(&ms, e0, e1));
		P("shapelat.cuMemcpyDtoDAsync.1MiB.events_run%d: per_copy_ns=%.0f\n",
		  k, ms * 1e6 / 100);
	}
	/* narrow rows: 1 MiB as 4096 rows of 256 bytes in a 512 pitch */
	c.WidthInBytes = 256;
	c.Height = 4096;
	c.srcPitch = c.dstPitch = 256;
	for (int i = 0; i < REPS; i++) {
		long long t = now();
		CK(cuMemcpy2D(&c));
		t_ns[i] = now() - t;
	}
	report("cuMemcpy2D.dtod.1MiB.rows256");
	CUDA_ARRAY_DESCRIPTOR d = { 1024, 1024, CU_AD_FORMAT_FLOAT, 1 };
	for (int i = 0; i < REPS; i++) {
		CUarray arr;
		long long t = now();
		CK(cuArrayCreate(&arr, &d));
		CK(cuArrayDestroy(arr));
		t_ns[i] = now() - t;
	}
	report("cuArrayCreate+cuArrayDestroy.1024x1024.f32");
	CK(cuMemFree(a));
	CK(cuMemFree(b));
	teardown("shapelat");
	return 0;
}
