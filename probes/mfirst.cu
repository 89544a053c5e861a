// mfirst.cu - why the first kernel after managed memory came to a GPU
// costs more than the next (probes/results/mtouch.txt: 25-40 us more after
// a prefetch, where device memory costs 2-12 us more): counts, through
// CUPTI's unified-memory counters, the GPU page faults and bytes moved
// during the first touch kernel and during the second, beside their times.
// One byte read and written every `stride` bytes of 1 GiB (64 MiB too),
// one thread a touch; CUDA events around each launch.
// Each line: mfirst.<how>_<size>mib_<stride> first_ms=... first_faults=...
// first_groups=... first_htod=... first_dtoh=... second_ms=... second_faults=...
// Build: nvcc -O2 -arch=sm_90 -o mfirst mfirst.cu -lcupti
#include <cuda_runtime.h>
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("mfirst.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)
#define CP(x) do { CUptiResult e_ = (x); if (e_ != CUPTI_SUCCESS) { \
	const char *s_; cuptiGetResultString(e_, &s_); \
	printf("mfirst.error: %s line %d: %s\n", #x, __LINE__, s_); \
	exit(1); } } while (0)

/* What the records flushed since the last take said. */
static unsigned long long faults, groups, htod, dtoh;

static void CUPTIAPI buf_request(uint8_t **b, size_t *size, size_t *max)
{
	*size = 8 * MIB;
	*b = (uint8_t *)aligned_alloc(8, *size);
	*max = 0;
}

static void CUPTIAPI buf_done(CUcontext c, uint32_t s, uint8_t *b,
			      size_t size, size_t valid)
{
	CUpti_Activity *r = NULL;

	(void)c; (void)s; (void)size;
	while (cuptiActivityGetNextRecord(b, valid, &r) == CUPTI_SUCCESS) {
		CUpti_ActivityUnifiedMemoryCounter3 *u;

		if (r->kind != CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)
			continue;
		u = (CUpti_ActivityUnifiedMemoryCounter3 *)r;
		switch (u->counterKind) {
		case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
			faults += u->value;
			groups++;
			break;
		case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
			htod += u->value;
			break;
		case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
			dtoh += u->value;
			break;
		default:
			break;
		}
	}
	free(b);
}

static void take(void)
{
	CP(cuptiActivityFlushAll(1));
	faults = groups = htod = dtoh = 0;
}

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

__global__ void stream(int4 *p, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

static float timed_touch(char *p, size_t n, size_t stride)
{
	cudaEvent_t a, b;
	float ms;
	size_t t = n / stride;

	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	touch<<<(unsigned)((t + 511) / 512), 512>>>(p, n, stride);
	CK(cudaGetLastError());
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

enum how { PREFETCHED, STREAMED, TOUCHED_4K, NHOW };
static const char *hows[NHOW] = { "prefetched", "streamed", "touched4k" };

static char *make(enum how h, size_t n)
{
	char *p;
	cudaMemLocation loc = { cudaMemLocationTypeDevice, 0 };

	CK(cudaMallocManaged(&p, n));
	memset(p, 0, n);
	if (h == PREFETCHED)
		CK(cudaMemPrefetchAsync(p, n, loc, 0, 0));
	else if (h == STREAMED)
		stream<<<1320, 512>>>((int4 *)p, n / 16);
	else
		touch<<<(unsigned)((n / 4096 + 511) / 512), 512>>>(p, n, 4096);
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	return p;
}

int main(void)
{
	static const size_t sizes[] = { 64 * MIB, 1024 * MIB };
	static const size_t strides[] = { 4096, 2 * MIB };
	CUpti_ActivityUnifiedMemoryCounterConfig cfg[3];
	CUpti_ActivityUnifiedMemoryCounterKind kinds[3] = {
		CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
		CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
		CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
	};

	CK(cudaSetDevice(0));
	for (int k = 0; k < 3; k++) {
		cfg[k].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
		cfg[k].kind = kinds[k];
		cfg[k].deviceId = 0;
		cfg[k].enable = 1;
	}
	CP(cuptiActivityRegisterCallbacks(buf_request, buf_done));
	CP(cuptiActivityConfigureUnifiedMemoryCounter(cfg, 3));
	CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER));
	/* the touch kernel loaded and run once, so no first launch's load */
	{
		char *w = make(PREFETCHED, 2 * MIB);
		timed_touch(w, 2 * MIB, 4096);
		CK(cudaFree(w));
	}
	for (int h = 0; h < NHOW; h++)
		for (size_t z = 0; z < 2; z++)
			for (size_t s = 0; s < 2; s++) {
				char *p = make((enum how)h, sizes[z]);
				unsigned long long f1, g1, u1, d1;
				float t1, t2;

				take();
				t1 = timed_touch(p, sizes[z], strides[s]);
				CP(cuptiActivityFlushAll(1));
				f1 = faults; g1 = groups; u1 = htod; d1 = dtoh;
				take();
				t2 = timed_touch(p, sizes[z], strides[s]);
				CP(cuptiActivityFlushAll(1));
				printf("mfirst.%s_%zumib_%zu first_ms=%.4f "
				       "first_faults=%llu first_groups=%llu "
				       "first_htod=%llu first_dtoh=%llu "
				       "second_ms=%.4f second_faults=%llu\n",
				       hows[h], sizes[z] / MIB, strides[s], t1,
				       f1, g1, u1, d1, t2, faults);
				fflush(stdout);
				CK(cudaFree(p));
			}
	printf("mfirst.done: ok\n");
	return 0;
}
