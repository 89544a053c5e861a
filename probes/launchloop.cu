// launchloop.cu - what a host thread's launch and synchronization cost, as
// a program that times itself sees them: PolyBench's FDTD-2D launches
// 1,500 kernels, each followed by cudaDeviceSynchronize, inside its
// gettimeofday bracket. Each case 2,000 times, timed by the wall clock:
//   call:       the cudaLaunchKernel call alone (an empty kernel of one
//               block, the stream idle), its own duration
//   sync_1:     an empty kernel of one block, then cudaDeviceSynchronize
//   sync_16384: the same with 16,384 blocks of 256 threads
//   queue:      2,000 launches of one block, one synchronization after
// Lines: launchloop <case> rep<R>: us_each=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o launchloop launchloop.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

#define N 2000

__global__ void empty(int *p, int t)
{
	if (t < 0)
		p[0] = t;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

int main(void)
{
	int *p;

	if (cudaMalloc(&p, 64) != cudaSuccess)
		return 1;
	empty<<<1, 32>>>(p, 1);
	cudaDeviceSynchronize();
	for (int rep = 0; rep < 3; rep++) {
		double call = 0, t0, t1;

		for (int i = 0; i < N; i++) {
			t0 = now_us();
			empty<<<1, 32>>>(p, i);
			call += now_us() - t0;
			cudaDeviceSynchronize();
		}
		printf("launchloop call rep%d: us_each=%.3f\n", rep, call / N);
		t0 = now_us();
		for (int i = 0; i < N; i++) {
			empty<<<1, 32>>>(p, i);
			cudaDeviceSynchronize();
		}
		t1 = now_us();
		printf("launchloop sync_1 rep%d: us_each=%.3f\n", rep,
		       (t1 - t0) / N);
		t0 = now_us();
		for (int i = 0; i < N; i++) {
			empty<<<16384, 256>>>(p, i);
			cudaDeviceSynchronize();
		}
		t1 = now_us();
		printf("launchloop sync_16384 rep%d: us_each=%.3f\n", rep,
		       (t1 - t0) / N);
		t0 = now_us();
		for (int i = 0; i < N; i++)
			empty<<<1, 32>>>(p, i);
		cudaDeviceSynchronize();
		t1 = now_us();
		printf("launchloop queue rep%d: us_each=%.3f\n", rep,
		       (t1 - t0) / N);
		fflush(stdout);
	}
	cudaFree(p);
	printf("launchloop.done: ok\n");
	return 0;
}
