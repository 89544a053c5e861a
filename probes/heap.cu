// heap.cu - the device heap and indirect calls on the real GPU: malloc and
// free from kernels (alignment, spacing, exhaustion, a kernel freeing
// another's allocation, what the host API says of a heap pointer, the
// heap limit set before and after a launch that used it, what the first
// such launch takes from free memory), and calls through function
// addresses (a table of __device__ functions, virtual functions, the
// addresses themselves, a bad address). Cases that fail the context run
// one per process: heap bad ADDRKIND. Lines are "heap.<case>: RESULT
// details"; addresses are never printed, only their residues and
// differences.
// Build: nvcc -O2 -arch=sm_90 -o heap heap.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long u64;

__global__ void nomalloc(int *out) { out[0] = 1; }

// One thread's mallocs of the sizes given, their addresses kept.
__global__ void allocs(const u64 *sizes, int n, u64 *addr)
{
	for (int i = 0; i < n; i++)
		addr[i] = (u64)malloc(sizes[i]);
}

__global__ void frees(u64 *addr, int n)
{
	for (int i = 0; i < n; i++)
		free((void *)addr[i]);
}

// One thread mallocs SIZE until NULL (at most cap), then frees them all.
__global__ void count(u64 size, int cap, int *got, u64 *first, u64 *keep)
{
	int n = 0;
	for (; n < cap; n++) {
		void *p = malloc(size);
		if (!p)
			break;
		keep[n] = (u64)p;
	}
	*got = n;
	*first = n ? keep[0] : 0;
	for (int i = 0; i < n; i++)
		free((void *)keep[i]);
}

// Every thread one malloc of SIZE; how many got memory; kept, not freed.
__global__ void many(u64 size, int *ok, u64 *addr)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	void *p = malloc(size);
	addr[t] = (u64)p;
	if (p) {
		memset(p, t & 0xff, size < 64 ? size : 64);
		atomicAdd(ok, 1);
	}
}

__global__ void readback(u64 *addr, int n, int *bad)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t < n && addr[t] && *(unsigned char *)addr[t] != (t & 0xff))
		atomicAdd(bad, 1);
}

// Function pointers of one module: a table and virtual functions.
__device__ int add1(int x) { return x + 1; }
__device__ int dbl(int x) { return x * 2; }
__device__ int neg(int x) { return -x; }
typedef int (*fn_t)(int);
__device__ fn_t table[3] = { add1, dbl, neg };

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

__global__ void calls(int *out, u64 *fp)
{
	int t = threadIdx.x;
	// divergent: each lane its own entry
	out[t] = table[t % 3](t);
	Shape *s = (t & 1) ? (Shape *)new Sq(t) : (Shape *)new Rect(t, 2);
	out[32 + t] = s ? s->area() : -1;
	delete s;
	if (t == 0) {
		fp[0] = (u64)table[0];
		fp[1] = (u64)table[1];
		fp[2] = (u64)table[2];
		fp[3] = (u64)&add1;
	}
}

__global__ void callat(u64 a, int *out)
{
	out[0] = ((fn_t)a)(7);
}

__device__ int data_word = 5;

