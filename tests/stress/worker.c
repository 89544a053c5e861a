/*
 * worker.c - one process of the soak test (tests/stress/stress.sh): four
 * threads that each make device, managed, pool and VMM allocations, free
 * them, advise and prefetch managed ones, in random order, through the
 * public driver API, until SECONDS have passed or SIGTERM comes. Then it
 * frees what it holds and exits 0.
 *
 *     stress-worker SECONDS OPSFILE
 *
 * SIGUSR1 parks it: each thread finishes the call it is in and waits, and
 * once all four wait the report says "parked=1", so that the driver can
 * compare what the machine counts with what the process shows while
 * nothing moves. SIGUSR2 lets them go on.
 *
 * Every 200 ms it writes "ops=N errors=E" to OPSFILE
 * (through a rename, so a reader never sees half of it), so that a worker
 * killed with SIGKILL has still said what it did. An error is a call that
 * failed with anything but CUDA_ERROR_OUT_OF_MEMORY; each is printed to
 * stderr with the call's name, and the driver counts them as violations.
 *
 * Locking: each thread owns its lists; the counters are atomic.
 */
#include <cuda.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define THREADS 4
#define KEEP 16 /* live objects of each kind a thread keeps at most */

static volatile sig_atomic_t stop, park;
static int parked; /* threads waiting while park is set */
static unsigned long ops, errors;
static int ndev;
static CUcontext ctx[64];
static double deadline;

struct vmm {
	CUdeviceptr va;
	size_t size;
	CUmemGenericAllocationHandle h;
};

