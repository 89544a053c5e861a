// pages.cu - kernels of our own for the per-kernel accounting (/cu's
// kernels/, cufs(5)): each touches memory a 4 KiB page at a time, so that
// what a launch faults and moves is known from its arguments alone. The
// PTX beside this file is nvcc's output for it (Makefile.am, "kernels"),
// committed so that machines without nvcc test the same image.

// one thread a page: adds one to the first byte of each 4 KiB page of
// [p, p + n)
extern "C" __global__ void touch_all(char *p, unsigned long long n)
{
	unsigned long long i =
		((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) << 12;
	if (i < n)
		p[i] += 1;
}

// one thread a page: sums the first byte of each page into *out
extern "C" __global__ void read_all(const char *p, unsigned long long n,
				    int *out)
{
	unsigned long long i =
		((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) << 12;
	if (i < n)
		atomicAdd(out, p[i]);
}

// a C++ name, as most programs' kernels have: scales the first float of
// each page
__global__ void scale_pages(float *p, unsigned long long n, float k)
{
	unsigned long long i =
		((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) << 10;
	if (i < n / 4)
		p[i] *= k;
}
