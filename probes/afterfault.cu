// afterfault.cu - what the kernel right after a faulting kernel pays, and
// why. patterns.cu's scramble_4k_resident (32,768 scattered byte touches of
// 128 MiB the kernel before faulted in from the host) took 37 to 43 us on
// two H200s, where scatter.cu's same touches of resident memory took 6 to
// 13. Is that the pages (just faulted in) or the GPU (its SMs stalled on
// faults for 15 ms, as idle as after a sleep)? Each case times the same
// scattered-touch kernel with events, right after:
//   dev_after_dev       the same kernel on the same cudaMalloc memory
//   dev_after_sleep_MS  the host sleeping MS ms with nothing queued
//   dev_after_spin_MS   a kernel of 132 blocks spinning MS ms (SMs busy)
//   dev_after_one_MS    a kernel of one thread spinning MS ms (SMs idle)
//                       (these two only with the argument "spin": an
//                       interpreter takes hours over 132 blocks' spin)
//   dev_after_fault_N   a kernel faulting N MiB of managed memory in from
//                       the host (scattered, as patterns.cu), then the
//                       touches on other, device memory
//   own_after_fault_N   the same, then the touches on the pages just
//                       faulted in (patterns.cu's sequence)
//   own_after_fault_N_again  the same touches once more
//   dev_after_first_N   a kernel first touching N MiB of managed memory
//                       nothing had touched (faults that populate the
//                       GPU's pages, moving nothing), then the touches
//                       on device memory
// Each line: afterfault.<case> repR: us=... (the faulting kernel's own
// time beside it where there is one: fault_us=...).
// Build: nvcc -O2 -arch=sm_90 -cudart shared -o afterfault afterfault.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MIB (1UL << 20)
#define REPS 5
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	printf("afterfault.error: %s line %d: %s\n", #x, __LINE__, \
	       cudaGetErrorString(e_)); exit(1); } } while (0)

/* One byte of each 4 KiB page, the pages in patterns.cu's scrambled
 * order. */
__global__ void k_scramble(char *p, size_t pages)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < pages)
		p[((i * 0x9E3779B1ULL) & (pages - 1)) * 4096] += 1;
}

/* Every thread of the grid spins until the SM's clock passes cycles. */
__global__ void k_spin(long long cycles, int *out)
{
	long long t0 = clock64();
	while (clock64() - t0 < cycles)
		;
	if (threadIdx.x == 0 && blockIdx.x == 0)
		out[0] = 1;
}

static void scramble(char *p, size_t n)
{
	size_t pages = n / 4096;
	k_scramble<<<(unsigned)((pages + 511) / 512), 512>>>(p, pages);
}

static cudaEvent_t ea, eb;

static double timed_scramble(char *p, size_t n)
{
	float ms;

	CK(cudaEventRecord(ea, 0));
	scramble(p, n);
	CK(cudaGetLastError());
	CK(cudaEventRecord(eb, 0));
	CK(cudaEventSynchronize(eb));
	CK(cudaEventElapsedTime(&ms, ea, eb));
	return ms * 1e3;
}

static void to_host(char *p, size_t n)
{
	struct cudaMemLocation l = {cudaMemLocationTypeHost, 0};

	CK(cudaMemPrefetchAsync(p, n, l, 0, 0));
	CK(cudaDeviceSynchronize());
	for (size_t i = 0; i < n; i += 4096)
		p[i] += 1;
}

static void line(const char *c, int rep, double us)
{
	printf("afterfault.%s rep%d: us=%.1f\n", c, rep, us);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const size_t dn = 128 * MIB;
	const size_t fault_mib[] = {2, 16, 128};
	const int ms_cases[] = {1, 15};
	cudaDeviceProp prop;
	long long per_ms;
	char *d, *m, name[64];
	int *sink, ndev;

	CK(cudaGetDeviceCount(&ndev));
	CK(cudaGetDeviceProperties(&prop, 0));
	/* clockRate is gone from CUDA 13's properties: the attribute. */
	int khz = 0;
	CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
	per_ms = khz;
	printf("afterfault.devices: %d gpu0=%s sms=%d clock_khz=%d\n", ndev,
	       prop.name, prop.multiProcessorCount, khz);
	CK(cudaEventCreate(&ea));
	CK(cudaEventCreate(&eb));
	CK(cudaMalloc(&d, dn));
	CK(cudaMalloc(&sink, 4));
	CK(cudaMemset(d, 0, dn));
	CK(cudaMallocManaged(&m, 128 * MIB));
	timed_scramble(d, dn);
	for (int rep = 0; rep < REPS; rep++) {
		timed_scramble(d, dn);
		line("dev_after_dev", rep, timed_scramble(d, dn));
	}
	for (int c = 0; c < 2; c++)
		for (int rep = 0; rep < REPS; rep++) {
			timed_scramble(d, dn);
			usleep(ms_cases[c] * 1000);
			snprintf(name, sizeof(name), "dev_after_sleep_%d",
				 ms_cases[c]);
			line(name, rep, timed_scramble(d, dn));
		}
	for (int c = 0; c < 2 && argc > 1 && !strcmp(argv[1], "spin"); c++)
		for (int rep = 0; rep < REPS; rep++) {
			k_spin<<<prop.multiProcessorCount, 1024>>>(
				ms_cases[c] * per_ms, sink);
			snprintf(name, sizeof(name), "dev_after_spin_%d",
				 ms_cases[c]);
			line(name, rep, timed_scramble(d, dn));
			k_spin<<<1, 1>>>(ms_cases[c] * per_ms, sink);
			snprintf(name, sizeof(name), "dev_after_one_%d",
				 ms_cases[c]);
			line(name, rep, timed_scramble(d, dn));
		}
	for (int c = 0; c < 3; c++) {
		size_t n = fault_mib[c] * MIB;

		for (int rep = 0; rep < REPS; rep++) {
			double f;

			to_host(m, n);
			f = timed_scramble(m, n);
			snprintf(name, sizeof(name), "dev_after_fault_%zu",
				 fault_mib[c]);
			printf("afterfault.%s rep%d: fault_us=%.1f us=%.1f\n",
			       name, rep, f, timed_scramble(d, dn));
			to_host(m, n);
			f = timed_scramble(m, n);
			snprintf(name, sizeof(name), "own_after_fault_%zu",
				 fault_mib[c]);
			printf("afterfault.%s rep%d: fault_us=%.1f us=%.1f\n",
			       name, rep, f, timed_scramble(m, n));
			snprintf(name, sizeof(name), "own_after_fault_%zu_again",
				 fault_mib[c]);
			line(name, rep, timed_scramble(m, n));
			fflush(stdout);
		}
	}
	for (int c = 0; c < 3; c++) {
		size_t n = fault_mib[c] * MIB;

		for (int rep = 0; rep < REPS; rep++) {
			char *f;
			double t;

			CK(cudaMallocManaged(&f, n));
			t = timed_scramble(f, n);
			snprintf(name, sizeof(name), "dev_after_first_%zu",
				 fault_mib[c]);
			printf("afterfault.%s rep%d: fault_us=%.1f us=%.1f\n",
			       name, rep, t, timed_scramble(d, dn));
			fflush(stdout);
			CK(cudaFree(f));
		}
	}
	CK(cudaFree(m));
	CK(cudaFree(d));
	CK(cudaFree(sink));
	printf("afterfault.done: ok\n");
	return 0;
}
