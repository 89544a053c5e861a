// managed.cu - a __managed__ variable is one allocation for the whole
// program, as the real runtime's (probes/results/lifetimes.txt): the same
// address from every device, a kernel on either GPU changes the one value
// the host reads, and cudaDeviceReset leaves its address and its value.
#include "check.h"

__managed__ int mv = 5;

__global__ void add(int d)
{
	mv += d;
}

static void add_on(int dev, int d)
{
	CHECK(cudaSetDevice(dev));
	add<<<1, 1>>>(d);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
}

int main()
{
	void *p0 = nullptr, *p1 = nullptr, *p2 = nullptr;
	int n = 0;

	CHECK(cudaGetDeviceCount(&n));
	EXPECT(n >= 2);
	CHECK(cudaSetDevice(0));
	CHECK(cudaGetSymbolAddress(&p0, mv));
	EXPECT(p0 == (void *)&mv);
	CHECK(cudaSetDevice(1));
	CHECK(cudaGetSymbolAddress(&p1, mv));
	EXPECT(p1 == p0);
	add_on(1, 10);
	EXPECT(mv == 15);
	add_on(0, 100);
	EXPECT(mv == 115);
	// device 0's context first loaded the module; its reset keeps mv
	CHECK(cudaSetDevice(0));
	CHECK(cudaDeviceReset());
	CHECK(cudaGetSymbolAddress(&p2, mv));
	EXPECT(p2 == p0);
	EXPECT((void *)&mv == p0);
	EXPECT(mv == 115);
	add_on(0, 1000);
	EXPECT(mv == 1115);
	add_on(1, 10000);
	EXPECT(mv == 11115);
	std::printf("PASS\n");
	return 0;
}
