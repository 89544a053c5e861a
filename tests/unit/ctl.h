/*
 * ctl.h - the unit tests' client of their own process's control socket
 * ($CUEMU_RUNDIR/<pid>.sock, made by cuInit): one JSON request line out,
 * one answer line back, read as text.
 *
 * ctl_connect() and ctl_line() work on any descriptor; ctl_open() and ctl()
 * are the short form the tests use, on the one connection in ctl_fd. A
 * test program is one thread asking in turn, so nothing here locks.
 */
#ifndef CUEMU_TEST_CTL_H
#define CUEMU_TEST_CTL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "cuda.h"
#include "outward/cuemu-private.h"

/* The short form's connection: a test asks over one socket at a time. */
static int ctl_fd __attribute__((unused)) = -1;

/* A connection to this process's socket, or -1 (no CUEMU_RUNDIR, or no
 * server listening). */
static inline int ctl_connect(void)
{
	struct sockaddr_un sa;
	const char *dir = getenv("CUEMU_RUNDIR");
	int fd, dfd;

	if (!dir || (dfd = cuemuCtlAddr(dir, getpid(), &sa)) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		close(fd);
		fd = -1;
	}
	close(dfd);
	return fd;
}

/* Sends req (a line without its newline) and reads one answer line into
 * buf, without the newline; buf is "" when the server does not answer. */
static inline const char *ctl_line(int fd, const char *req, char *buf,
				   size_t len)
{
	struct iovec iov[2] = { { (void *)req, strlen(req) },
				{ (void *)"\n", 1 } };
	size_t n = 0;

	buf[0] = '\0';
	if (writev(fd, iov, 2) != (ssize_t)(iov[0].iov_len + 1))
		return buf;
	while (n + 1 < len && read(fd, buf + n, 1) == 1 && buf[n] != '\n')
		n++;
	buf[n] = '\0';
	return buf;
}

/* Connects ctl_fd: 0, or -1. */
static inline int ctl_open(void)
{
	ctl_fd = ctl_connect();
	return ctl_fd < 0 ? -1 : 0;
}

/* One request on ctl_fd, formatted; the answer lands in buf. */
static inline const char *ctl(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline const char *ctl(char *buf, size_t len, const char *fmt, ...)
{
	char req[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(req, sizeof req, fmt, ap);
	va_end(ap);
	return ctl_line(ctl_fd, req, buf, len);
}

/* The holders of the allocation at p as /cu shows them (the answer line),
 * or "(no control socket)". */
static inline const char *ctl_holders(CUdeviceptr p, char *buf, size_t len)
{
	unsigned long long id = 0;

	cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, p);
	if (ctl_fd < 0 && ctl_open() < 0)
		return "(no control socket)";
	return ctl(buf, len, "{\"op\":\"get\",\"path\":\"allocations/%llu/"
		   "holders\"}", id);
}

#endif
