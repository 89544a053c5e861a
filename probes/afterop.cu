// afterop.cu - what an operation waits for the one before it on its
// stream, by what each is: copyone.cu found a copy between pinned memory
// and the GPU 3.5 to 3.9 us slower behind a kernel than behind another
// copy, a copy within the GPU 1.3 to 1.5. This asks the other orders.
// Everything is queued behind a 200 us spinning kernel, so the host's
// calls are done before the device reaches them, and timed by events
// recorded after the spin (median of 30):
//   K      an empty kernel (behind the spinning one)
//   C      one operation (a copy or memset of 4 KiB or 1 MiB on a path;
//          between pinned memory and the GPU 4 KiB to 16 MiB)
//   CK     that operation, then the empty kernel
//   CC     that operation twice
//   KK     the empty kernel twice
// CK - C is what the kernel takes behind the operation; CC - C what an
// operation takes behind one of its kind; KK - K a kernel behind a kernel.
// Lines: afterop.<case> <path> <size>KiB: us=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o afterop afterop.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <vector>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("afterop.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

enum path { HTOD, DTOH, DTOD, MEMSET, NPATHS };
static const char *const path_name[] = { "pinned_to_gpu", "gpu_to_pinned",
					 "gpu_local", "memset" };
static void *pinned, *dev_a, *dev_b;
static cudaStream_t s;

__global__ void spin(long long cycles)
{
	long long t0 = clock64();

	while (clock64() - t0 < cycles)
		;
}

__global__ void empty(int *p, int t)
{
	if (t < 0)
		p[0] = t;
}

static void op(enum path p, size_t n)
{
	switch (p) {
	case HTOD: CK(cudaMemcpyAsync(dev_a, pinned, n, cudaMemcpyHostToDevice, s)); break;
	case DTOH: CK(cudaMemcpyAsync(pinned, dev_a, n, cudaMemcpyDeviceToHost, s)); break;
	case DTOD: CK(cudaMemcpyAsync(dev_b, dev_a, n, cudaMemcpyDeviceToDevice, s)); break;
	default: CK(cudaMemsetAsync(dev_a, 1, n, s)); break;
	}
}

/* seq: 'K' an empty kernel, 'C' the operation; us from after the spin. */
static double timed(const char *seq, enum path p, size_t n)
{
	std::vector<double> v;

	for (int rep = 0; rep < 30; rep++) {
		cudaEvent_t a, b;
		float ms;

		CK(cudaEventCreate(&a));
		CK(cudaEventCreate(&b));
		CK(cudaStreamSynchronize(s));
		spin<<<1, 1, 0, s>>>(400000);	/* about 200 us */
		CK(cudaEventRecord(a, s));
		for (const char *c = seq; *c; c++)
			if (*c == 'K')
				empty<<<1, 32, 0, s>>>((int *)dev_b, rep);
			else
				op(p, n);
		CK(cudaEventRecord(b, s));
		CK(cudaEventSynchronize(b));
		CK(cudaEventElapsedTime(&ms, a, b));
		v.push_back(ms * 1e3);
		CK(cudaEventDestroy(a));
		CK(cudaEventDestroy(b));
	}
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

int main(void)
{
	CK(cudaSetDevice(0));
	CK(cudaMallocHost(&pinned, 16 * MIB));
	CK(cudaMalloc(&dev_a, 16 * MIB));
	CK(cudaMalloc(&dev_b, 16 * MIB));
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	spin<<<1, 1, 0, s>>>(1000);
	CK(cudaStreamSynchronize(s));
	printf("afterop.K: us=%.3f\n", timed("K", HTOD, 0));
	printf("afterop.KK: us=%.3f\n", timed("KK", HTOD, 0));
	/* the pinned paths by size, 4 KiB to 16 MiB; the others at 4 KiB
	 * and 1 MiB */
	for (int p = 0; p < NPATHS; p++)
		for (size_t n = 4 * KIB; n <= (p <= DTOH ? 16 : 1) * MIB;
		     n *= p <= DTOH ? 4 : 256) {
			static const char *const seqs[] = { "C", "CK", "CC" };
			for (int q = 0; q < 3; q++)
				printf("afterop.%s %s %zuKiB: us=%.3f\n", seqs[q],
				       path_name[p], n / KIB,
				       timed(seqs[q], (enum path)p, n));
			fflush(stdout);
		}
	printf("afterop.done: ok\n");
	return 0;
}
