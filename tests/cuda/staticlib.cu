// staticlib.cu - a shared library built the default way, NVIDIA's static
// runtime inside it (-DSTATICLIB_LIB), and a program without CUDA of its
// own that loads it. libcuemu must name the library, not the program, as
// what carries NVIDIA's runtime, say so once, and let the program go on:
// the library's runtime calls fail, as NVIDIA's libraries' (cuBLAS,
// NVRTC) do.
#include <stdio.h>

#ifdef STATICLIB_LIB
__global__ void one(int *p)
{
	*p = 1;
}

extern "C" int staticlib_run(void)
{
	int *p = NULL;

	if (cudaMalloc(&p, sizeof *p) != cudaSuccess)
		return 1;
	one<<<1, 1>>>(p);
	return cudaDeviceSynchronize() != cudaSuccess;
}
#else
extern "C" int staticlib_run(void);

int main(void)
{
	int r = staticlib_run();

	printf("staticlib_run: %d\n", r);
	printf("%s\n", r ? "PASS" : "FAIL: NVIDIA's runtime ran");
	return 0;
}
#endif