static void heap_default(void)
{
	size_t lim = 0, fr0, fr1, fr2, tot;
	int *o, *got;
	u64 *sizes, *addr, *first, *keep;
	cudaError_t e;

	cudaFree(0);
	cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
	printf("heap.default_limit: %zu\n", lim);
	cudaMalloc(&o, 4096);
	cudaMallocManaged(&sizes, 64 * 8);
	cudaMallocManaged(&addr, 64 * 8);
	cudaMallocManaged(&got, 8);
	cudaMallocManaged(&first, 8);
	cudaMallocManaged(&keep, (1 << 20) * 8);
	cudaMemGetInfo(&fr0, &tot);
	nomalloc<<<1, 1>>>(o);
	e = cudaDeviceSynchronize();
	cudaMemGetInfo(&fr1, &tot);
	printf("heap.nomalloc_launch: %s free_delta=%lld\n", cudaGetErrorName(e),
	       (long long)fr0 - (long long)fr1);
	e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20);
	cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
	printf("heap.set_after_nomalloc: %s %zu\n", cudaGetErrorName(e), lim);

	// sizes 1, 3, 16, 17, 100, 0, 4096, 1 MiB, one after another
	u64 sz[] = { 1, 3, 16, 17, 100, 0, 4096, 1 << 20, 24, 8 };
	int n = sizeof sz / sizeof sz[0];
	memcpy(sizes, sz, sizeof sz);
	allocs<<<1, 1>>>(sizes, n, addr);
	e = cudaDeviceSynchronize();
	cudaMemGetInfo(&fr2, &tot);
	printf("heap.first_malloc_launch: %s free_delta=%lld\n",
	       cudaGetErrorName(e), (long long)fr1 - (long long)fr2);
	for (int i = 0; i < n; i++) {
		u64 a = addr[i];
		printf("heap.align.%llu: %s mod16=%llu mod128=%llu mod4096=%llu delta_prev=%lld\n",
		       sz[i], a ? "ptr" : "NULL", a % 16, a % 128, a % 4096,
		       i && a && addr[i - 1] ? (long long)(a - addr[i - 1]) : 0);
	}
	// the host's view of a heap pointer
	if (addr[4]) {
		cudaPointerAttributes pa;
		CUdeviceptr base = 0;
		size_t size = 0;
		char buf[100];
		e = cudaPointerGetAttributes(&pa, (void *)addr[4]);
		printf("heap.host.attributes: %s type=%d device=%d\n",
		       cudaGetErrorName(e), (int)pa.type, pa.device);
		CUresult r = cuMemGetAddressRange(&base, &size, (CUdeviceptr)addr[4]);
		const char *rn = "?";
		cuGetErrorName(r, &rn);
		printf("heap.host.address_range: %s size=%zu offset=%lld\n", rn, size,
		       base ? (long long)(addr[4] - base) : -1);
		unsigned int mt = 0;
		r = cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					  (CUdeviceptr)addr[4]);
		cuGetErrorName(r, &rn);
		printf("heap.host.memory_type: %s %u\n", rn, mt);
		e = cudaMemcpy(buf, (void *)addr[4], 100, cudaMemcpyDeviceToHost);
		printf("heap.host.memcpy_from: %s\n", cudaGetErrorName(e));
		e = cudaFree((void *)addr[4]);
		printf("heap.host.cudafree: %s\n", cudaGetErrorName(e));
		cudaGetLastError();
	}
	frees<<<1, 1>>>(addr, n);
	e = cudaDeviceSynchronize();
	printf("heap.frees: %s\n", cudaGetErrorName(e));

	e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
	cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
	printf("heap.set_after_use: %s %zu\n", cudaGetErrorName(e), lim);
	cudaGetLastError();
	e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20);
	printf("heap.set_same_after_use: %s\n", cudaGetErrorName(e));
	cudaGetLastError();

	// exhaustion, by one thread: how many of a size fit in the heap
	u64 csz[] = { 1000, 4096, 65536, 1 << 20, 4 << 20, 8 << 20, 9 << 20 };
	for (unsigned i = 0; i < sizeof csz / sizeof csz[0]; i++) {
		count<<<1, 1>>>(csz[i], 20000, got, first, keep);
		e = cudaDeviceSynchronize();
		printf("heap.count.%llu: %s %d\n", csz[i], cudaGetErrorName(e),
		       *got);
	}
	// many threads at once
	int *ok;
	u64 *ta;
	cudaMallocManaged(&ok, 8);
	cudaMallocManaged(&ta, 4096 * 8);
	*ok = 0;
	many<<<4, 1024>>>(16384, ok, ta);
	e = cudaDeviceSynchronize();
	printf("heap.many.4096x16384: %s ok=%d\n", cudaGetErrorName(e), *ok);
	// a later kernel reads another's allocation, another frees it
	*got = 0;
	readback<<<4, 1024>>>(ta, 4096, got);
	e = cudaDeviceSynchronize();
	printf("heap.many.readback: %s bad=%d\n", cudaGetErrorName(e), *got);
	int k = 0;
	for (int i = 0; i < 4096; i++)
		if (ta[i])
			ta[k++] = ta[i];
	frees<<<1, 1>>>(ta, k);
	e = cudaDeviceSynchronize();
	printf("heap.many.freed_by_other: %s %d\n", cudaGetErrorName(e), k);
	count<<<1, 1>>>(1 << 20, 64, got, first, keep);
	e = cudaDeviceSynchronize();
	printf("heap.count_after_other_free.1048576: %s %d\n",
	       cudaGetErrorName(e), *got);
	cudaFree(o);
}

