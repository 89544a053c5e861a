// heap.cu - the device heap and indirect calls through the runtime, as
// an H200 answered them (probes/results/heap.txt): new and delete of
// classes with virtual functions, divergent across a warp; a table of
// function pointers; malloc 16-byte aligned, NULL once the heap is spent
// and 0 for a request of the whole heap; a block one kernel allocates and
// another frees; the heap's size refused once a launch has used it; and
// last, a call through address 0, an invalid pc that leaves the context
// failed, as on the device.
#include "check.h"

struct Shape {
	__device__ virtual int area() const { return 0; }
	__device__ virtual ~Shape() {}
};
struct Sq : Shape {
	int s;
	__device__ Sq(int v) : s(v) {}
	__device__ int area() const override { return s * s; }
};
struct Rect : Shape {
	int w, h;
	__device__ Rect(int a, int b) : w(a), h(b) {}
	__device__ int area() const override { return w * h; }
};

__device__ int add1(int x) { return x + 1; }
__device__ int dbl(int x) { return x * 2; }
__device__ int neg(int x) { return -x; }
typedef int (*fn_t)(int);
__device__ fn_t table[3] = { add1, dbl, neg };

__global__ void calls(int *out)
{
	int t = threadIdx.x;
	Shape *s = (t & 1) ? (Shape *)new Sq(t) : (Shape *)new Rect(t, 2);
	out[t] = s ? s->area() : -1;
	delete s;
	out[64 + t] = table[t % 3](t);
}

// one thread takes blocks of size until NULL (at most cap) and keeps them
__global__ void take(unsigned long long size, int cap, int *got,
		     unsigned long long *keep)
{
	int n = 0;
	for (void *p; n < cap && (p = malloc(size)); n++)
		keep[n] = (unsigned long long)p;
	*got = n;
}

__global__ void give(unsigned long long *keep, int n)
{
	for (int i = 0; i < n; i++)
		free((void *)keep[i]);
}

__global__ void callat(unsigned long long a, int *out)
{
	out[0] = ((fn_t)a)(7);
}

int main()
{
	int *out, *got;
	unsigned long long *keep;
	size_t lim;

	CHECK(cudaMallocManaged(&out, 128 * sizeof(int)));
	CHECK(cudaMallocManaged(&got, sizeof(int)));
	CHECK(cudaMallocManaged(&keep, 4096 * sizeof *keep));
	CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
	EXPECT(lim == 8u << 20);
	calls<<<1, 32>>>(out);
	CHECK(cudaDeviceSynchronize());
	for (int t = 0; t < 32; t++) {
		EXPECT(out[t] == ((t & 1) ? t * t : 2 * t));
		EXPECT(out[64 + t] == (t % 3 == 0 ? t + 1 : t % 3 == 1 ? 2 * t : -t));
	}
	// the heap is fixed now, whatever size is asked
	EXPECT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20) ==
	       cudaErrorInvalidValue);
	EXPECT(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8u << 20) ==
	       cudaErrorInvalidValue);
	CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
	EXPECT(lim == 8u << 20);
	// the whole heap in one block: none; half of it: once
	take<<<1, 1>>>(8u << 20, 4, got, keep);
	CHECK(cudaDeviceSynchronize());
	EXPECT(*got == 0);
	take<<<1, 1>>>(4u << 20, 4, got, keep);
	CHECK(cudaDeviceSynchronize());
	EXPECT(*got == 1);
	give<<<1, 1>>>(keep, 1);
	// 4 KiB blocks until the heap is spent, 16-byte aligned; another
	// kernel frees them and the heap holds as many again
	take<<<1, 1>>>(4096, 4096, got, keep);
	CHECK(cudaDeviceSynchronize());
	int n = *got;
	EXPECT(n > 1800 && n < 4096);   /* the H200: 1888 */
	for (int i = 0; i < n; i++)
		EXPECT(keep[i] % 16 == 0);
	give<<<1, 1>>>(keep, n);
	take<<<1, 1>>>(4096, 4096, got, keep);
	CHECK(cudaDeviceSynchronize());
	EXPECT(*got == n);
	give<<<1, 1>>>(keep, n);
	CHECK(cudaDeviceSynchronize());
	// a call through 0: an invalid pc, sticky
	callat<<<1, 1>>>(0, out);
	EXPECT(cudaDeviceSynchronize() == cudaErrorInvalidPc);
	std::printf("PASS\n");
	return 0;
}
