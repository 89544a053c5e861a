/*
 * graphmem.c - a graph's memory: cuGraphAddMemAllocNode, MemAllocNodeGetParams,
 * cuGraphAddMemFreeNode, MemFreeNodeGetParams, cudaMallocAsync and
 * cudaFreeAsync captured into a graph's allocation and free nodes, and a
 * device's graph memory (cuDeviceGetGraphMemAttribute, Set, Trim).
 *
 * On the device an allocation node's address is fixed when the node is
 * made and its memory is the graph's from the node's run to a free node's
 * (or the program's cudaFree / cudaFreeAsync of it). Here the memory is
 * made with the node and stays for as long as a graph or an executable
 * graph holds the node (a count of holders), so that every run of the
 * graph finds it at its address: the nodes run as nothing, and the
 * program's free of a graph's allocation outside a graph is taken and
 * does nothing. What differs: cuMemGetInfo counts the memory from the
 * node's making, where the device counts it while the graph holds it.
 *
 * A device's graph memory, used and reserved, is the bytes of its live
 * graph allocations (the two are one here: nothing is reserved beyond
 * what the nodes hold, so a trim has nothing to give back), with the
 * highest each reached since the program reset it.
 *
 * State: the live graph allocations, by address, for the frees that name
 * them, and each device's bytes of them and their high mark; under
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

static CUresult gmem_new(CUcontext ctx, int dev, size_t size,
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

/* An allocation node's pool: pinned memory of a device of the machine,
 * no handle to share it by (probes/results/graph.txt's captures make
 * such nodes; the device's graph pool has these properties). */
static CUresult props_check(const CUDA_MEM_ALLOC_NODE_PARAMS *p, int *dev)
{
	int n = 0;
	CUresult r;

	if (p->poolProps.allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    p->poolProps.location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "an allocation "
				  "node's pool is pinned memory of a device");
	if ((r = cuDeviceGetCount(&n)) != CUDA_SUCCESS)
		return r;
	if (p->poolProps.location.id < 0 || p->poolProps.location.id >= n)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "device %d is none",
				  p->poolProps.location.id);
	if (p->poolProps.handleTypes)
		return cuemu_fail(CUDA_ERROR_NOT_SUPPORTED, "a graph's memory "
				  "is not shared through handles");
	if (!p->bytesize)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "an allocation node of 0 bytes");
	*dev = p->poolProps.location.id;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemAllocNode(CUgraphNode *phGraphNode, CUgraph hGraph,
				const CUgraphNode *dependencies,
				size_t numDependencies,
				CUDA_MEM_ALLOC_NODE_PARAMS *nodeParams)
{
	struct gmem *m;
	CUgraphNode n;
	CUcontext ctx;
	int dev = 0;
	CUresult r;

	if ((r = cuemu_current(&ctx, NULL)) != CUDA_SUCCESS)
		return r;
	if (!phGraphNode || !nodeParams)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s is NULL",
				  !phGraphNode ? "phGraphNode" : "nodeParams");
	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS ||
	    (r = props_check(nodeParams, &dev)) != CUDA_SUCCESS)
		return r;
	if ((r = gmem_new(ctx, dev, nodeParams->bytesize, &m)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_graph_node_new(hGraph, dependencies, numDependencies,
				      CU_GRAPH_NODE_TYPE_MEM_ALLOC, &n))) {
		cuemu_gmem_unref(m);
		return r;
	}
	nodeParams->dptr = m->p;
	n->p.alloc.a = *nodeParams;
	n->p.alloc.a.accessDescs = NULL;
	n->p.alloc.a.accessDescCount = 0;
	n->p.alloc.m = m;
	*phGraphNode = n;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
				      CUDA_MEM_ALLOC_NODE_PARAMS *params_out)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!params_out || hNode->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !params_out ? "params_out is NULL" :
				  "not an allocation node");
	*params_out = hNode->p.alloc.a;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddMemFreeNode(CUgraphNode *phGraphNode, CUgraph hGraph,
			       const CUgraphNode *dependencies,
			       size_t numDependencies, CUdeviceptr dptr)
{
	CUgraphNode n;
	CUresult r;

	if ((r = cuemu_current(NULL, NULL)) != CUDA_SUCCESS)
		return r;
	if (!phGraphNode)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "phGraphNode is NULL");
	if ((r = cuemu_graph_check(hGraph)) != CUDA_SUCCESS)
		return r;
	if (!cuemu_gmem_owns(dptr))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%#llx is no "
				  "graph's allocation",
				  (unsigned long long)dptr);
	if ((r = cuemu_graph_node_new(hGraph, dependencies, numDependencies,
				      CU_GRAPH_NODE_TYPE_MEM_FREE, &n)))
		return r;
	n->p.free_ptr = dptr;
	*phGraphNode = n;
	return CUDA_SUCCESS;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr *dptr_out)
{
	CUresult r;

	if ((r = cuemu_graph_node_check(hNode)) != CUDA_SUCCESS)
		return r;
	if (!dptr_out || hNode->type != CU_GRAPH_NODE_TYPE_MEM_FREE)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !dptr_out ? "dptr_out is NULL" :
				  "not a free node");
	*dptr_out = hNode->p.free_ptr;
	return CUDA_SUCCESS;
}

