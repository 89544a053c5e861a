// reload.cu - after cudaDeviceReset the program's kernels load again, and
// modules loaded in the meantime (here 32 through the driver API, each of
// another kernel of the same shape) are never taken for the program's own:
// a launch of the program's kernel runs its code. The runtime forgets a
// reset context's modules when it resets it; it once asked a remembered
// handle whether it was still loaded, and a new module may have the freed
// one's address. Built with -lcuda.
#include <cuda.h>

#include "check.h"

__global__ void mark(int *out)
{
	*out = 1;
}

// other(out): stores 2.
static const char other_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry other(.param .u64 out)\n{\n"
	".reg .u64 %rd<3>;\n.reg .u32 %r<2>;\n"
	"ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd2, %rd1;\n"
	"mov.u32 %r1, 2;\nst.global.u32 [%rd2], %r1;\nret;\n}\n";

static int run_mark(void)
{
	int *d = nullptr, h = 0;

	CHECK(cudaMalloc(&d, sizeof h));
	CHECK(cudaMemset(d, 0, sizeof h));
	mark<<<1, 1>>>(d);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
	CHECK(cudaFree(d));
	return h;
}

int main()
{
	enum { N = 32 };
	CUmodule m[N];
	CUfunction f;

	EXPECT(run_mark() == 1);
	CHECK(cudaDeviceReset());
	CHECK(cudaFree(nullptr)); // the runtime's context again
	for (int i = 0; i < N; i++) {
		EXPECT(cuModuleLoadData(&m[i], other_ptx) == CUDA_SUCCESS);
		EXPECT(cuModuleGetFunction(&f, m[i], "other") == CUDA_SUCCESS);
	}
	EXPECT(run_mark() == 1);
	for (int i = 0; i < N; i++)
		EXPECT(cuModuleUnload(m[i]) == CUDA_SUCCESS);
	std::printf("PASS\n");
	return 0;
}
