// stackmem.cu - what CU_LIMIT_STACK_SIZE costs in device memory on the GPU,
// and what a kernel whose frame needs more stack than the limit does.
// Modes, one a process (a failed launch may poison the context):
//   charge  free memory (cuMemGetInfo) after the context is made, after
//           each cuCtxSetLimit of the stack (a sweep, growing then
//           lowering), after a first launch, after kernels whose local
//           frames (4 KiB, 64 KiB) are over the limit (the limit read
//           back each time), then with all but 2 GiB of memory taken: a
//           frame whose stack does not fit, a set that does not fit, and
//           a plain kernel after them.
//   zero D  the stack set to 0, then a plain kernel, a 256-byte frame and
//           a recursion D deep; each launch's error, whether its result is
//           right, the limit and free memory after.
//   rec D   the stack set to 0, then only the recursion D deep.
// Run with CUDA_MODULE_LOADING=EAGER so that no module loads at a launch.
// Build: nvcc -O2 -arch=sm_90 -o stackmem stackmem.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" __global__ void plain(int *out)
{
	out[threadIdx.x] = threadIdx.x + 1;
}

template <int N> __device__ int frame(int k)
{
	volatile int buf[N / 4];

	for (int i = 0; i < N / 4; i++)
		buf[(i + k) % (N / 4)] = i ^ k;
	return buf[(k * 7) % (N / 4)];
}
extern "C" __global__ void frame256(int *out, int k) { out[threadIdx.x] = frame<256>(k + threadIdx.x); }
extern "C" __global__ void frame4k(int *out, int k) { out[threadIdx.x] = frame<4096>(k + threadIdx.x); }
extern "C" __global__ void frame64k(int *out, int k) { out[threadIdx.x] = frame<65536>(k + threadIdx.x); }

__device__ int rec(int d)
{
	volatile int buf[32];

	for (int i = 0; i < 32; i++)
		buf[i] = d + i;
	if (d == 0)
		return buf[5];
	return rec(d - 1) + buf[d % 32];
}
extern "C" __global__ void recurse(int *out, int depth)
{
	out[threadIdx.x] = rec(depth);
}

static size_t freemem(void)
{
	size_t f = 0, t = 0;
	cuMemGetInfo(&f, &t);
	return f;
}
static size_t limit(void)
{
	size_t v = 0;
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	return v;
}
static void set(const char *tag, size_t v)
{
	CUresult r = cuCtxSetLimit(CU_LIMIT_STACK_SIZE, v);
	const char *n = "?";
	cuGetErrorName(r, &n);
	printf("stackmem.%s.set %zu: %s get=%zu free=%zu\n", tag, v, n, limit(), freemem());
}
static size_t local_bytes(const void *f)
{
	cudaFuncAttributes a;
	memset(&a, 0, sizeof a);
	cudaFuncGetAttributes(&a, f);
	return a.localSizeBytes;
}
/* launch f on 32 threads; its error (launch, then sync) and the result */
static void launch(const char *tag, const void *f, int *out, int arg, int want0)
{
	void *args[] = { &out, &arg };
	for (int i = 0; i < 32; i++)
		out[i] = -1;
	cudaError_t e = cudaLaunchKernel(f, 1, 32, args, 0, 0);
	cudaError_t s = cudaDeviceSynchronize();
	printf("stackmem.%s.launch local=%zu: %s %s %s get=%zu free=%zu\n", tag,
	       local_bytes(f), cudaGetErrorName(e), cudaGetErrorName(s),
	       s ? "-" : out[0] == want0 ? "right" : "wrong", limit(), freemem());
}
static int frame_want(int n, int k)
{
	int j = (k * 7) % (n / 4);
	return ((j - k % (n / 4) + n / 4) % (n / 4)) ^ k;
}

static void charge(int *out)
{
	static const size_t up[] = { 0, 16, 48, 1008, 1024, 1040, 2000, 2048,
		4096, 8192, 12000, 16384, 32768, 100000 };
	static const size_t down[] = { 8192, 4096, 1024, 16, 0, 1024 };
	char tag[32];
	CUdeviceptr big = 0;

	printf("stackmem.ctx: get=%zu free=%zu\n", limit(), freemem());
	for (size_t s = 16; s <= 512; s += 16) {
		snprintf(tag, sizeof tag, "sweep%zu", s);
		set(tag, s);
	}
	for (unsigned i = 0; i < sizeof up / sizeof *up; i++) {
		snprintf(tag, sizeof tag, "up%u", i);
		set(tag, up[i]);
	}
	for (unsigned i = 0; i < sizeof down / sizeof *down; i++) {
		snprintf(tag, sizeof tag, "down%u", i);
		set(tag, down[i]);
	}
	printf("stackmem.before_launch: get=%zu free=%zu\n", limit(), freemem());
	launch("first", (const void *)plain, out, 0, 1);
	launch("frame4k", (const void *)frame4k, out, 3, frame_want(4096, 3));
	set("after4k", 1024);
	launch("frame4k_again", (const void *)frame4k, out, 3, frame_want(4096, 3));
	launch("frame64k", (const void *)frame64k, out, 3, frame_want(65536, 3));
	launch("plain_after64k", (const void *)plain, out, 0, 1);
	set("after64k", 1024);
	set("after64k_2048", 2048);
	/* all but 2 GiB taken */
	size_t take = freemem() - (2ull << 30);
	CUresult r = cuMemAlloc(&big, take);
	printf("stackmem.low.alloc %zu: %d free=%zu\n", take, (int)r, freemem());
	launch("low.frame4k", (const void *)frame4k, out, 3, frame_want(4096, 3));
	launch("low.frame64k", (const void *)frame64k, out, 3, frame_want(65536, 3));
	launch("low.plain", (const void *)plain, out, 0, 1);
	set("low.s16384", 16384);
	launch("low.plain2", (const void *)plain, out, 0, 1);
	set("low.s1024", 1024);
	if (big)
		cuMemFree(big);
	printf("stackmem.freed: get=%zu free=%zu\n", limit(), freemem());
	launch("freed.frame64k", (const void *)frame64k, out, 3, frame_want(65536, 3));
}

static void zero(int *out, int depth)
{
	int want = 5;

	for (int d = 1; d <= depth; d++)
		want += d + d % 32;
	set("zero", 0);
	launch("zero.plain", (const void *)plain, out, 0, 1);
	launch("zero.frame256", (const void *)frame256, out, 3, frame_want(256, 3));
	printf("stackmem.zero.rec%d.want %d\n", depth, want);
	launch(depth == 0 ? "zero.rec0" : depth < 10 ? "zero.rec_small" : "zero.rec_deep",
	       (const void *)recurse, out, depth, want);
}

int main(int argc, char **argv)
{
	int *out;
	CUdevice dev;
	CUcontext ctx;

	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	cudaSetDevice(0);
	printf("stackmem.start %s: get=%zu free=%zu\n", argc > 1 ? argv[1] : "charge",
	       limit(), freemem());
	cudaMallocManaged(&out, 64 * sizeof(int));
	if (argc > 2 && !strcmp(argv[1], "rec")) {
		int d = atoi(argv[2]), want = 5;
		char tag[32];
		for (int i = 1; i <= d; i++)
			want += i + i % 32;
		set("rec", 0);
		snprintf(tag, sizeof tag, "rec%d", d);
		launch(tag, (const void *)recurse, out, d, want);
	} else if (argc > 2 && !strcmp(argv[1], "zero"))
		zero(out, atoi(argv[2]));
	else
		charge(out);
	return 0;
}
