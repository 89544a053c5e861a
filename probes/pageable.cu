// pageable.cu - when cudaMemcpyAsync from pageable memory to the GPU
// returns: copyone.cu found a 1 MiB one queued behind a 200 us kernel done
// 26 us after the kernel, before the call that queued it had returned, so
// the call did not wait for its stream. Where does that stop? For each
// size (4 KiB to 64 MiB; 2 and 3 MiB too), median of 5:
//   idle_call   the call alone, the stream idle (wall clock)
//   busy_call   the call queued behind a 10 ms spinning kernel (wall
//               clock): under 10 ms if it did not wait for the kernel
//   busy_dev    events around the copy recorded after the spin: the
//               device's time for it once the kernel is done
//   reuse       after busy_call returns, the source is overwritten: 1 if
//               the GPU still got the bytes from before the call returned
//   sync_call   cudaMemcpy (synchronous) behind a 10 ms kernel on the
//               legacy stream
// Lines: pageable.<case> <size>KiB: us=... (reuse: ok=0|1)
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o pageable pageable.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>

#define KIB (1UL << 10)
#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("pageable.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

static const long long SPIN = 20000000;	/* about 10 ms */

__global__ void spin(long long cycles)
{
	long long t0 = clock64();

	while (clock64() - t0 < cycles)
		;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static double median(std::vector<double> v)
{
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

int main(void)
{
	const size_t max = 64 * MIB;
	unsigned char *src = (unsigned char *)malloc(max), *back;
	unsigned char *dev;
	cudaStream_t s;

	CK(cudaMalloc(&dev, max));
	CK(cudaMallocHost(&back, max));
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	memset(src, 1, max);
	spin<<<1, 1, 0, s>>>(1000);
	CK(cudaMemcpyAsync(dev, src, max, cudaMemcpyHostToDevice, s));
	CK(cudaStreamSynchronize(s));
	static const size_t sizes[] = { 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB,
		1 * MIB, 2 * MIB, 3 * MIB, 4 * MIB, 16 * MIB, 64 * MIB };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k];
		std::vector<double> idle, busy, dev_us, sync;
		int reuse_ok = 1;

		for (int rep = 0; rep < 5; rep++) {
			cudaEvent_t a, b;
			float ms;
			double t0;

			CK(cudaStreamSynchronize(s));
			t0 = now_us();
			CK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s));
			idle.push_back(now_us() - t0);
			CK(cudaStreamSynchronize(s));

			CK(cudaEventCreate(&a));
			CK(cudaEventCreate(&b));
			memset(src, 2 + rep, n);
			spin<<<1, 1, 0, s>>>(SPIN);
			CK(cudaEventRecord(a, s));
			t0 = now_us();
			CK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s));
			busy.push_back(now_us() - t0);
			memset(src, 0xee, n);	/* the program reuses its buffer */
			CK(cudaEventRecord(b, s));
			CK(cudaEventSynchronize(b));
			CK(cudaEventElapsedTime(&ms, a, b));
			dev_us.push_back(ms * 1e3);
			CK(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost));
			for (size_t i = 0; i < n; i += 4093)
				if (back[i] != 2 + rep)
					reuse_ok = 0;
			CK(cudaEventDestroy(a));
			CK(cudaEventDestroy(b));

			memset(src, 1, n);
			spin<<<1, 1>>>(SPIN);	/* the legacy stream's */
			t0 = now_us();
			CK(cudaMemcpy(dev, src, n, cudaMemcpyHostToDevice));
			sync.push_back(now_us() - t0);
		}
		printf("pageable.idle_call %zuKiB: us=%.3f\n", n / KIB, median(idle));
		printf("pageable.busy_call %zuKiB: us=%.3f\n", n / KIB, median(busy));
		printf("pageable.busy_dev %zuKiB: us=%.3f\n", n / KIB, median(dev_us));
		printf("pageable.reuse %zuKiB: ok=%d\n", n / KIB, reuse_ok);
		printf("pageable.sync_call %zuKiB: us=%.3f\n", n / KIB, median(sync));
		fflush(stdout);
	}
	printf("pageable.done: ok\n");
	return 0;
}
