// ktime.cu - kernels whose model time and faults test_ktime pins: touches
// of one byte every `stride` bytes (one thread a touch), a grid-stride
// stream of int4 read and written, a device-to-device copy, and a loop of
// arithmetic that reaches memory once, and a sum that rereads a small
// array from every thread. Built to ktime.ptx by
// `nvcc -arch=sm_90 -ptx` (make exec-ptx).

extern "C" __global__ void touch(char *p, unsigned long long n,
				 unsigned long long stride)
{
	unsigned long long i =
		(blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) *
		stride;
	if (i < n)
		p[i] += 1;
}

// Thread t touches page t * 7919 mod pages: every page once, in a
// scrambled order, where pages is prime to 7919.
extern "C" __global__ void scramble(char *p, unsigned long long pages)
{
	unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x +
			       threadIdx.x;
	if (t < pages)
		p[((t * 7919ULL) % pages) << 12] += 1;
}

extern "C" __global__ void stream(int4 *p, unsigned long long n)
{
	for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
				    threadIdx.x; i < n;
	     i += (unsigned long long)gridDim.x * blockDim.x) {
		int4 v = p[i];
		v.x += 1;
		p[i] = v;
	}
}

extern "C" __global__ void copy(const int4 *a, int4 *b, unsigned long long n)
{
	for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
				    threadIdx.x; i < n;
	     i += (unsigned long long)gridDim.x * blockDim.x)
		b[i] = a[i];
}

// iters rounds of a multiply-add chain, its result stored once a thread.
extern "C" __global__ void spin(unsigned *out, int iters)
{
	unsigned x = threadIdx.x, y = blockIdx.x;
	for (int k = 0; k < iters; k++) {
		x = x * 1664525u + 1013904223u;
		y ^= x >> 7;
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x ^ y;
}

// Each thread sums rounds floats of a (m of them, m a power of two), a
// warp's lanes on consecutive ones, the warps all over the same m: every
// float is read threads * rounds / m times, from the caches after the
// first.
extern "C" __global__ void reread(const float *a, unsigned m,
				  unsigned rounds, float *out)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	float s = 0;

	for (unsigned r = 0; r < rounds; r++)
		s += a[(t + r * 32u) & (m - 1)];
	out[t] = s;
}

// A pointer chase: steps loads, each at the index the one before read.
extern "C" __global__ void chase(const unsigned *next, int steps,
				 unsigned *out)
{
	unsigned p = 0;

	for (int s = 0; s < steps; s++)
		p = next[p];
	out[threadIdx.x] = p;
}

// Reads n floats, a warp's lanes on consecutive ones (a grid-stride sum
// kept only where it could never be stored).
extern "C" __global__ void readsum(const float *a, unsigned long long n,
				   float *out)
{
	float s = 0;

	for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x +
				    threadIdx.x; i < n;
	     i += (unsigned long long)gridDim.x * blockDim.x)
		s += a[i];
	if (s == 12345.0f)
		out[0] = s;
}
