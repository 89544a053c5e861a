/*
 * test_ipc_kernel.c - a kernel in a second process reaches device memory
 * opened through cuIpcOpenMemHandle: this program allocates 2 MiB, fills
 * it, exports it and runs itself again (spawn.h) as the importer, which
 * opens the handle and launches a kernel that reads every word, adds its
 * index to it in place and sums what it read into memory of its own; a
 * second kernel stores one word past the opened allocation and fails with
 * ILLEGAL_ADDRESS. The exporter then reads the importer's stores. The
 * importer prints "key value" lines; the handle goes in its environment.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "spawn.h"
#include "tap.h"

/* 2 MiB of 32-bit words: an allocation of its own mapping, not packed
 * into a shared 2 MiB block (devheap.c), so the word after it is outside
 * what the importer maps, as on the device */
#define WORDS (1u << 19)

/* data[i] += i, and each thread's reads summed into *sum (atomically);
 * poke stores one word at p. */
static const char ptx[] =
	".version 8.5\n.target sm_90\n.address_size 64\n"
	".visible .entry touch(.param .u64 data, .param .u64 sum,"
	" .param .u32 n)\n{\n"
	"	.reg .pred %p<2>;\n	.reg .b32 %r<8>;\n	.reg .b64 %rd<6>;\n"
	"	ld.param.u64 %rd1, [data];\n	ld.param.u64 %rd2, [sum];\n"
	"	ld.param.u32 %r1, [n];\n"
	"	mov.u32 %r2, %ctaid.x;\n	mov.u32 %r3, %ntid.x;\n"
	"	mov.u32 %r4, %tid.x;\n	mad.lo.s32 %r2, %r2, %r3, %r4;\n"
	"	setp.ge.u32 %p1, %r2, %r1;\n	@%p1 bra DONE;\n"
	"	mul.wide.u32 %rd3, %r2, 4;\n	add.s64 %rd4, %rd1, %rd3;\n"
	"	ld.global.u32 %r5, [%rd4];\n	add.s32 %r6, %r5, %r2;\n"
	"	st.global.u32 [%rd4], %r6;\n"
	"	cvt.u64.u32 %rd5, %r5;\n	atom.global.add.u64 %rd5, [%rd2], %rd5;\n"
	"DONE:\n	ret;\n}\n"
	".visible .entry poke(.param .u64 p)\n{\n"
	"	.reg .b32 %r<2>;\n	.reg .b64 %rd<2>;\n"
	"	ld.param.u64 %rd1, [p];\n	mov.u32 %r1, 7;\n"
	"	st.global.u32 [%rd1], %r1;\n	ret;\n}\n";

static int setup_ctx(void)
{
	CUcontext ctx;
	CUdevice dev;

	return cuInit(0) || cuDeviceGet(&dev, 0) ||
	       cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx);
}

static int hex_decode(const char *s, void *out, size_t n)
{
	unsigned char *b = out;

	if (!s || strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		b[i] = (unsigned char)v;
	}
	return 0;
}

static int importer(void)
{
	CUipcMemHandle h;
	CUdeviceptr p = 0, sum = 0;
	unsigned long long s = 0;
	unsigned n = WORDS;
	CUmodule m;
	CUfunction touch, poke;

	if (setup_ctx() ||
	    hex_decode(getenv("CUEMU_TEST_IPC"), &h, sizeof h))
		return 1;
	printf("open %d\n", (int)cuIpcOpenMemHandle(&p, h,
			CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
	if (cuModuleLoadData(&m, ptx) ||
	    cuModuleGetFunction(&touch, m, "touch") ||
	    cuModuleGetFunction(&poke, m, "poke") ||
	    cuMemAlloc(&sum, 8) || cuMemsetD32(sum, 0, 2))
		return 1;
	void *a[] = { &p, &sum, &n };
	printf("launch %d\n", (int)cuLaunchKernel(touch, WORDS / 256, 1, 1,
						    256, 1, 1, 0, NULL, a,
						    NULL));
	printf("sync %d\n", (int)cuCtxSynchronize());
	cuMemcpyDtoH(&s, sum, 8);
	printf("sum %llu\n", s);
	/* one word past the opened 2 MiB: no allocation of this process */
	CUdeviceptr past = p + 4ull * WORDS;
	void *b[] = { &past };
	printf("past_launch %d\n", (int)cuLaunchKernel(poke, 1, 1, 1, 1, 1, 1,
							0, NULL, b, NULL));
	printf("past_sync %d\n", (int)cuCtxSynchronize());
	return 0;
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	char out[256], env0[64 + 2 * sizeof(CUipcMemHandle)];
	char *env[] = { env0, NULL };
	CUipcMemHandle h;
	CUdeviceptr d = 0;
	uint32_t *host;
	unsigned long long want = 0;
	int bad = 0, n;

	if (role && !strcmp(role, "importer"))
		return importer();
	snprintf(out, sizeof out, "%s/cuemu-ipck-%d.out",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	host = malloc(4ull * WORDS);
	if (!host || setup_ctx() || cuMemAlloc(&d, 4ull * WORDS)) {
		printf("Bail out! no context or memory\n");
		return 1;
	}
	for (unsigned i = 0; i < WORDS; i++) {
		host[i] = 3u * i + 1;
		want += host[i];
	}
	cuMemcpyHtoD(d, host, 4ull * WORDS);
	is_res(cuIpcGetMemHandle(&h, d), CUDA_SUCCESS, "the 2 MiB are exported");
	n = snprintf(env0, sizeof env0, "CUEMU_TEST_IPC=");
	for (size_t i = 0; i < sizeof h; i++)
		n += snprintf(env0 + n, sizeof env0 - (size_t)n, "%02x",
			      (unsigned char)h.reserved[i]);
	is_int(run_self("importer", env, out, NULL, 60), 0,
	       "the importer runs to its end");
#define V(k) child_value(out, k, -1)
	is_int(V("open"), CUDA_SUCCESS, "the importer opens the handle");
	is_int(V("launch"), CUDA_SUCCESS, "its kernel over the opened memory launches");
	is_int(V("sync"), CUDA_SUCCESS, "... and ends without a fault");
	ok((unsigned long long)V("sum") == want,
	   "the kernel read every word the exporter wrote (sum %lld)", V("sum"));
	is_int(V("past_launch"), CUDA_SUCCESS, "a store one word past the opened memory launches");
	is_int(V("past_sync"), CUDA_ERROR_ILLEGAL_ADDRESS,
	       "... and fails with ILLEGAL_ADDRESS: the kernel reaches the opened range, no more");
	cuMemcpyDtoH(host, d, 4ull * WORDS);
	for (unsigned i = 0; i < WORDS; i++)
		bad += host[i] != 4u * i + 1;
	is_int(bad, 0, "the exporter reads each word the importer's kernel stored");
	unlink(out);
	cuMemFree(d);
	free(host);
	return done_testing();
}
