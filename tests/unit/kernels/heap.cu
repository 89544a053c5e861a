// heap.cu - kernels for test_heap: malloc and free from the device heap
// (addresses kept, blocks taken until the heap is spent, freed by another
// kernel), calls through function addresses (a table of device
// functions, virtual functions of objects made by new, divergent across
// the warp, an address handed in from the host) and a read of a word by
// its address (a packed allocation behind a freed one).
typedef unsigned long long u64;

extern "C" __global__ void nomalloc(int *out) { out[0] = 1; }

extern "C" __global__ void allocs(const u64 *sizes, int n, u64 *addr)
{
	for (int i = 0; i < n; i++)
		addr[i] = (u64)malloc(sizes[i]);
}

extern "C" __global__ void frees(const u64 *addr, int n)
{
	for (int i = 0; i < n; i++)
		free((void *)addr[i]);
}

// one thread takes blocks of size until NULL (at most cap), writes a
// word to each, and keeps them
extern "C" __global__ void take(u64 size, int cap, int *got, u64 *keep)
{
	int n = 0;
	for (void *p; n < cap && (p = malloc(size)); n++) {
		*(int *)p = n;
		keep[n] = (u64)p;
	}
	*got = n;
}

// every thread one block, its lane's number in it
extern "C" __global__ void each(u64 size, u64 *addr)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int *p = (int *)malloc(size);
	if (p)
		*p = t;
	addr[t] = (u64)p;
}

extern "C" __global__ void sum_each(const u64 *addr, int n, int *sum)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += addr[i] ? *(int *)addr[i] : -1000;
	*sum = s;
}

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

extern "C" __global__ void calls(int *out, u64 *fp)
{
	int t = threadIdx.x;
	out[t] = table[t % 3](t);
	Shape *s = (t & 1) ? (Shape *)new Sq(t) : (Shape *)new Rect(t, 2);
	out[32 + t] = s ? s->area() : -1;
	delete s;
	if (t == 0) {
		fp[0] = (u64)table[0];
		fp[1] = (u64)table[1];
		fp[2] = (u64)&add1;
	}
}

extern "C" __global__ void callat(u64 a, int *out)
{
	out[0] = ((fn_t)a)(7);
}

extern "C" __global__ void readword(const int *p, int *out)
{
	out[0] = *p;
}
