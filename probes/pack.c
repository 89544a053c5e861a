/* Where the real driver puts cuMemAlloc memory: the spacing of small
 * allocations, how many share a 2 MiB block, where a block's successor
 * goes, where larger allocations go, what a freed piece is reused for,
 * what device memory a small allocation takes (cuMemGetInfo), the pointer
 * attributes and address range of an allocation inside a block, and what
 * cuIpcOpenMemHandle gives another process for an allocation that is not
 * at the start of its block (the importer runs as "pack imp IN OUT").
 * Lines print offsets and equalities, never addresses. */
#include "common.h"
#include <sys/wait.h>

#define BLK (2 * MiB)

static int g_in = -1, g_out = -1;

static long long d(CUdeviceptr a, CUdeviceptr b)
{
    return (long long)(a - b);
}

static size_t free_now(void)
{
    size_t f = 0, t = 0;
    cuCtxSynchronize();
    cuMemGetInfo(&f, &t);
    return f;
}

/* Many allocations of sz: how they are spaced, how many 2 MiB blocks they
 * take, where the next block goes, and what they cost the device. */
static void fill(const char *name, size_t sz, int n)
{
    CUdeviceptr *v = calloc(n, sizeof *v);
    size_t before = free_now();
    long long first_other = 0, step = 0;
    int same = 0, other = 0, blocks = 1, at = -1, up = 0, down = 0;

    for (int i = 0; i < n; i++) {
        CUresult r = cuMemAlloc(&v[i], sz);
        if (r != CUDA_SUCCESS) {
            P("pack.fill.%s: %s at=%d\n", name, en(r), i);
            n = i;
            break;
        }
        if (i == 0)
            continue;
        long long dd = d(v[i], v[i - 1]);
        if (i == 1)
            step = dd;
        if (dd == step) {
            same++;
        } else {
            if (!other++) {
                first_other = dd;
                at = i;
            }
        }
        if (v[i] / BLK != v[i - 1] / BLK) {
            blocks++;
            if (v[i] > v[i - 1]) up++; else down++;
        }
    }
    size_t after = free_now();
    P("pack.fill.%s: n=%d step=%lld same=%d other=%d first_other_at=%d "
      "first_mod_2MiB_mod_512=%llu\n", name, n, step, same, other, at,
      (unsigned long long)(v[0] % BLK % 512));
    P("pack.fill.%s.blocks: changes=%d up=%d down=%d\n", name, blocks - 1, up, down);
    if (at > 0)
        P("pack.fill.%s.next_block: delta=%lld prev_end_mod_2MiB=%llu "
          "new_mod_2MiB=%llu\n", name, first_other,
          (unsigned long long)((v[at - 1] + sz) % BLK),
          (unsigned long long)(v[at] % BLK));
    P("pack.fill.%s.mem_taken: %lld\n", name, (long long)(before - after));
    for (int i = 0; i < n; i++)
        cuMemFree(v[i]);
    P("pack.fill.%s.mem_back: %lld\n", name, (long long)(free_now() - after));
    free(v);
}

/* A larger allocation between two one-byte ones. */
static void large(const char *name, size_t sz)
{
    CUdeviceptr s = 0, l = 0, t = 0, mb = 0;
    size_t ms = 0, rs = 0;
    CUresult r;

    CK(cuMemAlloc(&s, 1));
    r = cuMemAlloc(&l, sz);
    CK(cuMemAlloc(&t, 1));
    cuPointerGetAttribute(&mb, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, l);
    cuPointerGetAttribute(&ms, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, l);
    cuPointerGetAttribute(&rs, CU_POINTER_ATTRIBUTE_RANGE_SIZE, l);
    P("pack.large.%s: %s mod_2MiB=%llu l_minus_s=%s t_minus_s=%lld "
      "same_block_as_s=%s mapping_base=%lld mapping_size=%zu range_size=%zu\n",
      name, en(r), (unsigned long long)(l % BLK),
      l / BLK == s / BLK ? "packed" : "apart", d(t, s),
      l / BLK == s / BLK ? "yes" : "no", d(mb, l), ms, rs);
    if (l / BLK == s / BLK)
        P("pack.large.%s.offset: %lld\n", name, d(l, s));
    cuMemFree(t);
    cuMemFree(l);
    cuMemFree(s);
}

