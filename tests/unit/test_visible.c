/*
 * test_visible.c - the CUDA_* variables cuInit reads (runtime/model/
 * cudaenv.c), with the answers the real driver gave (probes/visible.c,
 * probes/startup.c): which of the machine's GPUs a process sees and in
 * which order (CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER), what cuInit
 * answers when that leaves none or is malformed, UUIDs stable per machine
 * and distinct between machines, use charged to the machine's GPU an
 * ordinal stands for, and CUDA_LAUNCH_BLOCKING=1 making memsets and
 * emulated kernels synchronous while copies stay asynchronous.
 *
 * Each case runs in a process of its own (spawn.h), since cuInit reads the
 * environment once; it prints "key value" lines this one checks.
 */
#include <limits.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"
#include "cuemu.h"
#include "spawn.h"
#include "stacks.h"
#include "tap.h"

#define MIB (1ULL << 20)
#define BAIL_OUT(why) do { printf("Bail out! %s\n", why); exit(1); } while (0)

static char dir[PATH_MAX];
static char uuid[4][48];     /* the default machine's GPUs, in its order */
static char machine[128];

static const char *file(const char *name)
{
	static char path[4][PATH_MAX + 64];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	return p;
}

static void uuid_text(const CUuuid *u, char *out)
{
	const unsigned char *b = (const unsigned char *)u->bytes;

	sprintf(out, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		"%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5],
		b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		b[15]);
}

/* The text after "key " in a child's output, or "" (at most 127 bytes). */
static const char *child_text(const char *path, const char *key)
{
	static char v[4][128];
	static int next;
	char line[256], *out = v[next++ % 4];
	size_t len = strlen(key);
	FILE *f = fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return out;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, len) && line[len] == ' ') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, 128, "%s", line + len + 1);
		}
	fclose(f);
	return out;
}

/* ---------------------------------------------------------------- children */

/* What cuInit answered, and the devices seen: their UUIDs in order. */
static int show(void)
{
	CUresult r = cuInit(0);
	int n = 0, v = 0;
	char u[48];

	printf("init %d\n", (int)r);
	if (r != CUDA_SUCCESS) {
		printf("count_after %d\n", (int)cuDeviceGetCount(&n));
		printf("again %d\n", (int)cuInit(0));
		printf("version %d\n", (int)cuDriverGetVersion(&v));
		return 0;
	}
	if (cuDeviceGetCount(&n))
		return 2;
	printf("count %d\n", n);
	for (int i = 0; i < n; i++) {
		CUuuid uu;
		char bus[32];

		if (cuDeviceGetUuid(&uu, i) || cuDeviceGetPCIBusId(bus, 32, i))
			return 3;
		uuid_text(&uu, u);
		printf("uuid%d %s\npci%d %s\n", i, u, i, bus);
	}
	return 0;
}

/* Holds 64 MiB on its device 0 until its stdin-less sleep ends. */
static int hold(void)
{
	CUcontext c;
	CUdeviceptr p;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuMemAlloc(&p, 64 * MIB))
		return 2;
	printf("ready 1\n");
	fflush(stdout);
	sleep(3);
	cuMemFree(p);
	return 0;
}

static void nap(void *arg)
{
	(void)arg;
	usleep(300 * 1000);
}

/* A stream kept busy by a host function, then a memset, an emulated
 * kernel and a copy: what cuStreamQuery says just after each returns. */
static int blocking(void)
{
	CUcontext c;
	CUstream s;
	CUdeviceptr d;
	void *h;

	if (cuInit(0) || cuDevicePrimaryCtxRetain(&c, 0) || cuCtxSetCurrent(c) ||
	    cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) ||
	    cuMemAlloc(&d, 4 * MIB) || cuMemAllocHost(&h, 4 * MIB))
		return 2;
	if (cuLaunchHostFunc(s, nap, NULL) ||
	    cuMemsetD8Async(d, 1, 4 * MIB, s))
		return 3;
	printf("memset %d\n", (int)cuStreamQuery(s));
	cuStreamSynchronize(s);
	if (cuLaunchHostFunc(s, nap, NULL) ||
	    cuemuAccess(s, d, 4 * MIB, CUEMU_ACCESS_WRITE))
		return 4;
	printf("kernel %d\n", (int)cuStreamQuery(s));
	cuStreamSynchronize(s);
	if (cuLaunchHostFunc(s, nap, NULL) ||
	    cuMemcpyHtoDAsync(d, h, 4 * MIB, s))
		return 5;
	printf("copy %d\n", (int)cuStreamQuery(s));
	cuStreamSynchronize(s);
	return 0;
}