// The limit set before any malloc: how many 1 MiB blocks fit then.
static void heap_setbefore(size_t want)
{
	size_t lim = 0, fr0, fr1, tot;
	int *got;
	u64 *first, *keep;
	cudaError_t e;

	cudaFree(0);
	e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, want);
	cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
	printf("heap.setbefore.%zu.set: %s %zu\n", want, cudaGetErrorName(e), lim);
	cudaMallocManaged(&got, 8);
	cudaMallocManaged(&first, 8);
	cudaMallocManaged(&keep, 4096 * 8);
	cudaMemGetInfo(&fr0, &tot);
	count<<<1, 1>>>(1 << 20, 4096, got, first, keep);
	e = cudaDeviceSynchronize();
	cudaMemGetInfo(&fr1, &tot);
	printf("heap.setbefore.%zu.count.1048576: %s %d free_delta=%lld\n", want,
	       cudaGetErrorName(e), *got, (long long)fr0 - (long long)fr1);
	count<<<1, 1>>>(lim, 4, got, first, keep);
	e = cudaDeviceSynchronize();
	printf("heap.setbefore.%zu.count.whole: %s %d\n", want,
	       cudaGetErrorName(e), *got);
}

static void fptr(void)
{
	int *out;
	u64 *fp, host[3];
	cudaError_t e;

	cudaMallocManaged(&out, 64 * sizeof(int));
	cudaMallocManaged(&fp, 4 * 8);
	calls<<<1, 32>>>(out, fp);
	e = cudaDeviceSynchronize();
	int right = 1, vright = 1;
	for (int t = 0; t < 32; t++) {
		int w = t % 3 == 0 ? t + 1 : t % 3 == 1 ? 2 * t : -t;
		int v = (t & 1) ? t * t : 2 * t;
		right &= out[t] == w;
		vright &= out[32 + t] == v;
	}
	printf("heap.fp.table: %s %s\n", cudaGetErrorName(e), right ? "right" : "wrong");
	printf("heap.fp.virtual: %s %s\n", cudaGetErrorName(e), vright ? "right" : "wrong");
	cudaMemcpyFromSymbol(host, table, sizeof host);
	printf("heap.fp.host_table_equals_device: %s\n",
	       host[0] == fp[0] && host[1] == fp[1] && host[2] == fp[2] ? "yes" : "no");
	printf("heap.fp.address_of_equals_table: %s\n", fp[3] == fp[0] ? "yes" : "no");
	printf("heap.fp.values: mod16=%llu,%llu,%llu diff10=%lld diff21=%lld high32=%llx\n",
	       fp[0] % 16, fp[1] % 16, fp[2] % 16, (long long)(fp[1] - fp[0]),
	       (long long)(fp[2] - fp[1]), fp[0] >> 32);
	// is a function address a readable device address?
	cudaPointerAttributes pa;
	e = cudaPointerGetAttributes(&pa, (void *)fp[0]);
	printf("heap.fp.attributes: %s type=%d\n", cudaGetErrorName(e), (int)pa.type);
	cudaGetLastError();
	callat<<<1, 1>>>(fp[1], out);
	e = cudaDeviceSynchronize();
	printf("heap.fp.callat_host_value: %s %d\n", cudaGetErrorName(e), out[0]);
}

// One bad call a process: the context does not survive it.
static void bad(const char *kind)
{
	int *out;
	u64 fp[3], a = 0;
	cudaError_t e;

	cudaMallocManaged(&out, 64 * sizeof(int));
	cudaMemcpyFromSymbol(fp, table, sizeof fp);
	if (!strcmp(kind, "null"))
		a = 0;
	else if (!strcmp(kind, "small"))
		a = 0x1000;
	else if (!strcmp(kind, "plus4"))
		a = fp[0] + 4;
	else if (!strcmp(kind, "plus16"))
		a = fp[0] + 16;
	else if (!strcmp(kind, "data")) {
		void *p;
		cudaGetSymbolAddress(&p, data_word);
		a = (u64)p;
	} else if (!strcmp(kind, "heapmem")) {
		a = (u64)out;
	} else if (!strcmp(kind, "high"))
		a = 0xdeadbeef000ull;
	callat<<<1, 1>>>(a, out);
	e = cudaDeviceSynchronize();
	printf("heap.bad.%s: %s\n", kind, cudaGetErrorName(e));
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "default";

	setvbuf(stdout, NULL, _IONBF, 0);   /* a hung case keeps its lines */

	if (!strcmp(m, "default"))
		heap_default();
	else if (!strcmp(m, "setbefore") && argc > 2)
		heap_setbefore(strtoull(argv[2], NULL, 0));
	else if (!strcmp(m, "fp"))
		fptr();
	else if (!strcmp(m, "bad") && argc > 2)
		bad(argv[2]);
	else
		return 2;
	fflush(stdout);
	return 0;
}
