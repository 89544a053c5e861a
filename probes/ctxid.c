/* cuCtxGetApiVersion and cuCtxGetId: a NULL context (the current one, or
 * none), a destroyed context, NULL output pointers, in which order they are
 * refused. */
#include "common.h"

static void no_context(const char *when)
{
    unsigned int v = 77;
    unsigned long long id = 77;
    CUresult r;

    r = cuCtxGetApiVersion(NULL, &v);
    P("ctxid.apiversion_null_%s: %s\n", when, en(r));
    r = cuCtxGetId(NULL, &id);
    P("ctxid.getid_null_%s: %s\n", when, en(r));
}

int main(void)
{
    CUcontext a, b, cur = NULL;
    unsigned long long ida = 0, idb = 0, idcur = 0;
    unsigned int v = 0;
    CUresult r;

    no_context("before_init");
    signal(SIGSEGV, on_sig);
    CK(cuInit(0));
    no_context("no_current");

    CK(cuCtxCreate(&a, NULL, 0, 0));
    CK(cuCtxCreate(&b, NULL, 0, 0));
    r = cuCtxGetApiVersion(a, &v);
    P("ctxid.apiversion_created: %s %u\n", en(r), v);
    v = 0;
    r = cuCtxGetApiVersion(NULL, &v);
    P("ctxid.apiversion_null_current: %s %u\n", en(r), v);
    r = cuCtxGetApiVersion(a, NULL);
    P("ctxid.apiversion_null_out: %s\n", en(r));
    r = cuCtxGetId(a, &ida);
    P("ctxid.getid: %s\n", en(r));
    cuCtxGetId(b, &idb);
    P("ctxid.ids_distinct: %s\n", ida && idb && ida != idb ? "yes" : "no");
    r = cuCtxGetId(NULL, &idcur);
    cuCtxGetCurrent(&cur);
    P("ctxid.getid_null_current: %s top=%s\n", en(r),
      cur == b && idcur == idb ? "yes" : "no");
    r = cuCtxGetId(b, NULL);
    P("ctxid.getid_null_out: %s\n", en(r));
    CK(cuCtxDestroy(b));
    CASE("ctxid.getid_destroyed_null_out");
    r = cuCtxGetId(b, NULL);
    P("ctxid.getid_destroyed_null_out: %s\n", en(r));
    CASE("ctxid.apiversion_destroyed");
    r = cuCtxGetApiVersion(b, &v);
    P("ctxid.apiversion_destroyed: %s\n", en(r));
    CK(cuCtxDestroy(a));
    no_context("all_destroyed");
    P("ctxid.done: ok\n");
    return 0;
}
