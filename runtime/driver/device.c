/*
 * device.c - the driver API's initialization, version and device
 * management entries: cuInit, cuDriverGetVersion, cuDeviceGet, Count, Name,
 * Uuid, Attribute, TotalMem, CanAccessPeer, GetP2PAttribute and the PCI
 * bus id in both directions (GetPCIBusId, GetByPCIBusId). The devices
 * themselves are the machine's (model/machine.c).
 *
 * No state of its own; no locks beyond what the model takes.
 */
#include "model/context.h"
#include "model/ipc.h"
#include "model/uvm.h"
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- init */

/* The driver's first initialization takes the caller a fixed time and
 * a time for each device it sees (uvm.init_ns, init_device_ns); later
 * calls find it done. */
CUresult cuInit(unsigned int Flags)
{
	const struct cuemu_uvm *u;
	bool first;
	CUresult r;

	if (Flags != 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "cuInit flags must be 0, not %u", Flags);
	if ((r = cuemu_model_init(&first)) != CUDA_SUCCESS || !first)
		return r;
	u = cuemu_uvm();
	cuemu_host_advance(u->init_ns +
			   u->init_device_ns * (uint64_t)cuemu_device_count());
	return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *driverVersion)
{
	if (!driverVersion)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL version");
	*driverVersion = 13000;
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- devices */

/* Initialized, and dev names a device of the machine. */
CUresult cuemu_check_dev(CUdevice dev)
{
	CUresult r = cuemu_check_init();

	if (r != CUDA_SUCCESS)
		return r;
	if (dev < 0 || dev >= cuemu_device_count())
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "device %d does not exist (%d devices)", dev,
				  cuemu_device_count());
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r;

	if (!device)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL device");
	if ((r = cuemu_check_dev(ordinal)) != CUDA_SUCCESS)
		return r;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count)
{
	CUresult r;

	if (!count)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL count");
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	*count = cuemu_device_count();
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r;

	if (!name)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL name");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	/* The driver truncates to len - 1 bytes and answers success for a
	 * negative len, writing nothing. */
	if (len > 0)
		snprintf(name, (size_t)len, "%s", cuemu_device(dev)->name);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	CUresult r;

	if (!uuid)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL uuid");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	memcpy(uuid->bytes, cuemu_device(dev)->uuid, sizeof uuid->bytes);
	return CUDA_SUCCESS;
}

/* The pre-11.4 name; real libcuda still exports it. */
#undef cuDeviceGetUuid
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	CUresult r;
	int v;

	if (!pi)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	if ((int)attrib < 0 || (size_t)attrib >= sizeof cuemu_device(dev)->attrs /
					  sizeof(int))
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is not a device attribute",
				  (int)attrib);
	v = cuemu_device(dev)->attrs[attrib];
	/* A dma-buf is made where the machine can (model/ipc.c). */
	if (attrib == CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED && v > 0 &&
	    !cuemu_dmabuf_available())
		v = 0;
	if (v == CUEMU_ATTR_UNKNOWN)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "attribute %d is not a device attribute",
				  (int)attrib);
	*pi = v;
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	CUresult r;

	if (!bytes)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL bytes");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	*bytes = cuemu_device(dev)->total;
	return CUDA_SUCCESS;
}

/* The 32-bit-era name; real libcuda still exports it. */
#undef cuDeviceTotalMem
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev);
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
	size_t b;
	CUresult r = cuDeviceTotalMem_v2(&b, dev);

	if (r == CUDA_SUCCESS)
		*bytes = b > 0xffffffffu ? 0xffffffffu : (unsigned int)b;
	return r;
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
			       CUdevice peerDev)
{
	CUresult r;

	if (!canAccessPeer)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL result");
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS ||
	    (r = cuemu_check_dev(peerDev)) != CUDA_SUCCESS)
		return r;
	*canAccessPeer = cuemu_peer_link(dev, peerDev);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib,
				 CUdevice srcDevice, CUdevice dstDevice)
{
	CUresult r;
	bool p2p;

	if (!value)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL value");
	if ((r = cuemu_check_dev(srcDevice)) != CUDA_SUCCESS ||
	    (r = cuemu_check_dev(dstDevice)) != CUDA_SUCCESS)
		return r;
	if (srcDevice == dstDevice)
		return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
				  "P2P attribute of device %d with itself",
				  srcDevice);
	p2p = cuemu_peer_link(srcDevice, dstDevice);
	switch (attrib) {
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
		*value = 0;
		break;
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
		*value = p2p;
		break;
	case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
		/* NVLink peers have every atomic, or none without a link. */
		*value = 0;
		break;
	default:
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "unknown P2P attribute %d", (int)attrib);
	}
	return CUDA_SUCCESS;
}

/* ---------------------------------------------------------------- PCI */

CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
	CUresult r;

	if (!pciBusId || len <= 0)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  pciBusId ? "length %d" : "NULL bus id", len);
	if ((r = cuemu_check_dev(dev)) != CUDA_SUCCESS)
		return r;
	/* What does not fit in len is cut, NUL-terminated, as the driver
	 * does. */
	cuemu_pci_str(cuemu_device(dev), pciBusId, (size_t)len);
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
	CUresult r;
	int d;

	if (!dev || !pciBusId)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE, "NULL %s",
				  dev ? "bus id" : "device");
	if ((r = cuemu_check_init()) != CUDA_SUCCESS)
		return r;
	if ((d = cuemu_device_by_bus_id(pciBusId)) == -2)
		return cuemu_fail(CUDA_ERROR_INVALID_VALUE,
				  "'%.32s' is not a PCI bus id", pciBusId);
	if (d >= 0) {
		*dev = d;
		return CUDA_SUCCESS;
	}
	return cuemu_fail(CUDA_ERROR_INVALID_DEVICE,
			  "no device at PCI %.32s", pciBusId);
}
