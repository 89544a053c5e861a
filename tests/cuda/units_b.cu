// See units_a.cu.
#include "check.h"

static __global__ void scale(int *v) { v[threadIdx.x] += 3; }

void launch_b(int *v)
{
	scale<<<1, 32>>>(v);
	CHECK(cudaGetLastError());
}
