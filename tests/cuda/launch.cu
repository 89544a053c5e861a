// launch.cu - every way host code names and launches a kernel: a template
// (two instantiations, two mangled names), an extern "C" kernel, a struct
// passed by value, dynamic shared memory, cudaLaunchKernel by address, and
// a launch configuration the device cannot run (answered as an H100 does).
#include "check.h"

struct Affine {
	float scale;
	int shift;
	double bias;
};

template <typename T>
__global__ void fill(T *out, T value, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = value + (T)i;
}

extern "C" __global__ void apply(float *v, Affine a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		v[i] = v[i] * a.scale + a.shift + (float)a.bias;
}

// Reverses each block's slice through dynamic shared memory.
__global__ void reverse(int *v)
{
	extern __shared__ int tile[];
	int t = threadIdx.x, base = blockIdx.x * blockDim.x;
	tile[t] = v[base + t];
	__syncthreads();
	v[base + t] = tile[blockDim.x - 1 - t];
}

int main()
{
	const int n = 1000;
	float *f;
	int *i;
	double *d;

	CHECK(cudaMallocManaged(&f, n * sizeof *f));
	CHECK(cudaMallocManaged(&i, 1024 * sizeof *i));
	CHECK(cudaMallocManaged(&d, n * sizeof *d));

	fill<<<(n + 127) / 128, 128>>>(f, 1.5f, n);
	fill<double><<<(n + 255) / 256, 256>>>(d, 0.25, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	EXPECT(f[0] == 1.5f && f[999] == 1000.5f);
	EXPECT(d[10] == 10.25);

	Affine a = {2.0f, 3, 0.5};
	apply<<<8, 128>>>(f, a, n);
	CHECK(cudaDeviceSynchronize());
	EXPECT(f[1] == 2.5f * 2 + 3.5f);

	for (int k = 0; k < 1024; k++)
		i[k] = k;
	reverse<<<4, 256, 256 * sizeof(int)>>>(i);
	CHECK(cudaDeviceSynchronize());
	EXPECT(i[0] == 255 && i[255] == 0 && i[256] == 511);

	// By address, as cudaLaunchKernel takes it.
	float value = 7.0f;
	int count = n;
	void *args[] = {&f, &value, &count};
	CHECK(cudaLaunchKernel((const void *)fill<float>, dim3(8), dim3(128),
			       args, 0, 0));
	CHECK(cudaDeviceSynchronize());
	EXPECT(f[3] == 10.0f);

	// A block of 2048 threads: the driver's answer, nothing run.
	fill<<<1, 2048>>>(f, 0.0f, n);
	EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
	EXPECT(f[3] == 10.0f);
	// Not a kernel at all.
	EXPECT(cudaLaunchKernel((const void *)main, dim3(1), dim3(1), args, 0,
				0) == cudaErrorInvalidResourceHandle);
	std::printf("PASS\n");
	return 0;
}
