/* xctx.c - handles of one context given with another's (issue 33): what
 * cuLaunchKernel answers for a function of context A on a stream of
 * context B (B on the same device and on the other), whichever is
 * current; cuEventRecord of A's event on B's stream; cuStreamWaitEvent of
 * B's stream on A's event; cuLaunchKernelEx with an event of another
 * context as its completion or programmatic event; and whether a refused
 * launch still ran (its kernel stores 42). Then a forked child of a
 * process with a launch queued: what cuModuleUnload, cuStreamQuery,
 * cuCtxGetCurrent and cuMemAlloc answer there, and whether the unload
 * came back (the child is killed after 5 s); PROBE_SKIP=fork leaves the
 * child out (tests/unit/replay.sh: a forked child may use the API there).
 * Lines are "xctx.<case>: RESULT details", never addresses.
 * Build: gcc -o xctx xctx.c -I/usr/local/cuda/include -lcuda */
#include "common.h"
#include <sys/wait.h>
#include <time.h>

/* spin(out, cycles): waits cycles of the SM clock, then stores 42. */
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

static CUfunction g_f;     /* spin, loaded in context A */
static CUdeviceptr g_out;  /* A's word the kernel stores to */

/* Launches spin (no wait) on s with current ctx cur; says what the launch
 * answered and whether the kernel stored, once everything settles. */
static void launch_case(const char *name, CUcontext cur, CUstream s,
			CUcontext a)
{
	unsigned long long cycles = 0;
	void *args[] = { &g_out, &cycles };
	uint32_t v = 0;
	CUresult r, sync;

	CK(cuCtxSetCurrent(a));
	CK(cuMemsetD32(g_out, 0, 1));
	CK(cuCtxSetCurrent(cur));
	r = cuLaunchKernel(g_f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
	sync = cuCtxSynchronize();
	CK(cuCtxSetCurrent(a));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(&v, g_out, 4));
	P("xctx.%s: %s ran=%d sync=%s\n", name, en(r), v == 42, en(sync));
}

/* cuLaunchKernelEx with attribute id naming event e on stream s. */
static void ex_case(const char *name, CUcontext cur, CUstream s, CUevent e,
		    CUlaunchAttributeID id, CUcontext a)
{
	unsigned long long cycles = 0;
	void *args[] = { &g_out, &cycles };
	CUlaunchAttribute at;
	CUlaunchConfig c;
	uint32_t v = 0;
	CUresult r, q;

	memset(&at, 0, sizeof at);
	memset(&c, 0, sizeof c);
	at.id = id;
	if (id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)
		at.value.programmaticEvent.event = e;
	else
		at.value.launchCompletionEvent.event = e;
	c.gridDimX = c.gridDimY = c.gridDimZ = 1;
	c.blockDimX = c.blockDimY = c.blockDimZ = 1;
	c.hStream = s;
	c.attrs = &at;
	c.numAttrs = 1;
	CK(cuCtxSetCurrent(a));
	CK(cuMemsetD32(g_out, 0, 1));
	CK(cuCtxSetCurrent(cur));
	r = cuLaunchKernelEx(&c, g_f, args, NULL);
	CK(cuCtxSetCurrent(a));
	CK(cuCtxSynchronize());
	CK(cuMemcpyDtoH(&v, g_out, 4));
	q = cuEventQuery(e);
	P("xctx.%s: %s ran=%d event_query=%s\n", name, en(r), v == 42,
	  en(q));
}

