/* startup.c - the wall time from a process's start to its first
 * allocation, with and without CUDA_VISIBLE_DEVICES, and what
 * CUDA_LAUNCH_BLOCKING=1 does to asynchronous stream work.
 * The parent takes CLOCK_MONOTONIC, forks and execs itself; the child
 * initializes, makes device 0's primary context current, allocates 4 KiB
 * and sends its own CLOCK_MONOTONIC back through a pipe. Median of RUNS.
 * The blocking case times a 1 GiB cuMemsetD8Async and a 256 MiB pinned
 * cuMemcpyHtoDAsync on a non-blocking stream, and asks cuStreamQuery at
 * once after each. Usage: startup */
#include "common.h"
#include <sys/wait.h>
#include <time.h>

#define RUNS 21

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

static int child_alloc(void)
{
    int fd = atoi(getenv("PROBE_FD"));
    uint64_t t_init, t_end;
    CUdevice d;
    CUcontext c;
    CUdeviceptr p;

    t_init = now_ns();
    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&c, d));
    CK(cuCtxSetCurrent(c));
    CK(cuMemAlloc(&p, 4096));
    t_end = now_ns();
    uint64_t v[2] = { t_end, t_end - t_init };
    if (write(fd, v, sizeof v) != sizeof v)
        return 1;
    return 0;
}

static void child_blocking(void)
{
    CUdevice d;
    CUcontext c;
    CUstream s;
    CUdeviceptr p;
    void *h;
    uint64_t t;
    CUresult q;
    const char *b = getenv("CUDA_LAUNCH_BLOCKING");

    CK(cuInit(0));
    CK(cuDeviceGet(&d, 0));
    CK(cuDevicePrimaryCtxRetain(&c, d));
    CK(cuCtxSetCurrent(c));
    CK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
    CK(cuMemAlloc(&p, 1024 * MiB));
    CK(cuMemAllocHost(&h, 256 * MiB));
    for (int k = 0; k < 3; k++) {
        CK(cuStreamSynchronize(s));
        t = now_ns();
        CK(cuMemsetD8Async(p, 1, 1024 * MiB, s));
        t = now_ns() - t;
        q = cuStreamQuery(s);
        P("startup.blocking_%s.memsetD8Async_1GiB.%d: call_ns=%llu query=%s\n",
          b ? b : "unset", k, (unsigned long long)t, en(q));
        CK(cuStreamSynchronize(s));
        t = now_ns();
        CK(cuMemcpyHtoDAsync(p, h, 256 * MiB, s));
        t = now_ns() - t;
        q = cuStreamQuery(s);
        P("startup.blocking_%s.memcpyHtoDAsync_256MiB_pinned.%d: call_ns=%llu query=%s\n",
          b ? b : "unset", k, (unsigned long long)t, en(q));
    }
    CK(cuStreamSynchronize(s));
}

static void start_to_alloc(const char *self, const char *name, const char *cvd)
{
    uint64_t wall[RUNS], inside[RUNS];
    char fdbuf[16];

    for (int i = 0; i < RUNS; i++) {
        int pfd[2], st;
        uint64_t v[2] = { 0, 0 }, t0;
        pid_t pid;

        if (pipe(pfd) < 0)
            exit(1);
        snprintf(fdbuf, sizeof fdbuf, "%d", pfd[1]);
        t0 = now_ns();
        if ((pid = fork()) == 0) {
            close(pfd[0]);
            setenv("PROBE_FD", fdbuf, 1);
            if (cvd)
                setenv("CUDA_VISIBLE_DEVICES", cvd, 1);
            else
                unsetenv("CUDA_VISIBLE_DEVICES");
            execl(self, self, "alloc", (char *)NULL);
            _exit(127);
        }
        close(pfd[1]);
        if (read(pfd[0], v, sizeof v) != sizeof v)
            v[0] = t0, v[1] = 0;
        close(pfd[0]);
        waitpid(pid, &st, 0);
        wall[i] = v[0] - t0;
        inside[i] = v[1];
    }
    qsort(wall, RUNS, sizeof wall[0], cmp);
    qsort(inside, RUNS, sizeof inside[0], cmp);
    P("startup.start_to_first_alloc.%s: median_ns=%llu min_ns=%llu max_ns=%llu "
      "cuInit_to_alloc_median_ns=%llu runs=%d\n", name,
      (unsigned long long)wall[RUNS / 2], (unsigned long long)wall[0],
      (unsigned long long)wall[RUNS - 1],
      (unsigned long long)inside[RUNS / 2], RUNS);
}

int main(int argc, char **argv)
{
    char self[4096];
    ssize_t len;

    if (argc > 1 && strcmp(argv[1], "alloc") == 0)
        return child_alloc();
    if (argc > 1 && strcmp(argv[1], "blocking") == 0) {
        child_blocking();
        return 0;
    }
    if ((len = readlink("/proc/self/exe", self, sizeof self - 1)) < 0)
        return 1;
    self[len] = '\0';
    start_to_alloc(self, "cvd_unset", NULL);
    start_to_alloc(self, "cvd_0", "0");
    start_to_alloc(self, "cvd_unset_again", NULL);
    start_to_alloc(self, "cvd_0_again", "0");
    P("startup.done: ok\n");
    return 0;
}
