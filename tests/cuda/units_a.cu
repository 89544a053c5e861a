// units_a.cu, units_b.cu - two translation units, each registering its
// own fat binary, with a kernel of the same name in each (file-local) and
// one launched across the units.
#include "check.h"

static __global__ void scale(int *v) { v[threadIdx.x] *= 2; }

void launch_b(int *v);

int main()
{
	int *v;

	CHECK(cudaMallocManaged(&v, 32 * sizeof *v));
	for (int i = 0; i < 32; i++)
		v[i] = i;
	scale<<<1, 32>>>(v);
	launch_b(v);
	CHECK(cudaDeviceSynchronize());
	EXPECT(v[1] == 5 && v[31] == 65);
	std::printf("PASS\n");
	return 0;
}