/* ---------------------------------------------------------------- cases */

/* Runs "show" with CUDA_VISIBLE_DEVICES=cvd (NULL: unset) and
 * CUDA_DEVICE_ORDER=order (NULL: unset) on topology topo (NULL: the
 * default); its output in <name>.out. */
static int run_show(const char *name, const char *cvd, const char *order,
		    const char *topo)
{
	char e1[600], e2[200], e3[PATH_MAX + 16];
	char *env[] = { e1, e2, e3, NULL };
	char out[64];

	if (cvd)
		snprintf(e1, sizeof e1, "CUDA_VISIBLE_DEVICES=%s", cvd);
	else
		snprintf(e1, sizeof e1, "CUDA_VISIBLE_DEVICES");
	if (order)
		snprintf(e2, sizeof e2, "CUDA_DEVICE_ORDER=%s", order);
	else
		snprintf(e2, sizeof e2, "CUDA_DEVICE_ORDER");
	if (topo)
		snprintf(e3, sizeof e3, "CUEMU_TOPOLOGY=%s", topo);
	else
		snprintf(e3, sizeof e3, "CUEMU_TOPOLOGY");
	snprintf(out, sizeof out, "%s.out", name);
	return run_self("show", env, file(out), NULL, 30);
}

/* Which of the default machine's GPUs the child's ordinal i is: 0..3, or
 * -1 when it saw no such ordinal. */
static int gpu_of(const char *name, int i)
{
	char out[64], key[16];
	const char *u;

	snprintf(out, sizeof out, "%s.out", name);
	snprintf(key, sizeof key, "uuid%d", i);
	u = child_text(file(out), key);
	for (int g = 0; g < 4; g++)
		if (!strcmp(u, uuid[g]))
			return g;
	return -1;
}

static long long value(const char *name, const char *key)
{
	char out[64];

	snprintf(out, sizeof out, "%s.out", name);
	return child_value(file(out), key, -999);
}

/* CUDA_VISIBLE_DEVICES=cvd: cuInit answers want; then n devices, the
 * machine's GPUs g[0..n). */
static void expect(const char *cvd, CUresult want, int n, const int *g,
		   const char *why)
{
	char name[32];
	static int k;

	snprintf(name, sizeof name, "case%d", k++);
	is_int(run_show(name, cvd, NULL, NULL), 0,
	       "CUDA_VISIBLE_DEVICES='%s' (%s): the process runs", cvd, why);
	is_int(value(name, "init"), want, "... cuInit answers %d", (int)want);
	if (want != CUDA_SUCCESS) {
		is_int(value(name, "count_after"), CUDA_ERROR_NOT_INITIALIZED,
		       "... cuDeviceGetCount then: NOT_INITIALIZED");
		is_int(value(name, "again"), want,
		       "... a second cuInit answers the same");
		is_int(value(name, "version"), CUDA_SUCCESS,
		       "... cuDriverGetVersion still answers");
		return;
	}
	is_int(value(name, "count"), n, "... %d devices", n);
	for (int i = 0; i < n; i++)
		is_int(gpu_of(name, i), g[i], "... ordinal %d is the machine's "
		       "gpu%d", i, g[i]);
}

static void indices(void)
{
	static const int all[] = { 0, 1, 2, 3 }, two[] = { 2 },
			 twozero[] = { 2, 0 }, zero[] = { 0 }, three[] = { 3 },
			 threeone[] = { 3, 1 };

	expect("", CUDA_ERROR_NO_DEVICE, 0, NULL, "empty: no device");
	expect("2", CUDA_SUCCESS, 1, two, "one index");
	expect("2,0", CUDA_SUCCESS, 2, twozero, "in the order given");
	expect("0,1,2,3", CUDA_SUCCESS, 4, all, "every GPU");
	expect("4", CUDA_ERROR_NO_DEVICE, 0, NULL, "out of range");
	expect("0,4,1", CUDA_SUCCESS, 1, zero, "an invalid entry ends the list");
	expect("4,0", CUDA_ERROR_NO_DEVICE, 0, NULL, "invalid first: none");
	expect("-1", CUDA_ERROR_NO_DEVICE, 0, NULL, "negative");
	expect("-1,0", CUDA_ERROR_NO_DEVICE, 0, NULL, "negative first");
	expect("0,0", CUDA_ERROR_INVALID_DEVICE, 0, NULL, "an index twice");
	expect(" 3", CUDA_SUCCESS, 1, three, "leading blank");
	expect("3 ,1", CUDA_SUCCESS, 2, threeone, "trailing blank");
	expect("0,", CUDA_SUCCESS, 1, zero, "an empty last entry");
	expect(",0", CUDA_ERROR_NO_DEVICE, 0, NULL, "an empty first entry");
	expect("+3", CUDA_SUCCESS, 1, three, "a sign");
	expect("03", CUDA_SUCCESS, 1, three, "a leading zero");
	expect("2a", CUDA_SUCCESS, 1, two, "what follows the digits ignored");
	expect("a", CUDA_ERROR_NO_DEVICE, 0, NULL, "no digits");
}

