/* Shared helpers for the driver probes: one output line per case,
 * "topic.case: RESULT details", flushed at once so a crash keeps what came before. */
#ifndef PROBE_COMMON_H
#define PROBE_COMMON_H
#define _GNU_SOURCE
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>

static const char *en(CUresult r)
{
    const char *s = NULL;
    static char buf[8][32];
    static int k;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) {
        k = (k + 1) % 8;
        snprintf(buf[k], sizeof buf[k], "CUresult_%d", (int)r);
        return buf[k];
    }
    return s;
}

static char g_last[512] = "(nothing printed yet)";
#define P(...) do { snprintf(g_last, sizeof g_last, __VA_ARGS__); printf(__VA_ARGS__); fflush(stdout); } while (0)
#define CK(x) do { CUresult _r = (x); if (_r != CUDA_SUCCESS) { \
    P("FATAL %s:%d %s -> %s\n", __FILE__, __LINE__, #x, en(_r)); exit(1); } } while (0)

/* a crash prints the case being tried, so a rerun can leave it out */
static const char *volatile g_case = "start";
static volatile int g_jmp_armed;
static sigjmp_buf g_jmp;
#define CASE(s) (g_case = (s))
static void on_sig(int s)
{
    if (g_jmp_armed) { g_jmp_armed = 0; siglongjmp(g_jmp, s); }
    char b[800];
    int n = snprintf(b, sizeof b, "%s: SIGNAL %d (crashed; last line printed before: %.180s)\n", g_case, s, g_last);
    if (write(1, b, n) < 0) {}
    _exit(3);
}
/* read 4 bytes from p on the CPU; *sig is 0 or the signal it raised */
__attribute__((unused)) static uint32_t safe_read32(const void *p, int *sig)
{
    int s = sigsetjmp(g_jmp, 1);
    if (s) { *sig = s; return 0; }
    g_jmp_armed = 1;
    uint32_t v = *(volatile const uint32_t *)p;
    g_jmp_armed = 0;
    *sig = 0;
    return v;
}

static int g_ndev;
static CUdevice g_dev[2];
static CUcontext g_ctx[2];

__attribute__((unused)) static void setup(const char *topic)
{
    signal(SIGSEGV, on_sig);
    signal(SIGBUS, on_sig);
    signal(SIGABRT, on_sig);
    CK(cuInit(0));
    CK(cuDeviceGetCount(&g_ndev));
    int ver = 0;
    cuDriverGetVersion(&ver);
    P("%s.devices: %d driver=%d\n", topic, g_ndev, ver);
    for (int i = 0; i < g_ndev && i < 2; i++) {
        CK(cuDeviceGet(&g_dev[i], i));
        CK(cuDevicePrimaryCtxRetain(&g_ctx[i], g_dev[i]));
    }
    CK(cuCtxSetCurrent(g_ctx[0]));
}

__attribute__((unused)) static void teardown(const char *topic)
{
    cuCtxSetCurrent(NULL);
    for (int i = 0; i < g_ndev && i < 2; i++)
        cuDevicePrimaryCtxRelease(g_dev[i]);
    P("%s.done: ok\n", topic);
}

#define MiB (1024ull * 1024ull)
#define KiB 1024ull
#endif
