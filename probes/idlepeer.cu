// idlepeer.cu - whether another GPU's work keeps a GPU awake
// (probes/idlewake.cu: a kernel after 10 ms of idle pays about 25 us more;
// patterns.cu's rm_gpu0_read_own paid nothing after 8 ms of gpu1 reading
// gpu0's read-mostly pages). gpu0 touches 1 GiB of its memory (a byte
// every 4 KiB), timed with events, after 10 ms in which: nothing ran;
// gpu1 spun on its own; gpu1 read gpu0's memory over NVLink (peer
// access); gpu0's copy engine copied to gpu1 (a peer copy); the host
// copied to gpu0. Five kernels each, the first after a warm-up kernel.
// Each line: idlepeer.<case> k<N>: ms=...
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o idlepeer idlepeer.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("idlepeer.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void touch(char *p, size_t n, size_t stride)
{
	size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * stride;
	if (i < n)
		p[i] += 1;
}

// Reads p (n int4) over and over for about the given clocks.
__global__ void readloop(const int4 *p, size_t n, long long clocks, int *out)
{
	long long t0 = clock64();
	int s = 0;
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	while (clock64() - t0 < clocks) {
		s += p[i % n].x;
		i += (size_t)gridDim.x * blockDim.x;
	}
	if (s == 42)
		*out = s;
}

static double touch_ms(char *d, size_t n)
{
	cudaEvent_t a, b;
	float ms;

	CK(cudaSetDevice(0));
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	CK(cudaEventRecord(a, 0));
	touch<<<(n / 4096 + 511) / 512, 512>>>(d, n, 4096);
	CK(cudaEventRecord(b, 0));
	CK(cudaEventSynchronize(b));
	CK(cudaEventElapsedTime(&ms, a, b));
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return ms;
}

int main(void)
{
	size_t n = 1024 * MIB;
	char *d0, *d1, *h;
	int *out1, ndev = 0, ok = 0;
	/* about 10 ms at the H200's 1.98 GHz */
	long long clocks = 19800000LL;

	CK(cudaGetDeviceCount(&ndev));
	if (ndev < 2) {
		printf("idlepeer.error: needs two GPUs\n");
		return 1;
	}
	CK(cudaDeviceCanAccessPeer(&ok, 1, 0));
	printf("idlepeer.peer_access: %d\n", ok);
	CK(cudaSetDevice(0));
	CK(cudaMalloc(&d0, n));
	CK(cudaMemset(d0, 0, n));
	CK(cudaMallocHost(&h, 256 * MIB));
	CK(cudaSetDevice(1));
	CK(cudaMalloc(&d1, 256 * MIB));
	CK(cudaMalloc(&out1, sizeof(int)));
	CK(cudaDeviceEnablePeerAccess(0, 0));
	CK(cudaSetDevice(0));
	CK(cudaDeviceSynchronize());
	for (int c = 0; c < 5; c++) {
		static const char *names[] = { "nothing", "gpu1_own_spin",
			"gpu1_reads_gpu0", "peer_copy_gpu0_to_gpu1",
			"host_to_gpu0" };
		touch_ms(d0, n);
		for (int k = 0; k < 5; k++) {
			switch (c) {
			case 0:
				usleep(10000);
				break;
			case 1:
				CK(cudaSetDevice(1));
				readloop<<<264, 512>>>((const int4 *)d1,
						       256 * MIB / 16, clocks, out1);
				CK(cudaDeviceSynchronize());
				break;
			case 2:
				CK(cudaSetDevice(1));
				readloop<<<264, 512>>>((const int4 *)d0,
						       n / 16, clocks, out1);
				CK(cudaDeviceSynchronize());
				break;
			case 3:
				for (int r = 0; r < 20; r++)
					CK(cudaMemcpyPeer(d1, 1, d0, 0,
							  256 * MIB));
				CK(cudaDeviceSynchronize());
				break;
			case 4:
				for (int r = 0; r < 5; r++)
					CK(cudaMemcpy(d0, h, 256 * MIB,
						      cudaMemcpyHostToDevice));
				break;
			}
			printf("idlepeer.%s k%d: ms=%.4f\n", names[c], k,
			       touch_ms(d0, n));
			fflush(stdout);
		}
	}
	printf("idlepeer.done: ok\n");
	return 0;
}
