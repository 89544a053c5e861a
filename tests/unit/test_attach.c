/*
 * test_attach.c - cuStreamAttachMemAsync, cudaStreamAttachMemAsync and the
 * attach flags of cuMemAllocManaged, as the real driver answers them
 * (shared/reference/real-driver-api-families.txt, attach.*;
 * probes/results/families.txt, families.attach.*), and the attachment as
 * /cu's control protocol shows it.
 */
#define CUEMU_PER_THREAD_ENTRY_POINTS 1
#include <stdint.h>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "tap.h"
#include "ctl.h"

static CUstream s;

/* The attachment of the allocation at m as /cu shows it: the control
 * protocol's answer for allocations/<id>/attach and attach_stream. */
static void shows(CUdeviceptr m, const char *attach, int single)
{
	unsigned long long id = 0, sid = 0;
	char a[256], b[256], want[64];

	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, m);
	if (ctl_fd < 0 && ctl_open() < 0) {
		ok(0, "the control socket answers");
		return;
	}
	ctl(a, sizeof a, "{\"op\":\"get\",\"path\":\"allocations/%llu/attach\"}",
	    id);
	snprintf(want, sizeof want, "\"%s\\n\"", attach);
	ok(strstr(a, want) != NULL, "/cu shows attach %s", attach);
	ctl(b, sizeof b, "{\"op\":\"get\",\"path\":\"allocations/%llu/"
	    "attach_stream\"}", id);
	if (single) {
		sid = 0;
		ok(strstr(b, "none") == NULL && strstr(b, "\"ok\""),
		   "... and a stream id for single");
	} else {
		ok(strstr(b, "none") != NULL, "... and attach_stream none");
	}
	if (!strstr(a, want))
		printf("#   %s\n", a);
	(void)sid;
}

static void test_alloc_flags(void)
{
	CUdeviceptr m = 7;

	is_res(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_HOST), CUDA_SUCCESS,
	       "cuMemAllocManaged with ATTACH_HOST (attach.alloc_host)");
	cuMemFree(m);
	is_res(cuMemAllocManaged(&m, 4096, 0), CUDA_ERROR_INVALID_VALUE,
	       "flags 0 (attach.alloc_flags0)");
	is_res(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL |
				 CU_MEM_ATTACH_HOST), CUDA_ERROR_INVALID_VALUE,
	       "GLOBAL|HOST (attach.alloc_both)");
	is_res(cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_SINGLE),
	       CUDA_ERROR_INVALID_VALUE, "SINGLE (attach.alloc_single)");
	is_res(cuMemAllocManaged(&m, 0, CU_MEM_ATTACH_HOST),
	       CUDA_ERROR_INVALID_VALUE, "size 0 (attach.alloc_size0_host)");
}