static void reuse(void)
{
    CUdeviceptr a, b, c, x, y, z;

    CK(cuMemAlloc(&a, 4096));
    CK(cuMemAlloc(&b, 4096));
    CK(cuMemAlloc(&c, 4096));
    P("pack.reuse.setup: b-a=%lld c-b=%lld\n", d(b, a), d(c, b));
    CK(cuMemFree(b));
    CK(cuMemAlloc(&x, 4096));
    P("pack.reuse.same_size: x-b=%lld\n", d(x, b));
    CK(cuMemFree(x));
    CK(cuMemAlloc(&x, 1));
    CK(cuMemAlloc(&y, 1));
    P("pack.reuse.smaller: x-b=%lld y-b=%lld\n", d(x, b), d(y, b));
    CK(cuMemAlloc(&z, 4096));
    P("pack.reuse.bigger_than_rest: z-b=%lld z-c=%lld\n", d(z, b), d(z, c));
    CK(cuMemFree(x));
    CK(cuMemFree(y));
    CK(cuMemFree(z));
    CK(cuMemFree(a));
    CK(cuMemAlloc(&x, 8192));
    P("pack.reuse.joined: x-a=%lld\n", d(x, a));
    CK(cuMemFree(x));
    CK(cuMemFree(c));
    CK(cuMemAlloc(&x, 4096));
    P("pack.reuse.after_all_freed: x-a=%lld\n", d(x, a));
    CK(cuMemFree(x));
}

static void attrs(void)
{
    CUdeviceptr x, y, rs = 0, mb = 0, b = 0;
    size_t rz = 0, mz = 0, sz = 0;
    unsigned long long bx = 0, by = 0, kx = 0, ky = 0;
    unsigned mt = 0, ipc = 0;
    CUresult r;

    CK(cuMemAlloc(&x, 1));
    CK(cuMemAlloc(&y, 1000));
    P("pack.attr.setup: y-x=%lld\n", d(y, x));
    r = cuPointerGetAttribute(&rs, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, y + 10);
    P("pack.attr.range_start: %s off=%lld\n", en(r), d(rs, y));
    r = cuPointerGetAttribute(&rz, CU_POINTER_ATTRIBUTE_RANGE_SIZE, y + 10);
    P("pack.attr.range_size: %s %zu\n", en(r), rz);
    r = cuPointerGetAttribute(&mb, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, y);
    P("pack.attr.mapping_base: %s off=%lld mod_2MiB=%llu\n", en(r), d(mb, y),
      (unsigned long long)(mb % BLK));
    r = cuPointerGetAttribute(&mz, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, y);
    P("pack.attr.mapping_size: %s %zu\n", en(r), mz);
    cuPointerGetAttribute(&bx, CU_POINTER_ATTRIBUTE_BUFFER_ID, x);
    cuPointerGetAttribute(&by, CU_POINTER_ATTRIBUTE_BUFFER_ID, y);
    cuPointerGetAttribute(&kx, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, x);
    cuPointerGetAttribute(&ky, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID, y);
    P("pack.attr.ids: buffer_same=%s block_same=%s\n", bx == by ? "yes" : "no",
      kx == ky ? "yes" : "no");
    r = cuPointerGetAttribute(&ipc, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, y);
    P("pack.attr.ipc_capable: %s %u\n", en(r), ipc);
    r = cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, y + 999);
    P("pack.attr.last_byte: %s %u\n", en(r), mt);
    mt = 0;
    r = cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, y + 1000);
    P("pack.attr.past_end: %s %u\n", en(r), mt);
    mt = 0;
    r = cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, x + 1);
    P("pack.attr.past_1byte: %s %u\n", en(r), mt);
    r = cuMemGetAddressRange(&b, &sz, y + 999);
    P("pack.range.last_byte: %s off=%lld size=%zu\n", en(r), d(b, y), sz);
    b = 0; sz = 0;
    r = cuMemGetAddressRange(&b, &sz, y + 1000);
    P("pack.range.past_end: %s base_is_0=%s size=%zu\n", en(r), b ? "no" : "yes", sz);
    b = 0; sz = 0;
    r = cuMemGetAddressRange(&b, &sz, x + 1);
    P("pack.range.past_1byte: %s base_is_0=%s size=%zu\n", en(r), b ? "no" : "yes", sz);
    r = cuMemFree(y + 8);
    P("pack.free_interior: %s\n", en(r));
    CK(cuMemFree(y));
    CK(cuMemFree(x));
}