static void cross(const char *tag, CUcontext a, CUcontext b)
{
	CUstream sa, sb;
	CUevent ea, eb;
	char n[96];
	CUresult r;

	CK(cuCtxSetCurrent(b));
	CK(cuStreamCreate(&sb, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&eb, CU_EVENT_DISABLE_TIMING));
	CK(cuCtxSetCurrent(a));
	CK(cuStreamCreate(&sa, CU_STREAM_NON_BLOCKING));
	CK(cuEventCreate(&ea, CU_EVENT_DISABLE_TIMING));

	snprintf(n, sizeof n, "%s.launch_own_stream", tag);
	launch_case(n, a, sa, a);
	snprintf(n, sizeof n, "%s.launch_b_stream_a_current", tag);
	launch_case(n, a, sb, a);
	snprintf(n, sizeof n, "%s.launch_b_stream_b_current", tag);
	launch_case(n, b, sb, a);
	snprintf(n, sizeof n, "%s.launch_a_stream_b_current", tag);
	launch_case(n, b, sa, a);
	snprintf(n, sizeof n, "%s.launch_null_stream_b_current", tag);
	launch_case(n, b, NULL, a);

	CK(cuCtxSetCurrent(a));
	r = cuEventRecord(ea, sb);
	P("xctx.%s.record_a_event_b_stream_a_current: %s\n", tag, en(r));
	CK(cuCtxSetCurrent(b));
	r = cuEventRecord(ea, sb);
	P("xctx.%s.record_a_event_b_stream_b_current: %s\n", tag, en(r));
	r = cuEventRecord(ea, NULL);
	P("xctx.%s.record_a_event_null_stream_b_current: %s\n", tag, en(r));
	CK(cuCtxSetCurrent(a));
	r = cuEventRecord(eb, NULL);
	P("xctx.%s.record_b_event_null_stream_a_current: %s\n", tag, en(r));
	CK(cuEventRecord(ea, sa));
	r = cuStreamWaitEvent(sb, ea, 0);
	P("xctx.%s.wait_b_stream_a_event_a_current: %s\n", tag, en(r));
	CK(cuCtxSetCurrent(b));
	r = cuStreamWaitEvent(sb, ea, 0);
	P("xctx.%s.wait_b_stream_a_event_b_current: %s\n", tag, en(r));
	r = cuStreamWaitEvent(NULL, ea, 0);
	P("xctx.%s.wait_null_stream_a_event_b_current: %s\n", tag, en(r));
	CK(cuCtxSynchronize());

	snprintf(n, sizeof n, "%s.ex_completion_b_event", tag);
	ex_case(n, a, sa, eb, CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, a);
	snprintf(n, sizeof n, "%s.ex_programmatic_b_event", tag);
	ex_case(n, a, sa, eb, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, a);
	snprintf(n, sizeof n, "%s.ex_completion_a_event", tag);
	ex_case(n, a, sa, ea, CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, a);
	snprintf(n, sizeof n, "%s.ex_completion_a_event_b_stream", tag);
	ex_case(n, a, sb, ea, CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, a);

	CK(cuCtxSetCurrent(b));
	CK(cuCtxSynchronize());
	CK(cuEventDestroy(eb));
	CK(cuStreamDestroy(sb));
	CK(cuCtxSetCurrent(a));
	CK(cuCtxSynchronize());
	CK(cuEventDestroy(ea));
	CK(cuStreamDestroy(sa));
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A child forked while a 0.5 s launch of module m is queued on s. */
static void fork_case(CUmodule m, CUstream s)
{
	unsigned long long cycles = 1000000000ull;
	void *args[] = { &g_out, &cycles };
	int st = 0;
	pid_t pid;

	CK(cuLaunchKernel(g_f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
	pid = fork();
	if (pid == 0) {
		CUcontext c = (CUcontext)1;
		CUdeviceptr d = 0;
		double t0 = now_ms();
		CUresult r;

		alarm(5);
		r = cuStreamQuery(s);
		P("xctx.fork.child_stream_query: %s\n", en(r));
		r = cuCtxGetCurrent(&c);
		P("xctx.fork.child_ctx_current: %s null=%d\n", en(r),
		  c == NULL);
		r = cuMemAlloc(&d, 4096);
		P("xctx.fork.child_mem_alloc: %s\n", en(r));
		r = cuModuleUnload(m);
		P("xctx.fork.child_module_unload: %s returned=1 waited=%d\n",
		  en(r), now_ms() - t0 > 250);
		r = cuInit(0);
		P("xctx.fork.child_init: %s\n", en(r));
		_exit(0);
	}
	waitpid(pid, &st, 0);
	P("xctx.fork.child_exit: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
	  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	P("xctx.fork.parent_stream_sync: %s\n", en(cuStreamSynchronize(s)));
}

int main(void)
{
	CUcontext a, b, c1 = NULL;
	CUmodule m;
	CUstream s;

	setup("xctx");
	CK(cuCtxCreate(&a, NULL, 0, g_dev[0]));
	CK(cuModuleLoadData(&m, spin_ptx));
	CK(cuModuleGetFunction(&g_f, m, "spin"));
	CK(cuMemAlloc(&g_out, 4));
	CK(cuCtxCreate(&b, NULL, 0, g_dev[0]));
	cross("samedev", a, b);
	if (g_ndev > 1) {
		CK(cuCtxCreate(&c1, NULL, 0, g_dev[1]));
		cross("otherdev", a, c1);
	}
	CK(cuCtxSetCurrent(a));
	CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	if (!getenv("PROBE_SKIP") || !strstr(getenv("PROBE_SKIP"), "fork"))
		fork_case(m, s);
	CK(cuStreamDestroy(s));
	CK(cuModuleUnload(m));
	CK(cuMemFree(g_out));
	CK(cuCtxDestroy(b));
	if (c1)
		CK(cuCtxDestroy(c1));
	CK(cuCtxDestroy(a));
	return 0;
}
