/* clock.cu - a program that times itself, as research programs do, run with
 * CUEMU_CLOCK=model (run.sh): std::chrono's steady_clock and gettimeofday
 * around a kernel and its synchronization read the model time the kernel
 * took, as CUDA events around it measure it; around a CPU loop, its CPU
 * time; system_clock keeps its offset to steady_clock. */
#include <chrono>
#include <cstring>
#include <ctime>
#include <sys/time.h>

#include "check.h"

using std::chrono::steady_clock;
using std::chrono::system_clock;

/* One byte of every 4 KiB page: a GPU fault for each page the host holds. */
__global__ void touch(char *p, size_t n)
{
	size_t i = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * 4096;

	if (i < n)
		p[i] = 1;
}

static double ms_since(steady_clock::time_point t0)
{
	return std::chrono::duration<double, std::milli>(steady_clock::now() -
							 t0).count();
}

static double tod_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void)
{
	const size_t n = 64 << 20;
	cudaEvent_t a, b;
	float ev_ms;
	char *p;

	CHECK(cudaMallocManaged(&p, n));
	std::memset(p, 0, n);
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	/* Loaded before the timing, as a warm-up launch does. */
	touch<<<1, 1>>>(p, 0);
	CHECK(cudaDeviceSynchronize());

	steady_clock::time_point t0 = steady_clock::now();
	double g0 = tod_ms();
	CHECK(cudaEventRecord(a));
	touch<<<(unsigned)(n / 4096 / 256), 256>>>(p, n);
	CHECK(cudaEventRecord(b));
	CHECK(cudaDeviceSynchronize());
	double chrono_ms = ms_since(t0), g_ms = tod_ms() - g0;
	CHECK(cudaEventElapsedTime(&ev_ms, a, b));
	std::printf("kernel: %.3f ms by events, %.3f ms by steady_clock, "
		    "%.3f ms by gettimeofday\n", ev_ms, chrono_ms, g_ms);
	EXPECT(ev_ms > 1);
	EXPECT(chrono_ms >= ev_ms - 0.01 && chrono_ms < ev_ms + 5);
	EXPECT(g_ms >= ev_ms - 0.01 && g_ms < ev_ms + 5);

	/* A CPU loop: its CPU time. */
	double c0 = cpu_ms();
	t0 = steady_clock::now();
	volatile unsigned x = 0;
	while (cpu_ms() - c0 < 20)
		for (int i = 0; i < 10000; i++)
			x += i;
	double loop_ms = ms_since(t0), loop_cpu = cpu_ms() - c0;
	std::printf("CPU loop: %.3f ms by steady_clock, %.3f ms of CPU\n",
		    loop_ms, loop_cpu);
	EXPECT(loop_ms >= loop_cpu - 1 && loop_ms < loop_cpu * 1.1 + 2);

	/* The clocks keep their offsets while model time runs ahead. */
	auto off = [] {
		return std::chrono::duration<double, std::milli>(
			system_clock::now().time_since_epoch() -
			steady_clock::now().time_since_epoch()).count();
	};
	double o0 = off();
	touch<<<(unsigned)(n / 4096 / 256), 256>>>(p, n);
	CHECK(cudaDeviceSynchronize());
	EXPECT(off() - o0 < 1 && o0 - off() < 1);
	CHECK(cudaFree(p));
	std::printf("PASS\n");
	return 0;
}
