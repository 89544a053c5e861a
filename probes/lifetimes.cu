// lifetimes.cu - what the driver and runtime do with the lives of modules
// and of __managed__ variables (issue 34): cuModuleUnload and
// cuLibraryUnload while a launch of the module is still queued (does the
// call wait for it, does the kernel still run and write its result), a
// library's module unloaded through cuModuleUnload, a launch of a
// library's kernel through the runtime and the last error it leaves, and a
// __managed__ variable seen from two GPUs and across cudaDeviceReset.
// Lines are "lifetimes.<case>: RESULT details", never addresses; times are
// bucketed (waited: the call took at least half the kernel's spin).
// Build: nvcc -O2 -arch=sm_90 -o lifetimes lifetimes.cu -lcuda
// It allocates a few bytes; every kernel spins at most 0.5 s.
#include <cuda.h>
#include <cuda_runtime.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define P(...) do { printf(__VA_ARGS__); fflush(stdout); } while (0)

static const char *en(CUresult r)
{
	const char *s = NULL;

	return cuGetErrorName(r, &s) == CUDA_SUCCESS && s ? s : "?";
}

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { \
	P("lifetimes.fatal: %s line %d: %s\n", #x, __LINE__, en(r_)); \
	exit(1); } } while (0)

// spin(out, cycles): waits cycles of the SM clock, then stores 42.
static const char spin_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry spin(.param .u64 out, .param .u64 cycles)\n{\n"
	".reg .u64 %rd<7>;\n.reg .u32 %r<2>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [cycles];\n"
	"mov.u64 %rd3, %clock64;\n"
	"$L_wait:\nmov.u64 %rd4, %clock64;\nsub.u64 %rd5, %rd4, %rd3;\n"
	"setp.lt.u64 %p1, %rd5, %rd2;\n@%p1 bra $L_wait;\n"
	"cvta.to.global.u64 %rd6, %rd1;\nmov.u32 %r1, 42;\n"
	"st.global.u32 [%rd6], %r1;\nret;\n}\n";

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// ~0.5 s at the H200's 1.98 GHz
static unsigned long long g_cycles = 1000000000ull;

// Launches spin on s, then calls unload; says whether the call waited,
// what the stream says right after, and whether the kernel wrote.
static void queued(const char *name, CUfunction f, CUstream s,
		   CUresult (*unload)(void *), void *h)
{
	CUdeviceptr out;
	unsigned v = 0;
	void *args[] = { &out, &g_cycles };
	double t0, ms;
	CUresult r, q;

	CK(cuMemAlloc(&out, 4));
	CK(cuMemsetD32(out, 0, 1));
	CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
	t0 = now_ms();
	r = unload(h);
	ms = now_ms() - t0;
	q = cuStreamQuery(s);
	P("lifetimes.%s.unload: %s %s\n", name, en(r),
	  ms > 250 ? "waited" : "returned_at_once");
	P("lifetimes.%s.query_after: %s\n", name, en(q));
	P("lifetimes.%s.sync: %s\n", name, en(cuStreamSynchronize(s)));
	CK(cuMemcpyDtoH(&v, out, 4));
	P("lifetimes.%s.kernel_wrote: %u\n", name, v);
	CK(cuMemFree(out));
}

static CUresult mod_unload(void *h) { return cuModuleUnload((CUmodule)h); }
static CUresult lib_unload(void *h) { return cuLibraryUnload((CUlibrary)h); }

static void driver_cases(void)
{
	CUmodule m, lm;
	CUlibrary lib;
	CUkernel k;
	CUfunction f;
	CUstream s;
	CUcontext ctx;
	unsigned n = 0;

	CK(cuInit(0));
	CK(cuDevicePrimaryCtxRetain(&ctx, 0));
	CK(cuCtxSetCurrent(ctx));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

	CK(cuModuleLoadData(&m, spin_ptx));
	CK(cuModuleGetFunction(&f, m, "spin"));
	queued("module_queued", f, s, mod_unload, m);
	P("lifetimes.module_queued.handle_after: %s\n",
	  en(cuModuleGetFunctionCount(&n, m)));
	CK(cuModuleLoadData(&m, spin_ptx));
	CK(cuModuleGetFunction(&f, m, "spin"));
	queued("module_queued_legacy", f, NULL, mod_unload, m);

	CK(cuLibraryLoadData(&lib, spin_ptx, NULL, NULL, 0, NULL, NULL, 0));
	CK(cuLibraryGetKernel(&k, lib, "spin"));
	queued("library_queued", (CUfunction)k, s, lib_unload, lib);

	CK(cuLibraryLoadData(&lib, spin_ptx, NULL, NULL, 0, NULL, NULL, 0));
	CK(cuLibraryGetModule(&lm, lib));
	P("lifetimes.library_module.unload: %s\n", en(cuModuleUnload(lm)));
	P("lifetimes.library_module.count_after: %s n=%u\n",
	  en(cuModuleGetFunctionCount(&n, lm)), n);
	P("lifetimes.library_module.get_module_again_same: %d\n",
	  cuLibraryGetModule(&m, lib) == CUDA_SUCCESS && m == lm);
	P("lifetimes.library_module.unload_null: %s\n",
	  en(cuModuleUnload(NULL)));
	P("lifetimes.library_module.library_unload: %s\n",
	  en(cuLibraryUnload(lib)));
	P("lifetimes.library_module.unload_after_library: %s\n",
	  en(cuModuleUnload(lm)));
	CK(cuStreamDestroy(s));
}

// ------------------------------------------------------------ runtime

__managed__ int mv = 5;

__global__ void add(int d)
{
	mv += d;
}

__global__ void touch(int *p)
{
	*p = 7;
}

static sigjmp_buf jb;

static void on_sig(int s)
{
	siglongjmp(jb, s);
}

// mv read on the host; -1000 and the signal where the read faulted.
static int host_read(int *sig)
{
	volatile int v;

	*sig = sigsetjmp(jb, 1);
	if (*sig)
		return -1000;
	v = mv;
	return v;
}

static void runtime_cases(void)
{
	void *p0 = NULL, *p1 = NULL, *p2 = NULL;
	cudaLibrary_t lib;
	cudaKernel_t k;
	int ndev = 0, sig = 0, v;
	int *out;
	void *args[1];
	cudaError_t e;

	cudaGetDeviceCount(&ndev);
	P("lifetimes.rt.devices: %d\n", ndev);

	// a library's kernel launched through the runtime
	cudaSetDevice(0);
	cudaMalloc(&out, 4);
	P("lifetimes.rt.library_load: %s\n", cudaGetErrorName(
	  cudaLibraryLoadData(&lib, spin_ptx, NULL, NULL, 0, NULL, NULL, 0)));
	cudaLibraryGetKernel(&k, lib, "spin");
	unsigned long long c = 1000;
	void *sargs[] = { &out, &c };
	e = cudaLaunchKernel((const void *)k, dim3(1), dim3(1), sargs, 0, 0);
	P("lifetimes.rt.library_launch: %s last=%s\n", cudaGetErrorName(e),
	  cudaGetErrorName(cudaGetLastError()));
	cudaDeviceSynchronize();
	cudaLibraryUnload(lib);
	(void)args;

	// a __managed__ variable from two GPUs
	cudaSetDevice(0);
	cudaGetSymbolAddress(&p0, mv);
	P("lifetimes.rt.managed.host_is_dev0: %d\n", p0 == (void *)&mv);
	if (ndev > 1) {
		cudaSetDevice(1);
		e = cudaGetSymbolAddress(&p1, mv);
		P("lifetimes.rt.managed.dev1_address: %s same=%d\n",
		  cudaGetErrorName(e), p1 == p0);
		add<<<1, 1>>>(10);
		P("lifetimes.rt.managed.dev1_add: %s\n",
		  cudaGetErrorName(cudaDeviceSynchronize()));
		P("lifetimes.rt.managed.host_after_dev1: %d\n", mv);
	}
	cudaSetDevice(0);
	add<<<1, 1>>>(100);
	P("lifetimes.rt.managed.dev0_add: %s\n",
	  cudaGetErrorName(cudaDeviceSynchronize()));
	P("lifetimes.rt.managed.host_after_dev0: %d\n", mv);

	// across a reset of the device whose context first loaded it; the
	// reads are guarded where the probe may (a replay on libcuemu sets
	// PROBE_NO_SIGNALS: its fault handler is how managed memory reaches
	// the host there, and no read faulted on the H200s)
	if (!getenv("PROBE_NO_SIGNALS")) {
		signal(SIGSEGV, on_sig);
		signal(SIGBUS, on_sig);
	}
	P("lifetimes.rt.managed.reset: %s\n",
	  cudaGetErrorName(cudaDeviceReset()));
	e = cudaGetSymbolAddress(&p2, mv);
	P("lifetimes.rt.managed.after_reset_address: %s same=%d "
	  "host_pointer_same=%d\n", cudaGetErrorName(e), p2 == p0,
	  (void *)&mv == p0);
	v = host_read(&sig);
	P("lifetimes.rt.managed.after_reset_host: %d sig=%d\n", v, sig);
	add<<<1, 1>>>(1000);
	P("lifetimes.rt.managed.after_reset_add: %s\n",
	  cudaGetErrorName(cudaDeviceSynchronize()));
	v = host_read(&sig);
	P("lifetimes.rt.managed.after_reset_add_host: %d sig=%d\n", v, sig);
	if (ndev > 1) {
		cudaSetDevice(1);
		add<<<1, 1>>>(10000);
		P("lifetimes.rt.managed.after_reset_dev1_add: %s\n",
		  cudaGetErrorName(cudaDeviceSynchronize()));
		v = host_read(&sig);
		P("lifetimes.rt.managed.after_reset_dev1_host: %d sig=%d\n",
		  v, sig);
	}
	(void)touch;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		g_cycles = strtoull(argv[1], NULL, 0);
	driver_cases();
	runtime_cases();
	return 0;
}