static void uuids(void)
{
	char s[160], up[48];
	int one[1], both[2];

	one[0] = 1;
	expect(uuid[1], CUDA_SUCCESS, 1, one, "a whole UUID");
	snprintf(s, sizeof s, "%.12s", uuid[1]);
	expect(s, CUDA_SUCCESS, 1, one, "a prefix of 8 digits");
	for (int i = 0; uuid[1][i]; i++)
		up[i] = (char)(i < 4 ? uuid[1][i] :
			       toupper((unsigned char)uuid[1][i])), up[i + 1] = 0;
	expect(up, CUDA_SUCCESS, 1, one, "capital hex digits");
	snprintf(s, sizeof s, "%sx", uuid[1]);
	expect(s, CUDA_SUCCESS, 1, one, "what follows a whole UUID ignored");
	snprintf(s, sizeof s, "MIG-%s", uuid[1] + 4);
	expect(s, CUDA_SUCCESS, 1, one, "MIG- with the GPU's UUID");
	/* Without GPU- a UUID is read as an index, as any entry is: its
	 * leading digits, if any, are the index (the real driver's GPU,
	 * 056039a2-..., read as 56039: out of range). */
	snprintf(s, sizeof s, "d%.7s%s", uuid[1] + 5, uuid[1] + 12);
	expect(s, CUDA_ERROR_NO_DEVICE, 0, NULL,
	       "a UUID without GPU- that starts with a letter");
	snprintf(s, sizeof s, "3%s", uuid[1] + 12);
	both[0] = 3;
	expect(s, CUDA_SUCCESS, 1, both,
	       "what starts with 3 and no further digit: index 3");
	snprintf(s, sizeof s, "gpu-%s", uuid[1] + 4);
	expect(s, CUDA_ERROR_NO_DEVICE, 0, NULL, "gpu- in small letters");
	expect("GPU-", CUDA_ERROR_NO_DEVICE, 0, NULL, "an empty UUID");
	expect("GPU-zzzz", CUDA_ERROR_NO_DEVICE, 0, NULL, "no such UUID");
	snprintf(s, sizeof s, "%s,1", uuid[1]);
	expect(s, CUDA_SUCCESS, 1, one, "the same GPU by index: left out");
	both[0] = 3;
	both[1] = 1;
	snprintf(s, sizeof s, "3,%s", uuid[1]);
	expect(s, CUDA_SUCCESS, 2, both, "an index, then a UUID");
}

/* Two GPUs whose UUIDs share a prefix: only a prefix naming one of them
 * names a GPU. */
static void ambiguous(void)
{
	FILE *f = fopen(file("amb.json"), "w");

	fprintf(f, "{\"devices\":[{\"uuid\":\"GPU-aaaa1111-0000-4000-8000-"
		"000000000001\"},{\"uuid\":\"GPU-aaaa2222-0000-4000-8000-"
		"000000000002\"}]}\n");
	fclose(f);
	{
		char m[160];
		char e1[200], e2[300], e3[200];
		char *env[] = { e1, e2, e3, NULL };

		snprintf(m, sizeof m, "%s-amb", machine);
		snprintf(e1, sizeof e1, "CUEMU_MACHINE=%s", m);
		snprintf(e2, sizeof e2, "CUEMU_TOPOLOGY=%s", file("amb.json"));
		snprintf(e3, sizeof e3, "CUDA_VISIBLE_DEVICES=GPU-aaaa");
		is_int(run_self("show", env, file("amb1.out"), NULL, 30), 0,
		       "two UUIDs GPU-aaaa1111-... and GPU-aaaa2222-...");
		is_int(child_value(file("amb1.out"), "init", -1),
		       CUDA_ERROR_NO_DEVICE,
		       "... GPU-aaaa names two: it ends the list, no device");
		snprintf(e3, sizeof e3, "CUDA_VISIBLE_DEVICES=GPU-aaaa2,GPU-aaaa");
		is_int(run_self("show", env, file("amb2.out"), NULL, 30), 0,
		       "GPU-aaaa2,GPU-aaaa");
		is_int(child_value(file("amb2.out"), "count", -1), 1,
		       "... one device, the list ended at the ambiguous one");
		ok(!strcmp(child_text(file("amb2.out"), "uuid0"),
			   "GPU-aaaa2222-0000-4000-8000-000000000002"),
		   "... the one GPU-aaaa2 names, its UUID from the topology");
		setenv("CUEMU_MACHINE", machine, 1);
	}
}