static void test_attach(void)
{
	CUdeviceptr m, d, p;
	void *h;

	if (cuMemAllocManaged(&m, 1 << 20, CU_MEM_ATTACH_GLOBAL) ||
	    cuMemAlloc(&d, 4096) || cuMemAllocHost(&h, 4096)) {
		ok(0, "setup");
		return;
	}
	shows(m, "global", 0);
	is_res(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_SINGLE),
	       CUDA_SUCCESS, "SINGLE, length 0 (attach.single)");
	shows(m, "single", 1);
	is_res(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_HOST),
	       CUDA_SUCCESS, "HOST (attach.host)");
	shows(m, "host", 0);
	is_res(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_SUCCESS, "GLOBAL (attach.global)");
	is_res(cuStreamAttachMemAsync(s, m, 1 << 20, CU_MEM_ATTACH_GLOBAL),
	       CUDA_SUCCESS, "the whole length (attach.length_full)");
	is_res(cuStreamAttachMemAsync(s, m, 4096, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "part of it (attach.length_part)");
	is_res(cuStreamAttachMemAsync(s, m, (1 << 20) + 1,
				      CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "more than all of it (len_over)");
	is_res(cuStreamAttachMemAsync(s, m + 4096, 4096, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "inside it (attach.interior)");
	is_res(cuStreamAttachMemAsync(s, m + 4096, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "inside it, length 0");
	is_res(cuStreamAttachMemAsync(s, m, 0, 8), CUDA_ERROR_INVALID_VALUE,
	       "flags 8 (attach.bad_flags)");
	is_res(cuStreamAttachMemAsync(s, m, 0, 0), CUDA_ERROR_INVALID_VALUE,
	       "flags 0 (the real driver faults)");
	is_res(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL |
				      CU_MEM_ATTACH_HOST),
	       CUDA_ERROR_INVALID_VALUE, "two flags (attach.flags_two)");
	is_res(cuStreamAttachMemAsync(NULL, m, 0, CU_MEM_ATTACH_SINGLE),
	       CUDA_ERROR_INVALID_VALUE,
	       "SINGLE on the legacy stream (attach.legacy_single)");
	is_res(cuStreamAttachMemAsync(CU_STREAM_LEGACY, m, 0,
				      CU_MEM_ATTACH_GLOBAL), CUDA_SUCCESS,
	       "GLOBAL on the legacy stream (attach.legacy_global)");
	is_res(cuStreamAttachMemAsync(CU_STREAM_LEGACY, m, 0,
				      CU_MEM_ATTACH_HOST), CUDA_SUCCESS,
	       "HOST on the legacy stream (attach.legacy_host)");
	is_res(cuStreamAttachMemAsync(CU_STREAM_PER_THREAD, m, 0,
				      CU_MEM_ATTACH_SINGLE), CUDA_SUCCESS,
	       "SINGLE on the per-thread stream (per_thread_single)");
	is_res(cuStreamAttachMemAsync_ptsz(NULL, m, 0, CU_MEM_ATTACH_SINGLE),
	       CUDA_SUCCESS, "_ptsz: the null stream is the per-thread one");
	is_res(cuStreamAttachMemAsync_ptsz(CU_STREAM_LEGACY, m, 0,
					   CU_MEM_ATTACH_SINGLE),
	       CUDA_ERROR_INVALID_VALUE, "_ptsz: CU_STREAM_LEGACY refuses SINGLE");
	is_res(cuStreamAttachMemAsync(s, d, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "device memory (attach.device_mem)");
	is_res(cuStreamAttachMemAsync(s, (CUdeviceptr)h, 0,
				      CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "pinned memory (attach.pinned)");
	is_res(cuStreamAttachMemAsync(s, 0, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "NULL (attach.null_ptr)");
	is_res(cuStreamAttachMemAsync((CUstream)(uintptr_t)0xdead0, m, 0,
				      CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_HANDLE, "a stream that does not exist");
	if (cuMemAllocAsync(&p, 4096, s) == CUDA_SUCCESS) {
		is_res(cuStreamAttachMemAsync(s, p, 0, CU_MEM_ATTACH_GLOBAL),
		       CUDA_ERROR_INVALID_VALUE, "a pool block (attach.pool_block)");
		cuMemFreeAsync(p, s);
	}
	is_int(cudaStreamAttachMemAsync((cudaStream_t)s, (void *)m, 0,
					cudaMemAttachSingle), cudaSuccess,
	       "cudaStreamAttachMemAsync, SINGLE");
	is_int(cudaStreamAttachMemAsync((cudaStream_t)s, (void *)(m + 64), 0,
					cudaMemAttachGlobal),
	       cudaErrorInvalidValue, "cudaStreamAttachMemAsync inside it");
	cuMemFree(m);
	is_res(cuStreamAttachMemAsync(s, m, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_INVALID_VALUE, "freed memory (attach.freed)");
	cuStreamSynchronize(s);
	cuMemFree(d);
	cuMemFreeHost(h);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;

	is_res(cuStreamAttachMemAsync(NULL, 0, 0, CU_MEM_ATTACH_GLOBAL),
	       CUDA_ERROR_NOT_INITIALIZED, "before cuInit");
	if (cuInit(0) || cuDeviceGet(&dev, 0) ||
	    cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx) ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING)) {
		ok(0, "setup");
		return done_testing();
	}
	test_alloc_flags();
	test_attach();
	cuStreamDestroy(s);
	return done_testing();
}