struct thread {
	unsigned seed;
	CUstream stream;
	CUdeviceptr dev[KEEP], man[KEEP];
	size_t man_size[KEEP];
	struct vmm vmm[KEEP];
	int ndevs, nman, nvmm;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Counts the call; one that failed with anything but running out of
 * memory is an error, said with its name. Answers whether it succeeded. */
static int ok(CUresult r, const char *what)
{
	const char *name = NULL;

	__atomic_add_fetch(&ops, 1, __ATOMIC_RELAXED);
	if (r == CUDA_SUCCESS)
		return 1;
	if (r != CUDA_ERROR_OUT_OF_MEMORY) {
		__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
		cuGetErrorName(r, &name);
		fprintf(stderr, "stress-worker %d: %s: %s\n", (int)getpid(),
			what, name ? name : "?");
	}
	return 0;
}

static CUmemLocation location(struct thread *t)
{
	int d = rand_r(&t->seed) % (ndev + 1);
	CUmemLocation l = { CU_MEM_LOCATION_TYPE_DEVICE, d };

	if (d == ndev)
		l.type = CU_MEM_LOCATION_TYPE_HOST, l.id = 0;
	return l;
}

static void dev_alloc(struct thread *t)
{
	CUdeviceptr p;
	int d = rand_r(&t->seed) % ndev;

	if (t->ndevs == KEEP)
		return;
	ok(cuCtxSetCurrent(ctx[d]), "cuCtxSetCurrent");
	if (ok(cuMemAlloc(&p, (size_t)(rand_r(&t->seed) % 64 + 1) << 12),
	       "cuMemAlloc"))
		t->dev[t->ndevs++] = p;
}

static void dev_free(struct thread *t)
{
	int i;

	if (!t->ndevs)
		return;
	i = rand_r(&t->seed) % t->ndevs;
	ok(cuMemFree(t->dev[i]), "cuMemFree");
	t->dev[i] = t->dev[--t->ndevs];
}

static void man_alloc(struct thread *t)
{
	CUdeviceptr p;
	size_t size = (size_t)(rand_r(&t->seed) % 4 + 1) << 21;

	if (t->nman == KEEP)
		return;
	if (ok(cuMemAllocManaged(&p, size, CU_MEM_ATTACH_GLOBAL),
	       "cuMemAllocManaged")) {
		t->man[t->nman] = p;
		t->man_size[t->nman++] = size;
	}
}

static void man_free(struct thread *t)
{
	int i;

	if (!t->nman)
		return;
	i = rand_r(&t->seed) % t->nman;
	ok(cuMemFree(t->man[i]), "cuMemFree managed");
	t->nman--;
	t->man[i] = t->man[t->nman];
	t->man_size[i] = t->man_size[t->nman];
}

/* A random part of a random managed allocation, page aligned. */
static int man_part(struct thread *t, CUdeviceptr *p, size_t *n)
{
	int i;
	size_t pages, first;

	if (!t->nman)
		return 0;
	i = rand_r(&t->seed) % t->nman;
	pages = t->man_size[i] >> 12;
	first = rand_r(&t->seed) % pages;
	*p = t->man[i] + (first << 12);
	*n = (rand_r(&t->seed) % (pages - first) + 1) << 12;
	return 1;
}

static void advise(struct thread *t)
{
	static const CUmem_advise advice[] = {
		CU_MEM_ADVISE_SET_READ_MOSTLY, CU_MEM_ADVISE_UNSET_READ_MOSTLY,
		CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
		CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION,
		CU_MEM_ADVISE_SET_ACCESSED_BY, CU_MEM_ADVISE_UNSET_ACCESSED_BY,
	};
	CUdeviceptr p;
	size_t n;

	if (man_part(t, &p, &n))
		ok(cuMemAdvise(p, n, advice[rand_r(&t->seed) % 6], location(t)),
		   "cuMemAdvise");
}

static void prefetch(struct thread *t)
{
	CUdeviceptr p;
	size_t n;

	if (man_part(t, &p, &n) &&
	    ok(cuMemPrefetchAsync(p, n, location(t), 0, t->stream),
	       "cuMemPrefetchAsync"))
		ok(cuStreamSynchronize(t->stream), "cuStreamSynchronize");
}

static void pool_block(struct thread *t)
{
	CUmemoryPool pool;
	CUdeviceptr p;
	int d = rand_r(&t->seed) % ndev;

	if (!ok(cuDeviceGetDefaultMemPool(&pool, d), "cuDeviceGetDefaultMemPool") ||
	    !ok(cuMemAllocFromPoolAsync(&p, (size_t)(rand_r(&t->seed) % 256 + 1)
					<< 12, pool, t->stream),
		"cuMemAllocFromPoolAsync"))
		return;
	ok(cuMemFreeAsync(p, t->stream), "cuMemFreeAsync");
	ok(cuStreamSynchronize(t->stream), "cuStreamSynchronize");
}

static void vmm_make(struct thread *t)
{
	int d = rand_r(&t->seed) % ndev;
	CUmemAllocationProp prop = {
		.type = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, d },
	};
	CUmemAccessDesc acc = {
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, d },
		.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	};
	struct vmm v;
	size_t gran;

	if (t->nvmm == KEEP ||
	    !ok(cuMemGetAllocationGranularity(&gran, &prop,
					      CU_MEM_ALLOC_GRANULARITY_MINIMUM),
		"cuMemGetAllocationGranularity"))
		return;
	v.size = gran * (rand_r(&t->seed) % 2 + 1);
	if (!ok(cuMemAddressReserve(&v.va, v.size, 0, 0, 0), "cuMemAddressReserve"))
		return;
	if (!ok(cuMemCreate(&v.h, v.size, &prop, 0), "cuMemCreate")) {
		ok(cuMemAddressFree(v.va, v.size), "cuMemAddressFree");
		return;
	}
	if (!ok(cuMemMap(v.va, v.size, 0, v.h, 0), "cuMemMap")) {
		ok(cuMemRelease(v.h), "cuMemRelease");
		ok(cuMemAddressFree(v.va, v.size), "cuMemAddressFree");
		return;
	}
	ok(cuMemSetAccess(v.va, v.size, &acc, 1), "cuMemSetAccess");
	t->vmm[t->nvmm++] = v;
}