/* Last, as a store past an allocation might fault on the device. */
static void gaps(void)
{
    CUdeviceptr x, y;
    CUresult r;

    CK(cuMemAlloc(&x, 1));
    CK(cuMemAlloc(&y, 1000));
    r = cuMemsetD8(x, 7, 512);
    P("pack.memset_past_1byte_into_gap: %s\n", en(r));
    r = cuMemsetD8(y, 7, 1024);
    P("pack.memset_past_end_into_gap: %s\n", en(r));
    r = cuCtxSynchronize();
    P("pack.memset_gap_sync: %s\n", en(r));
    cuMemFree(y);
    cuMemFree(x);
}

struct msg {
    CUipcMemHandle h[3];
    unsigned long long mod[3];   /* each allocation's offset in its block */
    long long gap10, gap20;      /* a1 - a0, a2 - a0 */
};

static void xread(void *b, size_t n)
{
    if (read(g_in, b, n) != (ssize_t)n) exit(2);
}

static void xwrite(const void *b, size_t n)
{
    if (write(g_out, b, n) != (ssize_t)n) exit(2);
}

static void value(const char *label, CUdeviceptr p)
{
    uint32_t v = 0;
    CUresult r = cuMemcpyDtoH(&v, p, 4);
    P("%s: %s value=%08x\n", label, en(r), v);
}