/* Order: FASTEST_FIRST puts the faster GPU first, PCI_BUS_ID the lower
 * bus; another word is refused. */
static void order(void)
{
	FILE *f = fopen(file("order.json"), "w");
	char m[160];

	fprintf(f, "{\"devices\":["
		"{\"attributes\":{\"pci_bus_id\":5,\"multiprocessor_count\":100}},"
		"{\"attributes\":{\"pci_bus_id\":16}},"
		"{\"attributes\":{\"pci_bus_id\":32}}]}\n");
	fclose(f);
	snprintf(m, sizeof m, "%s-order", machine);
	setenv("CUEMU_MACHINE", m, 1);
	is_int(run_show("fast", NULL, NULL, file("order.json")), 0,
	       "a machine whose gpu0 is slower and first on the bus");
	ok(!strcmp(child_text(file("fast.out"), "pci0"), "0000:10:00.0") &&
	   !strcmp(child_text(file("fast.out"), "pci1"), "0000:20:00.0") &&
	   !strcmp(child_text(file("fast.out"), "pci2"), "0000:05:00.0"),
	   "FASTEST_FIRST (the default): the faster GPUs first, by bus");
	is_int(run_show("pci", NULL, "PCI_BUS_ID", file("order.json")), 0,
	       "CUDA_DEVICE_ORDER=PCI_BUS_ID");
	ok(!strcmp(child_text(file("pci.out"), "pci0"), "0000:05:00.0") &&
	   !strcmp(child_text(file("pci.out"), "pci1"), "0000:10:00.0"),
	   "... by PCI bus id");
	is_int(run_show("pci1", "0", "PCI_BUS_ID", file("order.json")), 0,
	       "CUDA_VISIBLE_DEVICES=0 with PCI_BUS_ID");
	ok(!strcmp(child_text(file("pci1.out"), "pci0"), "0000:05:00.0"),
	   "... an index counts in that order");
	is_int(run_show("ff", NULL, "FASTEST_FIRST", file("order.json")), 0,
	       "CUDA_DEVICE_ORDER=FASTEST_FIRST");
	ok(!strcmp(child_text(file("ff.out"), "pci0"), "0000:10:00.0"),
	   "... as unset");
	is_int(run_show("bogus", NULL, "BOGUS", file("order.json")), 0,
	       "CUDA_DEVICE_ORDER=BOGUS");
	is_int(child_value(file("bogus.out"), "init", -1),
	       CUDA_ERROR_INVALID_DEVICE, "... cuInit answers INVALID_DEVICE");
	is_int(run_show("lower", NULL, "pci_bus_id", file("order.json")), 0,
	       "CUDA_DEVICE_ORDER=pci_bus_id");
	is_int(child_value(file("lower.out"), "init", -1),
	       CUDA_ERROR_INVALID_DEVICE, "... small letters are refused too");
	setenv("CUEMU_MACHINE", machine, 1);
}

/* The same machine name gives the same UUIDs when made again; another
 * machine others. */
static void stable(void)
{
	char m[160], shm[200], first[48];

	snprintf(m, sizeof m, "%s-uuid", machine);
	snprintf(shm, sizeof shm, "/dev/shm/%s", m);
	setenv("CUEMU_MACHINE", m, 1);
	is_int(run_show("u1", NULL, NULL, NULL), 0, "a second machine");
	snprintf(first, sizeof first, "%s", child_text(file("u1.out"), "uuid0"));
	ok(strncmp(first, "GPU-", 4) == 0 && strcmp(first, uuid[0]),
	   "... its gpu0 has a UUID of its own (%s)", first);
	unlink(shm);
	is_int(run_show("u2", NULL, NULL, NULL), 0, "... made again");
	ok(!strcmp(child_text(file("u2.out"), "uuid0"), first),
	   "... the same UUID: stable for the machine");
	unlink(shm);
	setenv("CUEMU_MACHINE", machine, 1);
}