CUresult cuemu_capture_alloc(CUstream h, size_t size, CUcontext ctx, int dev,
			     CUdeviceptr *out)
{
	struct gmem *m;
	CUgraphNode n;
	CUresult r;

	if ((r = gmem_new(ctx, dev, size, &m)) != CUDA_SUCCESS)
		return r;
	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_MEM_ALLOC, &n))) {
		cuemu_gmem_unref(m);
		return r;
	}
	n->p.alloc.a = (CUDA_MEM_ALLOC_NODE_PARAMS){
		.poolProps = { .allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
			       .location = { CU_MEM_LOCATION_TYPE_DEVICE, dev } },
		.bytesize = size, .dptr = m->p,
	};
	n->p.alloc.m = m;
	*out = m->p;
	return CUDA_SUCCESS;
}

CUresult cuemu_capture_free(CUstream h, CUdeviceptr p)
{
	CUgraphNode n;
	CUresult r;

	if (!cuemu_gmem_owns(p))
		return cuemu_capture_sync(h, "a free of memory no graph "
					  "allocated");
	if ((r = cuemu_capture_node(h, CU_GRAPH_NODE_TYPE_MEM_FREE, &n)) ==
	    CUDA_SUCCESS)
		n->p.free_ptr = p;
	return r;
}

/* ---------------------------------------------- a device's graph memory */

static CUresult attr_check(CUdevice dev, CUgraphMem_attribute attr,
			   const void *value)
{
	CUresult r;

	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	if (!value || (unsigned)attr > CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "%s",
				  !value ? "value is NULL" :
				  "no such graph memory attribute");
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device,
				      CUgraphMem_attribute attr, void *value)
{
	CUresult r = attr_check(device, attr, value);
	uint64_t v;

	if (r != CUDA_SUCCESS)
		return r;
	pthread_mutex_lock(&gmem_lock);
	v = attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH ? dev_high[device] :
	    attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH ?
		    dev_reserved_high[device] : dev_bytes[device];
	pthread_mutex_unlock(&gmem_lock);
	*(cuuint64_t *)value = v;
	return CUDA_SUCCESS;
}

/* Only the high marks are set, and only to 0 (reset to what is in use). */
CUresult cuDeviceSetGraphMemAttribute(CUdevice device,
				      CUgraphMem_attribute attr, void *value)
{
	CUresult r = attr_check(device, attr, value);

	if (r != CUDA_SUCCESS)
		return r;
	if ((attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
	     attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) ||
	    *(const cuuint64_t *)value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "only a high mark "
				  "is set, and only to 0");
	pthread_mutex_lock(&gmem_lock);
	if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
		dev_high[device] = dev_bytes[device];
	else
		dev_reserved_high[device] = dev_bytes[device];
	pthread_mutex_unlock(&gmem_lock);
	return CUDA_SUCCESS;
}

/* Every byte reserved is held by a node: nothing to give back. */
CUresult cuDeviceGraphMemTrim(CUdevice device)
{
	return cuemu_check_dev(device);
}
