/* mcgran.c - the multicast granularity the driver gives a team, by size,
 * team size and handle type: where the recommended granularity leaves
 * 2 MiB (edges.c found 2 MiB for 2 MiB and 512 MiB for 1 GiB on two
 * H100s). Asks cuMulticastGetGranularity only, never cuMulticastCreate.
 * Each line: mcgran.<option>.ndev<N>.<size>: RESULT granularity
 * Build: gcc -O2 -o mcgran mcgran.c -I/usr/local/cuda/include -lcuda */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

static const char *en(CUresult r)
{
	const char *s = NULL;

	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "CUresult_?";
}

static void one(int opt, unsigned ndev, size_t size, unsigned long long types)
{
	CUmulticastObjectProp mp;
	size_t g = 0xa5a5a5a5ull;
	CUresult r;

	memset(&mp, 0, sizeof mp);
	mp.numDevices = ndev;
	mp.size = size;
	mp.handleTypes = types;
	r = cuMulticastGetGranularity(&g, &mp, (CUmulticastGranularity_flags)opt);
	printf("mcgran.%s.ndev%u.%zu%s: %s %zu\n", opt ? "recommended" : "minimum",
	       ndev, size, types ? ".posix_fd" : "", en(r), r ? (size_t)0 : g);
	fflush(stdout);
}

int main(void)
{
	static const size_t odd[] = { 3 * MIB, 255 * MIB, 256 * MIB + 1,
		511 * MIB, 512 * MIB - 1, 512 * MIB + 1, 513 * MIB, 767 * MIB,
		1023 * MIB, 1536 * MIB };
	CUcontext c;
	int n = 0;

	if (cuInit(0) || cuDeviceGetCount(&n) || cuDevicePrimaryCtxRetain(&c, 0) ||
	    cuCtxSetCurrent(c)) {
		printf("mcgran.setup: failed\n");
		return 1;
	}
	printf("mcgran.devices: %d\n", n);
	for (int opt = 0; opt < 2; opt++)
		for (unsigned ndev = 0; ndev <= 3; ndev++) {
			for (size_t s = 2 * MIB; s <= 4096 * MIB; s *= 2)
				one(opt, ndev, s, 0);
			for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++)
				one(opt, ndev, odd[i], 0);
		}
	one(1, 2, 1024 * MIB, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	one(1, 2, 256 * MIB, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	one(1, 2, 1024 * MIB, CU_MEM_HANDLE_TYPE_FABRIC);
	cuDevicePrimaryCtxRelease(0);
	printf("mcgran.done: ok\n");
	return 0;
}
