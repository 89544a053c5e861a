/*
 * gmem.c - a graph's memory: the allocations of graphs' allocation nodes,
 * each made with its node and kept while a graph or an executable graph
 * holds the node (a count of holders), so that every launch finds it at
 * the address the node answered; and each device's bytes of them with
 * their high marks, its graph memory. On the device an allocation node's
 * memory is the graph's from the node's run to a free node's (or the
 * program's cudaFree of it); here it is there from the node's making,
 * the nodes run as nothing, and the program's free of a graph's
 * allocation outside a graph is taken and does nothing (memory.c,
 * pool.c). A leaf of the driver layer.
 *
 * State: the live graph allocations, by address, for the frees that name
 * them, and each device's bytes of them and their high marks; under
 * gmem_lock (a leaf). Global because a free names an address alone,
 * whatever graph made it.
 */
#include "driver/graph.h"
#include "model/memory.h"

#include <pthread.h>
#include <stdlib.h>

struct gmem {
	CUdeviceptr p;
	size_t size;
	int dev;
	unsigned refs;          /* gmem_lock */
	struct gmem *next;
};

static pthread_mutex_t gmem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gmem *gmems;
static uint64_t dev_bytes[CUEMU_MAX_DEVICES], dev_high[CUEMU_MAX_DEVICES],
		dev_reserved_high[CUEMU_MAX_DEVICES];

CUresult cuemu_gmem_new(CUcontext ctx, int dev, size_t size,
			struct gmem **out)
{
	struct gmem *m = calloc(1, sizeof *m);
	CUresult r;

	if (!m)
		return cuemu_fail(CUDA_ERROR_OUT_OF_MEMORY, "graph allocation");
	if ((r = cuemu_device_alloc(ctx, dev, size, &m->p)) != CUDA_SUCCESS) {
		free(m);
		return r;
	}
	m->size = size;
	m->dev = dev;
	m->refs = 1;
	pthread_mutex_lock(&gmem_lock);
	m->next = gmems;
	gmems = m;
	dev_bytes[dev] += size;
	dev_high[dev] = cuemu_max_u(dev_high[dev], dev_bytes[dev]);
	dev_reserved_high[dev] = cuemu_max_u(dev_reserved_high[dev],
					     dev_bytes[dev]);
	pthread_mutex_unlock(&gmem_lock);
	*out = m;
	return CUDA_SUCCESS;
}

void cuemu_gmem_ref(struct gmem *m)
{
	pthread_mutex_lock(&gmem_lock);
	m->refs++;
	pthread_mutex_unlock(&gmem_lock);
}

void cuemu_gmem_unref(struct gmem *m)
{
	bool last;

	pthread_mutex_lock(&gmem_lock);
	last = !--m->refs;
	if (last) {
		dev_bytes[m->dev] -= m->size;
		for (struct gmem **p = &gmems; *p; p = &(*p)->next)
			if (*p == m) {
				*p = m->next;
				break;
			}
	}
	pthread_mutex_unlock(&gmem_lock);
	if (last) {
		cuemu_device_free(m->p);
		free(m);
	}
}

bool cuemu_gmem_owns(CUdeviceptr p)
{
	bool found = false;

	if (!p)
		return false;
	pthread_mutex_lock(&gmem_lock);
	for (struct gmem *m = gmems; m && !found; m = m->next)
		found = m->p == p;
	pthread_mutex_unlock(&gmem_lock);
	return found;
}

CUdeviceptr cuemu_gmem_ptr(const struct gmem *m)
{
	return m->p;
}

void cuemu_gmem_usage(int dev, uint64_t *used, uint64_t *high,
		      uint64_t *reserved_high)
{
	pthread_mutex_lock(&gmem_lock);
	*used = dev_bytes[dev];
	*high = dev_high[dev];
	*reserved_high = dev_reserved_high[dev];
	pthread_mutex_unlock(&gmem_lock);
}

void cuemu_gmem_reset_high(int dev, bool reserved)
{
	pthread_mutex_lock(&gmem_lock);
	if (reserved)
		dev_reserved_high[dev] = dev_bytes[dev];
	else
		dev_high[dev] = dev_bytes[dev];
	pthread_mutex_unlock(&gmem_lock);
}
