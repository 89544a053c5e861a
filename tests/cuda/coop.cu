// coop.cu - the runtime's cooperative, extensible and library launches:
// cudaLaunchCooperativeKernel with a grid-wide sync (and its limit,
// cudaErrorCooperativeLaunchTooLarge), cudaLaunchKernelExC with the
// cooperative and cluster attributes, a library loaded from PTX text and
// its kernel launched by its cudaKernel_t, cudaKernelSetAttributeForDevice,
// a stream's attributes (an access policy window as simpleAttributes sets
// one), and the program's kernels launched again after cudaDeviceReset.
#include <cooperative_groups.h>
#include <cstring>
#include "check.h"

namespace cg = cooperative_groups;

// Each block writes its part, the grid syncs, then reads a neighbour's.
__global__ void rotate(int *in, int *out)
{
	cg::grid_group g = cg::this_grid();
	unsigned n = gridDim.x * blockDim.x, i = g.thread_rank();

	in[i] = (int)i;
	g.sync();
	out[i] = in[(i + blockDim.x) % n];
}

// A kernel of our own as PTX text: p[tid] += 1.
static const char add1_ptx[] =
	".version 8.0\n"
	".target sm_90\n"
	".address_size 64\n"
	".visible .entry add1(.param .u64 add1_p)\n"
	"{\n"
	"\t.reg .b32 %r<3>;\n"
	"\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [add1_p];\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd3, %r1, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n"
	"\tld.global.u32 %r2, [%rd4];\n"
	"\tadd.s32 %r2, %r2, 1;\n"
	"\tst.global.u32 [%rd4], %r2;\n"
	"\tret;\n"
	"}\n";

static void cooperative(void)
{
	int *in, *out, sms = 0, per_sm = 0;
	const int blocks = 8, threads = 128;
	void *args[] = { &in, &out };

	CHECK(cudaMalloc(&in, blocks * threads * sizeof(int)));
	CHECK(cudaMallocManaged(&out, blocks * threads * sizeof(int)));
	CHECK(cudaLaunchCooperativeKernel((void *)rotate, dim3(blocks),
					  dim3(threads), args, 0, 0));
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < blocks * threads; i++)
		EXPECT(out[i] == (i + threads) % (blocks * threads));
	CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&per_sm, rotate, 1024, 0));
	EXPECT(cudaLaunchCooperativeKernel((void *)rotate,
					   dim3(sms * per_sm + 1), dim3(1024),
					   args, 0, 0) ==
	       cudaErrorCooperativeLaunchTooLarge);
	EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);

	// the same through cudaLaunchKernelExC, with a cluster of 2
	cudaLaunchAttribute at[2];
	cudaLaunchConfig_t c;
	std::memset(at, 0, sizeof at);
	std::memset(&c, 0, sizeof c);
	at[0].id = cudaLaunchAttributeCooperative;
	at[0].val.cooperative = 1;
	at[1].id = cudaLaunchAttributeClusterDimension;
	at[1].val.clusterDim.x = 2;
	at[1].val.clusterDim.y = 1;
	at[1].val.clusterDim.z = 1;
	c.gridDim = dim3(blocks);
	c.blockDim = dim3(threads);
	c.attrs = at;
	c.numAttrs = 2;
	CHECK(cudaMemset(out, 0, blocks * threads * sizeof(int)));
	CHECK(cudaLaunchKernelExC(&c, (void *)rotate, args));
	CHECK(cudaDeviceSynchronize());
	EXPECT(out[0] == threads);
	at[1].val.clusterDim.x = 3;
	// 3 does not divide the grid of 8
	EXPECT(cudaLaunchKernelExC(&c, (void *)rotate, args) ==
	       cudaErrorInvalidClusterSize);
	EXPECT(cudaGetLastError() == cudaErrorInvalidClusterSize);
	CHECK(cudaFree(in));
	CHECK(cudaFree(out));
}

static void library(void)
{
	cudaLibrary_t lib;
	cudaKernel_t k, ks[2];
	unsigned n = 0;
	int *p;
	void *args[] = { &p };

	CHECK(cudaLibraryLoadData(&lib, add1_ptx, 0, 0, 0, 0, 0, 0));
	CHECK(cudaLibraryGetKernelCount(&n, lib));
	EXPECT(n == 1);
	CHECK(cudaLibraryEnumerateKernels(ks, 2, lib));
	CHECK(cudaLibraryGetKernel(&k, lib, "add1"));
	EXPECT(k == ks[0]);
	EXPECT(cudaLibraryGetKernel(&k, lib, "nothere") ==
	       cudaErrorSymbolNotFound);
	EXPECT(cudaGetLastError() == cudaErrorSymbolNotFound);
	CHECK(cudaLibraryGetKernel(&k, lib, "add1"));
	CHECK(cudaKernelSetAttributeForDevice(
		k, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0));
	CHECK(cudaMallocManaged(&p, 32 * sizeof(int)));
	for (int i = 0; i < 32; i++)
		p[i] = i;
	CHECK(cudaLaunchKernel((void *)k, dim3(1), dim3(32), args, 0, 0));
	// a launch that succeeded leaves no error (probes/lifetimes.cu)
	EXPECT(cudaGetLastError() == cudaSuccess);
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < 32; i++)
		EXPECT(p[i] == i + 1);
	// the same kernel as a cooperative and an extensible launch
	CHECK(cudaLaunchCooperativeKernel((void *)k, dim3(1), dim3(32), args,
					  0, 0));
	EXPECT(cudaGetLastError() == cudaSuccess);
	cudaLaunchConfig_t c;
	std::memset(&c, 0, sizeof c);
	c.gridDim = dim3(1);
	c.blockDim = dim3(32);
	CHECK(cudaLaunchKernelExC(&c, (void *)k, args));
	EXPECT(cudaGetLastError() == cudaSuccess);
	CHECK(cudaDeviceSynchronize());
	for (int i = 0; i < 32; i++)
		EXPECT(p[i] == i + 3);
	CHECK(cudaFree(p));
	CHECK(cudaLibraryUnload(lib));
}

static void stream_attributes(void)
{
	cudaStream_t s;
	cudaStreamAttrValue v, back;
	int *d;

	CHECK(cudaStreamCreate(&s));
	CHECK(cudaMalloc(&d, 1 << 20));
	std::memset(&v, 0, sizeof v);
	v.accessPolicyWindow.base_ptr = d;
	v.accessPolicyWindow.num_bytes = 1 << 20;
	v.accessPolicyWindow.hitRatio = 0.6f;
	v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
	v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
	CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
				     &v));
	CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
				     &back));
	EXPECT(back.accessPolicyWindow.base_ptr == d);
	EXPECT(back.accessPolicyWindow.num_bytes == 1 << 20);
	v.accessPolicyWindow.hitRatio = 1.5f;
	EXPECT(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow,
				      &v) == cudaErrorInvalidValue);
	cudaGetLastError();
	CHECK(cudaStreamDestroy(s));
	CHECK(cudaFree(d));
}

int main()
{
	cooperative();
	library();
	stream_attributes();
	// the program's modules are loaded again after a reset
	CHECK(cudaDeviceReset());
	cooperative();
	std::printf("PASS\n");
	return 0;
}
