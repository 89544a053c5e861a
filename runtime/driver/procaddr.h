/*
 * procaddr.h - the table of entry points cuGetProcAddress answers from:
 * one record per export of libcuemu, made from the one list
 * (procaddr_list.h) by procaddr_table.c. Deliberately free of cuda.h:
 * cuda.h renames entry points with macros (cuMemAlloc is cuMemAlloc_v2),
 * and the table must name every export as itself.
 *
 * Locking: the table is constant; nothing to lock.
 */
#ifndef CUEMU_DRIVER_PROCADDR_H
#define CUEMU_DRIVER_PROCADDR_H

#include <stddef.h>

struct cuemu_export {
	const char *name;     /* the base name a caller asks for */
	int version;          /* the CUDA version the export appeared in */
	int per_thread;       /* the _ptsz/_ptds form of the name */
	void (*fn)(void);     /* the export; callers cast it to its PFN_ */
};

extern const struct cuemu_export cuemu_exports[];
extern const size_t cuemu_nexports;

#endif
