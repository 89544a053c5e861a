/* ctxtime.c - where a process's first 200 ms go: the wall time of cuInit,
 * of the first primary-context retain of each device, of the first
 * allocation in it, of a second context made by cuCtxCreate on a device
 * whose primary context exists, of its cuCtxDestroy, and of the last
 * primary release. Each run is a fresh process (fork and exec of itself),
 * since only a process's first cuInit does the work. Median, min and max
 * of RUNS, in ns. Usage: ctxtime */
#include "common.h"
#include <sys/wait.h>
#include <time.h>

#define RUNS 15
enum { T_INIT, T_RETAIN0, T_ALLOC0, T_CREATE, T_DESTROY, T_RETAIN1, T_RELEASE0, T_N };
static const char *names[T_N] = {
    "cuInit", "primary_retain_dev0", "first_alloc_dev0", "ctx_create_dev0",
    "ctx_destroy_dev0", "primary_retain_dev1", "primary_release_last_dev0",
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int child(int fd)
{
    uint64_t t[T_N] = { 0 }, s;
    CUdevice d0, d1;
    CUcontext p0, p1, c;
    CUdeviceptr p;
    int n = 0;

    s = now_ns(); CK(cuInit(0)); t[T_INIT] = now_ns() - s;
    CK(cuDeviceGet(&d0, 0));
    CK(cuDeviceGetCount(&n));
    s = now_ns(); CK(cuDevicePrimaryCtxRetain(&p0, d0)); t[T_RETAIN0] = now_ns() - s;
    CK(cuCtxSetCurrent(p0));
    s = now_ns(); CK(cuMemAlloc(&p, 4096)); t[T_ALLOC0] = now_ns() - s;
    s = now_ns(); CK(cuCtxCreate(&c, NULL, 0, d0)); t[T_CREATE] = now_ns() - s;
    s = now_ns(); CK(cuCtxDestroy(c)); t[T_DESTROY] = now_ns() - s;
    if (n > 1) {
        CK(cuDeviceGet(&d1, 1));
        s = now_ns(); CK(cuDevicePrimaryCtxRetain(&p1, d1)); t[T_RETAIN1] = now_ns() - s;
        CK(cuDevicePrimaryCtxRelease(d1));
    }
    CK(cuMemFree(p));
    CK(cuCtxSetCurrent(NULL));
    s = now_ns(); CK(cuDevicePrimaryCtxRelease(d0)); t[T_RELEASE0] = now_ns() - s;
    return write(fd, t, sizeof t) == sizeof t ? 0 : 1;
}

int main(int argc, char **argv)
{
    uint64_t v[T_N][RUNS];
    int runs = 0;

    if (getenv("PROBE_FD"))
        return child(atoi(getenv("PROBE_FD")));
    for (int r = 0; r < RUNS; r++) {
        int pfd[2];
        char buf[16];
        uint64_t t[T_N];
        pid_t pid;

        if (pipe(pfd) != 0)
            return 1;
        snprintf(buf, sizeof buf, "%d", pfd[1]);
        setenv("PROBE_FD", buf, 1);
        pid = fork();
        if (pid == 0) {
            close(pfd[0]);
            execv("/proc/self/exe", argv);
            _exit(127);
        }
        close(pfd[1]);
        ssize_t got = read(pfd[0], t, sizeof t);
        close(pfd[0]);
        waitpid(pid, NULL, 0);
        if (got != (ssize_t)sizeof t) {
            P("ctxtime.run%d: child failed\n", r);
            continue;
        }
        for (int k = 0; k < T_N; k++)
            v[k][runs] = t[k];
        runs++;
    }
    (void)argc;
    for (int k = 0; k < T_N && runs > 0; k++) {
        qsort(v[k], runs, sizeof v[k][0], cmp);
        P("ctxtime.%s: median_ns=%llu min_ns=%llu max_ns=%llu runs=%d\n", names[k],
          (unsigned long long)v[k][runs / 2], (unsigned long long)v[k][0],
          (unsigned long long)v[k][runs - 1], runs);
    }
    P("ctxtime.done: ok\n");
    return 0;
}