/* A process that sees only gpu2 charges gpu2 for its ordinal 0. */
static void charge(void)
{
	char *env[] = { "CUDA_VISIBLE_DEVICES=2", NULL };
	size_t fr0, fr2, tot, fr0b, fr2b, stacks;
	CUcontext c0, c2;
	pid_t pid;
	int i;

	if (cuDevicePrimaryCtxRetain(&c0, 0) || cuDevicePrimaryCtxRetain(&c2, 2))
		BAIL_OUT("no contexts");
	cuCtxSetCurrent(c0);
	cuMemGetInfo(&fr0, &tot);
	cuCtxSetCurrent(c2);
	cuMemGetInfo(&fr2, &tot);
	stacks = context_stacks();      /* the holder's context holds them too */
	pid = spawn_self("hold", env, file("hold.out"), NULL);
	for (i = 0; i < 500 && child_value(file("hold.out"), "ready", 0) != 1;
	     i++)
		usleep(10000);
	ok(i < 500, "CUDA_VISIBLE_DEVICES=2: a process holds 64 MiB on its "
	   "device 0");
	cuMemGetInfo(&fr2b, &tot);
	cuCtxSetCurrent(c0);
	cuMemGetInfo(&fr0b, &tot);
	is_int(fr2 - fr2b, 64 * MIB + stacks, "... the machine's gpu2 has 64 MiB "
	       "and the holder's context's stacks less");
	is_int(fr0 - fr0b, 0, "... its gpu0 is untouched");
	is_int(wait_bounded(pid, 30), 0, "... it ends");
	cuCtxSetCurrent(NULL);
	cuDevicePrimaryCtxRelease(0);
	cuDevicePrimaryCtxRelease(2);
}

static void launch_blocking(void)
{
	char *on[] = { "CUDA_LAUNCH_BLOCKING=1", NULL };
	char *zero[] = { "CUDA_LAUNCH_BLOCKING=0", NULL };
	char *off[] = { "CUDA_LAUNCH_BLOCKING", NULL };

	is_int(run_self("blocking", off, file("b0.out"), NULL, 30), 0,
	       "without CUDA_LAUNCH_BLOCKING: work behind a busy stream");
	is_int(child_value(file("b0.out"), "memset", -1), CUDA_ERROR_NOT_READY,
	       "... a memset returns before it is done");
	is_int(child_value(file("b0.out"), "kernel", -1), CUDA_ERROR_NOT_READY,
	       "... so does an emulated kernel");
	is_int(run_self("blocking", on, file("b1.out"), NULL, 30), 0,
	       "CUDA_LAUNCH_BLOCKING=1");
	is_int(child_value(file("b1.out"), "memset", -1), CUDA_SUCCESS,
	       "... a memset (a kernel) returns once done");
	is_int(child_value(file("b1.out"), "kernel", -1), CUDA_SUCCESS,
	       "... so does an emulated kernel");
	is_int(child_value(file("b1.out"), "copy", -1), CUDA_ERROR_NOT_READY,
	       "... a copy stays asynchronous, as the driver's");
	is_int(run_self("blocking", zero, file("bz.out"), NULL, 30), 0,
	       "CUDA_LAUNCH_BLOCKING=0");
	is_int(child_value(file("bz.out"), "memset", -1), CUDA_ERROR_NOT_READY,
	       "... as unset");
}

int main(int argc, char **argv)
{
	const char *role = child_role(argc, argv);
	CUuuid u;

	if (role && !strcmp(role, "show"))
		return show();
	if (role && !strcmp(role, "hold"))
		return hold();
	if (role && !strcmp(role, "blocking"))
		return blocking();
	snprintf(dir, sizeof dir, "%s/cuemu-vis-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		BAIL_OUT("no temporary directory");
	snprintf(machine, sizeof machine, "%s", getenv("CUEMU_MACHINE"));
	unsetenv("CUDA_VISIBLE_DEVICES");
	unsetenv("CUDA_DEVICE_ORDER");
	unsetenv("CUEMU_TOPOLOGY");
	if (cuInit(0))
		BAIL_OUT("cuInit");
	for (int i = 0; i < 4; i++) {
		if (cuDeviceGetUuid(&u, i))
			BAIL_OUT("uuid");
		uuid_text(&u, uuid[i]);
	}
	indices();
	uuids();
	ambiguous();
	order();
	stable();
	charge();
	launch_blocking();
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			ok(0, "the temporary directory is removed");
	}
	return done_testing();
}
