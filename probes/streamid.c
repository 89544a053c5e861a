/* streamid.c - what cuStreamGetId and cuStreamGetDevice answer: the ids of
 * the legacy and per-thread streams and of user streams made one after
 * another (in one context, in another, after a destroy), NULL outputs,
 * a destroyed stream; and the runtime's cudaStreamGetId and
 * cudaStreamGetDevice on the same. Ids are printed relative to the first
 * user stream's, so that a replay compares line for line.
 * Build: gcc -O2 -o streamid streamid.c -I/usr/local/cuda/include
 *        -L/usr/local/cuda/lib64 -lcuda -lcudart
 */
#include "common.h"
#include <cuda_runtime_api.h>

int main(void)
{
	CUcontext c0, c1;
	CUstream a, b, c, d;
	unsigned long long id = 0, base = 0, x = 0;
	CUdevice dev = -1;
	CUresult r;

	CK(cuInit(0));
	CK(cuDevicePrimaryCtxRetain(&c0, 0));
	CK(cuCtxSetCurrent(c0));
	CK(cuStreamCreate(&a, 0));
	CK(cuStreamGetId(a, &base));
	P("streamid.first_user: CUDA_SUCCESS nonzero=%d\n", base != 0);
	CK(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	r = cuStreamGetId(b, &id);
	P("streamid.second_user: %s delta=%lld\n", en(r), (long long)(id - base));
	r = cuStreamGetId(NULL, &id);
	P("streamid.null: %s delta=%lld\n", en(r), (long long)(id - base));
	r = cuStreamGetId(CU_STREAM_LEGACY, &x);
	P("streamid.legacy: %s same_as_null=%d\n", en(r), x == id);
	r = cuStreamGetId(CU_STREAM_PER_THREAD, &id);
	P("streamid.per_thread: %s delta=%lld\n", en(r), (long long)(id - base));
	r = cuStreamGetId(a, NULL);
	P("streamid.null_out: %s\n", en(r));
	CK(cuStreamDestroy(b));
	CK(cuStreamCreate(&c, 0));
	r = cuStreamGetId(c, &id);
	P("streamid.after_destroy: %s delta=%lld\n", en(r), (long long)(id - base));
	CK(cuCtxCreate(&c1, NULL, 0, 0));
	CK(cuStreamCreate(&d, 0));
	r = cuStreamGetId(d, &id);
	P("streamid.other_ctx: %s delta=%lld\n", en(r), (long long)(id - base));
	r = cuStreamGetId(NULL, &x);
	P("streamid.other_ctx_null: %s delta=%lld\n", en(r), (long long)(x - base));
	r = cuStreamGetId(a, &id);
	P("streamid.first_from_other_ctx: %s delta=%lld\n", en(r), (long long)(id - base));
	r = cuStreamGetDevice(d, &dev);
	P("streamid.device_user: %s dev=%d\n", en(r), (int)dev);
	dev = -1;
	r = cuStreamGetDevice(NULL, &dev);
	P("streamid.device_null: %s dev=%d\n", en(r), (int)dev);
	r = cuStreamGetDevice(CU_STREAM_PER_THREAD, &dev);
	P("streamid.device_per_thread: %s dev=%d\n", en(r), (int)dev);
	r = cuStreamGetDevice(d, NULL);
	P("streamid.device_null_out: %s\n", en(r));
	/* (a stream of a destroyed context crashes the real driver's
	 * cuStreamGetId: not asked) */
	CK(cuCtxDestroy(c1));
	CK(cuCtxSetCurrent(c0));
	/* the runtime's */
	cudaStream_t s;
	cudaSetDevice(0);
	cudaStreamCreate(&s);
	cudaError_t e = cudaStreamGetId(s, &id);
	P("streamid.rt_user: %s delta=%lld\n", cudaGetErrorName(e), (long long)(id - base));
	e = cudaStreamGetId(0, &x);
	P("streamid.rt_null: %s delta=%lld\n", cudaGetErrorName(e), (long long)(x - base));
	e = cudaStreamGetId(cudaStreamPerThread, &x);
	P("streamid.rt_per_thread: %s delta=%lld\n", cudaGetErrorName(e), (long long)(x - base));
	int rd = -1;
	e = cudaStreamGetDevice(s, &rd);
	P("streamid.rt_device: %s dev=%d\n", cudaGetErrorName(e), rd);
	/* (cudaStreamGetDevice with a NULL output crashes the real
	 * runtime: not asked) */
	e = cudaStreamGetId(s, NULL);
	P("streamid.rt_null_out: %s\n", cudaGetErrorName(e));
	cudaStream_t t;
	cudaStreamCreate(&t);
	e = cudaStreamCopyAttributes(t, s);
	P("streamid.rt_copy_attributes: %s\n", cudaGetErrorName(e));
	/* (cudaStreamGetId of a destroyed stream crashes the real
	 * runtime: not asked) */
	cudaStreamDestroy(t);
	cudaStreamDestroy(s);
	cuStreamDestroy(a);
	cuStreamDestroy(c);
	P("streamid.done: CUDA_SUCCESS\n");
	return 0;
}