static void vmm_drop(struct thread *t, int i)
{
	struct vmm v = t->vmm[i];

	ok(cuMemUnmap(v.va, v.size), "cuMemUnmap");
	ok(cuMemRelease(v.h), "cuMemRelease");
	ok(cuMemAddressFree(v.va, v.size), "cuMemAddressFree");
	t->vmm[i] = t->vmm[--t->nvmm];
}

static void vmm_free(struct thread *t)
{
	if (t->nvmm)
		vmm_drop(t, rand_r(&t->seed) % t->nvmm);
}

static void (*const op[])(struct thread *) = {
	dev_alloc, dev_free, man_alloc, man_free, advise, prefetch, prefetch,
	advise, pool_block, vmm_make, vmm_free,
};

static void *run(void *arg)
{
	struct thread *t = arg;

	ok(cuCtxSetCurrent(ctx[0]), "cuCtxSetCurrent");
	if (!ok(cuStreamCreate(&t->stream, CU_STREAM_NON_BLOCKING),
		"cuStreamCreate"))
		return NULL;
	while (!stop && now_s() < deadline) {
		if (park) {
			__atomic_add_fetch(&parked, 1, __ATOMIC_RELAXED);
			while (park && !stop)
				usleep(5000);
			__atomic_sub_fetch(&parked, 1, __ATOMIC_RELAXED);
			continue;
		}
		op[rand_r(&t->seed) % (sizeof op / sizeof op[0])](t);
	}
	while (t->ndevs)
		dev_free(t);
	while (t->nman)
		man_free(t);
	while (t->nvmm)
		vmm_drop(t, 0);
	ok(cuStreamDestroy(t->stream), "cuStreamDestroy");
	return NULL;
}

static void report(const char *path)
{
	char tmp[4200];
	FILE *f;

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (!(f = fopen(tmp, "w")))
		return;
	fprintf(f, "ops=%lu errors=%lu parked=%d\n",
		__atomic_load_n(&ops, __ATOMIC_RELAXED),
		__atomic_load_n(&errors, __ATOMIC_RELAXED),
		park && __atomic_load_n(&parked, __ATOMIC_RELAXED) == THREADS);
	if (fclose(f) == 0)
		rename(tmp, path);
}

static void on_signal(int sig)
{
	if (sig == SIGTERM)
		stop = 1;
	else
		park = sig == SIGUSR1;
}

int main(int argc, char **argv)
{
	static struct thread th[THREADS];
	pthread_t tid[THREADS];
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	CUdevice dev;

	if (argc != 3 || atoi(argv[1]) <= 0) {
		fprintf(stderr, "usage: stress-worker SECONDS OPSFILE\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	deadline = now_s() + atoi(argv[1]);
	if (!ok(cuInit(0), "cuInit") || !ok(cuDeviceGetCount(&ndev), "count"))
		return 1;
	if (ndev > 64)
		ndev = 64;
	/* Its contexts' stacks hold no memory (a stack size of 0): the
	 * soak's invariant sums the objects /cu shows, which they are not. */
	for (int d = 0; d < ndev; d++)
		if (!ok(cuDeviceGet(&dev, d), "cuDeviceGet") ||
		    !ok(cuDevicePrimaryCtxRetain(&ctx[d], dev), "retain") ||
		    !ok(cuCtxSetCurrent(ctx[d]), "cuCtxSetCurrent") ||
		    !ok(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0), "stack 0"))
			return 1;
	for (int i = 0; i < THREADS; i++) {
		th[i].seed = (unsigned)getpid() * 131 + i;
		if (pthread_create(&tid[i], NULL, run, &th[i])) {
			perror("stress-worker: pthread_create");
			return 1;
		}
	}
	while (!stop && now_s() < deadline) {
		report(argv[2]);
		usleep(park ? 20000 : 200000);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(tid[i], NULL);
	report(argv[2]);
	return errors ? 1 : 0;
}
