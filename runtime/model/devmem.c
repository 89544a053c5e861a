/*
 * devmem.c - the process's device memory files: one sparse memfd per
 * device, sealed against shrinking, in which cuMemAlloc memory lies
 * (devheap.c places it, ipc.c hands its descriptor out in legacy IPC
 * handles, a dma-buf is made over it). Ranges of a file are handed out
 * upwards and never reused; a free punches the pages out. A forked child
 * gets files of its own (a new epoch): it must not allocate at its
 * parent's offsets, and what it inherited stays mapped.
 *
 * Locking: files[] has a leaf lock of its own (file_lock), taken inside
 * the process lock or without it; the epoch is an atomic, and so is each
 * device's published descriptor (made_fd), read without the lock.
 */
#include "model/ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define FILE_SIZE (1ULL << 46)  /* offsets of one process's device memory */

/* The device memory files. Global because they are the process's: every
 * context of a device allocates from the one file, and the descriptor
 * numbers go out in handles. */
static pthread_mutex_t file_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	int fd;
	uint64_t next;          /* the next fresh offset */
} files[CUEMU_MAX_DEVICES];
/* A made file's descriptor plus one (0: none yet), stored once the file
 * is whole: cuemu_devmem_fd (cuIpcGetMemHandle, a dma-buf) reads it
 * without file_lock. Beside files[] because a zeroed static must mean
 * "not made" before init_once has run. */
static int made_fd[CUEMU_MAX_DEVICES];
static uint32_t epoch = 1;      /* a forked child's files are new */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void child_after_fork(void)
{
	pthread_mutex_init(&file_lock, NULL);
	for (int d = 0; d < CUEMU_MAX_DEVICES; d++) {
		if (files[d].fd >= 0)
			close(files[d].fd);
		files[d].fd = -1;
		files[d].next = 0;
		__atomic_store_n(&made_fd[d], 0, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&epoch, 1, __ATOMIC_RELAXED);
}

static void init_once(void)
{
	for (int d = 0; d < CUEMU_MAX_DEVICES; d++)
		files[d].fd = -1;
	pthread_atfork(NULL, NULL, child_after_fork);
}

/* dev's file, made on first use. file_lock held. */
static int devfile(int dev)
{
	char name[32];
	int fd;

	if (files[dev].fd >= 0)
		return files[dev].fd;
	snprintf(name, sizeof name, "cuemu-gpu%d", dev);
	fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	/* Shrinking is sealed off, as a dma-buf over the file needs. */
	if (ftruncate(fd, (off_t)FILE_SIZE) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		close(fd);
		return -1;
	}
	files[dev].fd = fd;
	__atomic_store_n(&made_fd[dev], fd + 1, __ATOMIC_RELEASE);
	return fd;
}

int cuemu_devmem_file(int dev, uint64_t len, uint64_t *off)
{
	int fd;

	pthread_once(&once, init_once);
	pthread_mutex_lock(&file_lock);
	fd = devfile(dev);
	if (fd >= 0 && len > FILE_SIZE - files[dev].next) {
		errno = ENOSPC;
		fd = -1;
	} else if (fd >= 0) {
		*off = files[dev].next;
		files[dev].next += len;
	}
	pthread_mutex_unlock(&file_lock);
	return fd;
}

void cuemu_devmem_punch(int dev, uint64_t off, uint64_t len)
{
	int fd = -1;

	pthread_once(&once, init_once);
	pthread_mutex_lock(&file_lock);
	if (dev >= 0 && dev < CUEMU_MAX_DEVICES)
		fd = files[dev].fd;
	if (fd >= 0)
		fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			  (off_t)off, (off_t)len);
	pthread_mutex_unlock(&file_lock);
}

uint32_t cuemu_devmem_epoch(void)
{
	pthread_once(&once, init_once);
	return __atomic_load_n(&epoch, __ATOMIC_RELAXED);
}

size_t cuemu_devmem_charge(size_t size)
{
	return CUEMU_ALIGN_UP(size, CUEMU_PAGE);
}

int cuemu_devmem_fd(int dev)
{
	int fd;

	if (dev < 0 || dev >= CUEMU_MAX_DEVICES)
		return -1;
	/* Once made, a file stays until a fork gives the child new ones. */
	if ((fd = __atomic_load_n(&made_fd[dev], __ATOMIC_ACQUIRE)))
		return fd - 1;
	pthread_once(&once, init_once);
	pthread_mutex_lock(&file_lock);
	fd = devfile(dev);
	pthread_mutex_unlock(&file_lock);
	return fd;
}
