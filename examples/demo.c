/*
 * demo.c - the workload of `make demo`: a small training-loop-shaped
 * program that allocates each kind of memory, then, step after step, moves
 * its managed buffers between GPUs with prefetch and advice, touches them
 * from the CPU and from emulated kernels, and cycles a stream-ordered pool,
 * so that /cu has something to show that changes. It runs until
 * interrupted, or for --steps N steps.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"

#define MIB (1UL << 20)
#define CHECK(call)                                                          \
	do {                                                                 \
		CUresult r_ = (call);                                        \
		if (r_ != CUDA_SUCCESS) {                                    \
			const char *n_ = "?";                                \
			cuGetErrorName(r_, &n_);                             \
			fprintf(stderr, "demo: %s: %s\n", #call, n_);        \
			exit(1);                                             \
		}                                                            \
	} while (0)

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct kernel_arg {
	unsigned char *p;
	size_t len;
};

/* An emulated kernel: writes every 64 KiB of its buffer, so the pages it
 * touches fault to the GPU it runs on. */
static void scale_kernel(void *argp)
{
	struct kernel_arg *a = argp;

	for (size_t off = 0; off < a->len; off += 64 * 1024)
		a->p[off] = (unsigned char)(a->p[off] * 3 + 1);
}

static CUmemLocation gpu(int i)
{
	CUmemLocation l = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = i };
	return l;
}

int main(int argc, char **argv)
{
	int ndev = 0;
	long steps = -1;
	CUcontext ctx;
	CUstream streams[4];
	CUdeviceptr weights, activations, grads, scratch;
	void *pinned;
	CUmemLocation host = { .type = CU_MEM_LOCATION_TYPE_HOST, .id = 0 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--steps") && i + 1 < argc)
			steps = atol(argv[++i]);
		else {
			fprintf(stderr, "usage: demo [--steps N]\n");
			return 2;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	CHECK(cuInit(0));
	CHECK(cuDeviceGetCount(&ndev));
	CHECK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CHECK(cuCtxSetCurrent(ctx));
	for (int i = 0; i < 4; i++)
		CHECK(cuStreamCreate(&streams[i], CU_STREAM_NON_BLOCKING));

	CHECK(cuMemAllocManaged(&weights, 64 * MIB, CU_MEM_ATTACH_GLOBAL));
	CHECK(cuMemAllocManaged(&activations, 32 * MIB, CU_MEM_ATTACH_GLOBAL));
	CHECK(cuMemAllocManaged(&grads, 16 * MIB, CU_MEM_ATTACH_GLOBAL));
	CHECK(cuMemAlloc(&scratch, 8 * MIB));
	CHECK(cuMemHostAlloc(&pinned, 4 * MIB, CU_MEMHOSTALLOC_PORTABLE));
	cuemuSetLabel(weights, "weights");
	cuemuSetLabel(activations, "activations");
	cuemuSetLabel(grads, "gradients");
	cuemuSetLabel(scratch, "scratch");
	cuemuSetLabel((CUdeviceptr)pinned, "staging");

	/* Weights are read by every GPU: read-mostly, duplicated. */
	memset((void *)weights, 1, 64 * MIB);
	CHECK(cuMemAdvise(weights, 64 * MIB, CU_MEM_ADVISE_SET_READ_MOSTLY, gpu(0)));

	printf("demo: pid %d, %d GPUs; allocations labelled weights, activations, "
	       "gradients, scratch, staging\n", (int)getpid(), ndev);
	fflush(stdout);

	for (long step = 0; !stop && (steps < 0 || step < steps); step++) {
		int g = (int)(step % ndev);
		CUstream s = streams[g % 4];
		struct kernel_arg ka = { (unsigned char *)activations, 32 * MIB };
		CUdeviceptr tmp;

		/* Forward: activations move to this step's GPU and a kernel
		 * writes them there. */
		CHECK(cuMemPrefetchAsync(weights, 64 * MIB, gpu(g), 0, s));
		CHECK(cuMemPrefetchAsync(activations, 32 * MIB, gpu(g), 0, s));
		CHECK(cuemuLaunchHostFunc(s, scale_kernel, &ka));
		/* Backward: gradients prefer GPU 0 and are read remotely by the
		 * others. */
		CHECK(cuMemAdvise(grads, 16 * MIB, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu(0)));
		CHECK(cuMemAdvise(grads, 16 * MIB, CU_MEM_ADVISE_SET_ACCESSED_BY, gpu(g)));
		CHECK(cuemuAccess(s, grads, 16 * MIB, CUEMU_ACCESS_READ | CUEMU_ACCESS_WRITE));
		/* Scratch from the stream-ordered pool. */
		CHECK(cuMemAllocAsync(&tmp, (size_t)(1 + step % 8) * MIB, s));
		CHECK(cuMemsetD8Async(tmp, 0, (size_t)(1 + step % 8) * MIB, s));
		CHECK(cuMemFreeAsync(tmp, s));
		CHECK(cuStreamSynchronize(s));
		/* Every fourth step the CPU reads the activations back: CPU
		 * faults pull them home. */
		if (step % 4 == 3) {
			volatile unsigned char sum = 0;
			for (size_t off = 0; off < 32 * MIB; off += 4096)
				sum += ((unsigned char *)activations)[off];
			(void)sum;
			CHECK(cuMemPrefetchAsync(grads, 16 * MIB, host, 0, s));
			CHECK(cuStreamSynchronize(s));
		}
		if (steps < 0)
			sleep(1);
	}

	CHECK(cuMemFree(weights));
	CHECK(cuMemFree(activations));
	CHECK(cuMemFree(grads));
	CHECK(cuMemFree(scratch));
	CHECK(cuMemFreeHost(pinned));
	for (int i = 0; i < 4; i++)
		CHECK(cuStreamDestroy(streams[i]));
	printf("demo: done\n");
	return 0;
}
