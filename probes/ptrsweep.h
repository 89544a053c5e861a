/* The pointer-attribute sweep shared by ptrsweep.c and ptrattr_new.c: every
 * CU_POINTER_ATTRIBUTE, through cuPointerGetAttribute one at a time and through
 * cuPointerGetAttributes all at once, at an allocation's base, in its interior
 * and one byte past its end. Lines are stable across runs: addresses print as
 * offsets from the allocation's base, ids as zero or not and as equal to the
 * base's or not, and every value with the width the call wrote (w=4 or w=8,
 * from a sentinel), never a raw address. */
#ifndef PROBE_PTRSWEEP_H
#define PROBE_PTRSWEEP_H
#include "common.h"

#define SW_NATTR 21 /* CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE is the last in CUDA 13.0 */
static const char *sw_name[SW_NATTR + 1] = {
    "0", "CONTEXT", "MEMORY_TYPE", "DEVICE_POINTER", "HOST_POINTER", "P2P_TOKENS", "SYNC_MEMOPS", "BUFFER_ID",
    "IS_MANAGED", "DEVICE_ORDINAL", "IS_LEGACY_CUDA_IPC_CAPABLE", "RANGE_START_ADDR", "RANGE_SIZE", "MAPPED",
    "ALLOWED_HANDLE_TYPES", "IS_GPU_DIRECT_RDMA_CAPABLE", "ACCESS_FLAGS", "MEMPOOL_HANDLE", "MAPPING_SIZE",
    "MAPPING_BASE_ADDR", "MEMORY_BLOCK_ID", "IS_HW_DECOMPRESS_CAPABLE" };

#define SW_SENT 0xa5a5a5a5a5a5a5a5ull
static const char *sw_topic = "ptrsweep"; /* the topic the lines are named for */

/* what the values of one allocation are compared with */
struct sw_kind {
    const char *name;
    uint64_t base, size;
    CUmemoryPool pool;   /* the pool it came from, or NULL */
    uint64_t buf_id;     /* BUFFER_ID and MEMORY_BLOCK_ID at the base, once read */
    uint64_t blk_id;
};

static const char *sw_width(uint64_t raw)
{
    if (raw == SW_SENT) return "w=0";
    if ((raw >> 32) == 0xa5a5a5a5u) return "w=4";
    return "w=8";
}

static const char *sw_addr(char *o, size_t n, uint64_t raw, const struct sw_kind *k)
{
    if (raw == 0) snprintf(o, n, "0");
    else if (raw >= k->base - 64 * MiB && raw <= k->base + k->size + 64 * MiB)
        snprintf(o, n, "base%+lld", (long long)(raw - k->base));
    else snprintf(o, n, "elsewhere");
    return o;
}

/* one value, as "w=N value" */
static void sw_value(char *o, size_t n, int a, uint64_t raw, uint64_t raw1, const struct sw_kind *k, int at_base)
{
    char t[64];
    if (raw == SW_SENT) { snprintf(o, n, "w=0"); return; }
    uint32_t v32 = (uint32_t)raw;
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        snprintf(o, n, "w=8 ctx=%s", raw == 0 ? "null" : raw == (uint64_t)(uintptr_t)g_ctx[0] ? "primary0"
                 : (g_ndev > 1 && raw == (uint64_t)(uintptr_t)g_ctx[1]) ? "primary1" : "other");
        break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
        snprintf(o, n, "%s %s", sw_width(raw), sw_addr(t, sizeof t, raw, k));
        break;
    case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
        snprintf(o, n, "p2p=%llu vaspace=%s", (unsigned long long)raw,
                 raw1 == SW_SENT ? "unwritten" : (raw1 >> 32) == 0xa5a5a5a5u ? "w4" : "w8");
        break;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        snprintf(o, n, "%s pool=%s", sw_width(raw), raw == 0 ? "null"
                 : (k->pool && raw == (uint64_t)(uintptr_t)k->pool) ? "its_pool" : "other");
        break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: {
        uint64_t ref = a == CU_POINTER_ATTRIBUTE_BUFFER_ID ? k->buf_id : k->blk_id;
        snprintf(o, n, "%s id=%s%s", sw_width(raw), raw ? "nonzero" : "0",
                 at_base || !raw ? "" : raw == ref ? " same_as_base" : " other_than_base");
        break;
    }
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        snprintf(o, n, "%s %llu", sw_width(raw), (unsigned long long)raw);
        break;
    default:
        snprintf(o, n, "%s %d", sw_width(raw), (int32_t)v32);
    }
}

static void sw_at(struct sw_kind *k, const char *where, uint64_t ptr)
{
    int at_base = !strcmp(where, "base");
    char v[128];
    for (int a = 1; a <= SW_NATTR; a++) {
        uint64_t buf[4] = { SW_SENT, SW_SENT, SW_SENT, SW_SENT };
        CUresult r = cuPointerGetAttribute(buf, (CUpointer_attribute)a, (CUdeviceptr)ptr);
        if (at_base && r == CUDA_SUCCESS && a == CU_POINTER_ATTRIBUTE_BUFFER_ID) k->buf_id = buf[0];
        if (at_base && r == CUDA_SUCCESS && a == CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID) k->blk_id = buf[0];
        sw_value(v, sizeof v, a, buf[0], buf[1], k, at_base);
        P("%s.%s.%s.%s: %s %s\n", sw_topic, k->name, where, sw_name[a], en(r), v);
    }
    /* all at once, but P2P_TOKENS, which cuPointerGetAttributes refuses */
    CUpointer_attribute at[SW_NATTR];
    uint64_t store[SW_NATTR][4];
    void *data[SW_NATTR];
    int n = 0;
    for (int a = 1; a <= SW_NATTR; a++) {
        if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS) continue;
        at[n] = (CUpointer_attribute)a;
        for (int j = 0; j < 4; j++) store[n][j] = SW_SENT;
        data[n] = store[n];
        n++;
    }
    CUresult r = cuPointerGetAttributes(n, at, data, (CUdeviceptr)ptr);
    P("%s.getattrs.%s.%s: %s\n", sw_topic, k->name, where, en(r));
    for (int i = 0; i < n; i++) {
        sw_value(v, sizeof v, at[i], store[i][0], store[i][1], k, at_base);
        P("%s.getattrs.%s.%s.%s: %s\n", sw_topic, k->name, where, sw_name[at[i]], v);
    }
}

/* base, interior (an odd offset past the middle) and one byte past the end */
static void sw_sweep(const char *name, uint64_t base, uint64_t size, CUmemoryPool pool)
{
    struct sw_kind k = { name, base, size, pool, 0, 0 };
    sw_at(&k, "base", base);
    sw_at(&k, "interior", base + size / 2 + 3);
    sw_at(&k, "end", base + size);
}
#endif
