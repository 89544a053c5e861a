/* The pointer-attribute sweep of ptrsweep.h on the kinds of memory whose families are newer than
 * ptrsweep.c's: a cuMemAlloc block opened through legacy IPC (cuIpcGetMemHandle in a child process,
 * cuIpcOpenMemHandle here), a block of a managed memory pool, and a CUDA array, whose handle is not an
 * address (one line shows it). The IPC and array entries are found through cuGetProcAddress, so the
 * probe builds on headers that lack them and says NOT_FOUND where a library lacks them. */
#include "ptrsweep.h"
#include <sys/wait.h>

struct ipc_handle { char bytes[64]; };               /* CUipcMemHandle's layout */
struct array_desc { size_t w, h; int format; unsigned channels; }; /* CUDA_ARRAY_DESCRIPTOR's */
typedef CUresult (*ipc_get_fn)(struct ipc_handle *, CUdeviceptr);
typedef CUresult (*ipc_open_fn)(CUdeviceptr *, struct ipc_handle, unsigned int);
typedef CUresult (*ipc_close_fn)(CUdeviceptr);
typedef CUresult (*array_create_fn)(void **, const struct array_desc *);
typedef CUresult (*array_destroy_fn)(void *);

static void *entry(const char *name)
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    CUresult r = cuGetProcAddress(name, &fn, 13000, 0, &st);
    P("ptrattr_new.getproc.%s: %s status=%d found=%s\n", name, en(r), (int)st, fn ? "yes" : "no");
    return r == CUDA_SUCCESS ? fn : NULL;
}

/* the child: a 1 MiB cuMemAlloc block exported through legacy IPC; it lives until the parent is done */
static void child(int wr, int rd)
{
    struct ipc_handle h;
    memset(&h, 0, sizeof h);
    CUdevice d;
    CUcontext c;
    CUdeviceptr p = 0;
    if (cuInit(0) || cuDeviceGet(&d, 0) || cuDevicePrimaryCtxRetain(&c, d) || cuCtxSetCurrent(c) ||
        cuMemAlloc(&p, MiB))
        _exit(1);
    void *fn = NULL;
    CUdriverProcAddressQueryResult st;
    CUresult r = cuGetProcAddress("cuIpcGetMemHandle", &fn, 13000, 0, &st);
    if (r == CUDA_SUCCESS && !fn) r = CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_SUCCESS) r = ((ipc_get_fn)fn)(&h, p);
    P("ptrattr_new.ipc.child_get_handle: %s\n", en(r));
    if (write(wr, &h, sizeof h) != sizeof h) _exit(1);
    char b;
    if (read(rd, &b, 1) < 0) _exit(1);
    cuMemFree(p);
    _exit(0);
}

int main(void)
{
    int up[2], down[2];
    signal(SIGPIPE, SIG_IGN);
    if (pipe(up) || pipe(down)) return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(up[0]);
        close(down[1]);
        child(up[1], down[0]);
    }
    close(up[1]);
    close(down[0]);
    struct ipc_handle h;
    int got = read(up[0], &h, sizeof h) == sizeof h;

    sw_topic = "ptrattr_new";
    setup("ptrattr_new");
    CUstream S;
    CK(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));

    /* legacy IPC */
    ipc_open_fn op = (ipc_open_fn)entry("cuIpcOpenMemHandle");
    ipc_close_fn cl = (ipc_close_fn)entry("cuIpcCloseMemHandle");
    P("ptrattr_new.ipc.handle_from_child: %s\n", got ? "yes" : "no");
    if (op && cl && got) {
        CUdeviceptr ip = 0;
        CUresult r = op(&ip, h, 1 /* CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS */);
        P("ptrattr_new.ipc.open: %s\n", en(r));
        if (r == CUDA_SUCCESS) {
            sw_sweep("ipc_opened", ip, MiB, NULL);
            /* closed twice: the line gives the second call's answer (see poolsweep.c's imported.destroy) */
            r = cl(ip);
            r = cl(ip);
            P("ptrattr_new.ipc.close: %s\n", en(r));
        }
    }
    if (write(down[1], "x", 1) != 1) P("ptrattr_new.ipc.child_gone: yes\n");
    int st = 0;
    waitpid(pid, &st, 0);
    P("ptrattr_new.ipc.child_exit: %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);

    /* a managed pool's block */
    CUmemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = CU_MEM_ALLOCATION_TYPE_MANAGED;
    pp.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    pp.location.id = 0;
    CUmemoryPool mp = NULL;
    CUresult r = cuMemPoolCreate(&mp, &pp);
    P("ptrattr_new.managed_pool.create: %s\n", en(r));
    if (r == CUDA_SUCCESS) {
        CUdeviceptr b = 0;
        r = cuMemAllocFromPoolAsync(&b, MiB, mp, S);
        cuStreamSynchronize(S);
        P("ptrattr_new.managed_pool.alloc: %s\n", en(r));
        if (r == CUDA_SUCCESS) {
            sw_sweep("managed_pool", b, MiB, mp);
            CK(cuMemFreeAsync(b, S));
            CK(cuStreamSynchronize(S));
        }
        CK(cuMemPoolDestroy(mp));
    }

    /* a CUDA array: its handle is no address */
    array_create_fn ac = (array_create_fn)entry("cuArrayCreate");
    array_destroy_fn ad = (array_destroy_fn)entry("cuArrayDestroy");
    if (ac && ad) {
        struct array_desc d = { 256, 256, 0x20 /* CU_AD_FORMAT_FLOAT */, 1 };
        void *arr = NULL;
        r = ac(&arr, &d);
        P("ptrattr_new.array.create: %s\n", en(r));
        if (r == CUDA_SUCCESS) {
            uint64_t v = SW_SENT;
            r = cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(uintptr_t)arr);
            P("ptrattr_new.array.handle_as_pointer.MEMORY_TYPE: %s %s\n", en(r), sw_width(v));
            /* destroyed twice (as the recorded run did, through P's two evaluations of its arguments): the
             * second call crashed the real driver (SIGSEGV), and the case prints the second call's answer */
            r = ad(arr);
            CASE("ptrattr_new.array.destroy");
            r = ad(arr);
            P("ptrattr_new.array.destroy: %s\n", en(r));
        }
    }
    CASE("ptrattr_new.stream_destroy");
    r = cuStreamDestroy(S);
    P("ptrattr_new.stream_destroy: %s\n", en(r));
    CASE("ptrattr_new.teardown");
    teardown("ptrattr_new");
    return 0;
}