static void importer(void)
{
    struct msg m;
    CUdeviceptr p[3] = { 0 }, b = 0, mb = 0;
    size_t sz = 0, mz = 0;
    CUresult r;
    char c = 1;

    xread(&m, sizeof m);
    r = cuIpcOpenMemHandle(&p[1], m.h[1], CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    P("pack.ipc.imp.open_second: %s\n", en(r));
    P("pack.ipc.imp.second_offset_kept: %s mod_2MiB=%llu exporter_mod_2MiB=%llu\n",
      p[1] % BLK == m.mod[1] ? "yes" : "no", (unsigned long long)(p[1] % BLK), m.mod[1]);
    value("pack.ipc.imp.read_second", p[1]);
    r = cuMemGetAddressRange(&b, &sz, p[1]);
    P("pack.ipc.imp.range_second: %s off=%lld size=%zu\n", en(r), d(b, p[1]), sz);
    r = cuPointerGetAttribute(&mb, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, p[1]);
    cuPointerGetAttribute(&mz, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, p[1]);
    P("pack.ipc.imp.mapping_second: %s off=%lld size=%zu\n", en(r), d(mb, p[1]), mz);
    r = cuIpcOpenMemHandle(&p[0], m.h[0], CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    P("pack.ipc.imp.open_first: %s same_distance=%s\n", en(r),
      d(p[1], p[0]) == m.gap10 ? "yes" : "no");
    value("pack.ipc.imp.read_first", p[0]);
    r = cuIpcOpenMemHandle(&p[2], m.h[2], CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    P("pack.ipc.imp.open_third: %s same_distance=%s offset_kept=%s\n", en(r),
      d(p[2], p[0]) == m.gap20 ? "yes" : "no", p[2] % BLK == m.mod[2] ? "yes" : "no");
    value("pack.ipc.imp.read_third", p[2]);
    r = cuMemGetAddressRange(&b, &sz, p[2] + 100);
    P("pack.ipc.imp.range_third: %s off=%lld size=%zu\n", en(r), d(b, p[2]), sz);
    value("pack.ipc.imp.read_second_past_end", p[1] + 4096);
    value("pack.ipc.imp.read_before_second", p[1] - 4096);
    r = cuIpcCloseMemHandle(p[1] + 512);
    P("pack.ipc.imp.close_interior: %s\n", en(r));
    for (int i = 0; i < 3; i++) {
        r = cuIpcCloseMemHandle(p[i]);
        P("pack.ipc.imp.close%d: %s\n", i, en(r));
    }
    xwrite(&c, 1);
}

static void exporter(void)
{
    CUdeviceptr a[3];
    struct msg m;
    int in[2], out[2], st = 0;
    char c, fi[16], fo[16];
    CUresult r;

    CK(cuMemAlloc(&a[0], 4096));
    CK(cuMemAlloc(&a[1], 4096));
    CK(cuMemAlloc(&a[2], 1000));
    P("pack.ipc.setup: a1-a0=%lld a2-a1=%lld\n", d(a[1], a[0]), d(a[2], a[1]));
    CK(cuMemsetD32(a[0], 0xa0a0a0a0, 1024));
    CK(cuMemsetD32(a[1], 0xa1a1a1a1, 1024));
    CK(cuMemsetD32(a[2], 0xa2a2a2a2, 250));
    CK(cuCtxSynchronize());
    memset(&m, 0, sizeof m);
    for (int i = 0; i < 3; i++) {
        r = cuIpcGetMemHandle(&m.h[i], a[i]);
        P("pack.ipc.get%d: %s\n", i, en(r));
        m.mod[i] = a[i] % BLK;
    }
    P("pack.ipc.handles_differ: %s\n", memcmp(&m.h[0], &m.h[1], sizeof m.h[0]) ? "yes" : "no");
    {
        CUipcMemHandle hi;
        r = cuIpcGetMemHandle(&hi, a[1] + 100);
        P("pack.ipc.get_interior: %s same=%s\n", en(r),
          memcmp(&hi, &m.h[1], sizeof hi) ? "no" : "yes");
    }
    m.gap10 = d(a[1], a[0]);
    m.gap20 = d(a[2], a[0]);
    if (pipe(in) || pipe(out))
        exit(2);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        snprintf(fi, sizeof fi, "%d", in[0]);
        snprintf(fo, sizeof fo, "%d", out[1]);
        execl("/proc/self/exe", "pack", "imp", fi, fo, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    g_out = in[1];
    g_in = out[0];
    xwrite(&m, sizeof m);
    if (read(g_in, &c, 1) != 1)
        c = 0;
    waitpid(pid, &st, 0);
    P("pack.ipc.imp: exit=%d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    for (int i = 0; i < 3; i++)
        cuMemFree(a[i]);
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "imp")) {
        g_in = atoi(argv[2]);
        g_out = atoi(argv[3]);
        signal(SIGSEGV, on_sig);
        CK(cuInit(0));
        CUdevice dv;
        CUcontext cx;
        CK(cuDeviceGet(&dv, 0));
        CK(cuDevicePrimaryCtxRetain(&cx, dv));
        CK(cuCtxSetCurrent(cx));
        importer();
        return 0;
    }
    setup("pack");
    {
        static const size_t sizes[] = { 1, 1, 1000, 512, 513, 4096, 4097,
                                        65536, 100000, 262144 };
        CUdeviceptr p[10];
        for (int i = 0; i < 10; i++) {
            CK(cuMemAlloc(&p[i], sizes[i]));
            if (i)
                P("pack.seq.%zu_after_%zu: delta=%lld\n", sizes[i], sizes[i - 1],
                  d(p[i], p[i - 1]));
        }
        for (int i = 0; i < 10; i++)
            CK(cuMemFree(p[i]));
    }
    fill("1B", 1, 5000);
    fill("512B", 512, 5000);
    fill("4KiB", 4096, 1200);
    fill("64KiB", 65536, 100);
    fill("1MiB", MiB, 8);
    fill("2MiB", 2 * MiB, 8);
    large("64KiB", 64 * KiB);
    large("256KiB", 256 * KiB);
    large("512KiB", 512 * KiB);
    large("1MiB_minus_512", MiB - 512);
    large("1MiB", MiB);
    large("1MiB_plus_1", MiB + 1);
    large("1536KiB", 1536 * KiB);
    large("2MiB_minus_512", 2 * MiB - 512);
    large("2MiB", 2 * MiB);
    large("2MiB_plus_1", 2 * MiB + 1);
    large("3MiB", 3 * MiB);
    large("64MiB", 64 * MiB);
    {
        size_t f0 = free_now();
        CUdeviceptr s;
        CK(cuMemAlloc(&s, 1));
        P("pack.mem.one_byte_takes: %lld\n", (long long)(f0 - free_now()));
        CK(cuMemFree(s));
        P("pack.mem.one_byte_gives: %lld\n", (long long)(free_now() - f0));
    }
    reuse();
    attrs();
    exporter();
    gaps();
    teardown("pack");
    return 0;
}
