/*
 * fdpass.h - the unit tests' passing of one file descriptor between
 * processes over a Unix socket (SCM_RIGHTS), with a few bytes of data
 * beside it: how a shareable handle travels from exporter to importer.
 */
#ifndef CUEMU_TEST_FDPASS_H
#define CUEMU_TEST_FDPASS_H

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

/* Sends fd and len bytes of data in one message. 0, or -1. */
static inline int send_fd(int sock, int fd, const void *data, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	return sendmsg(sock, &m, 0) == (ssize_t)len ? 0 : -1;
}

/* Receives what send_fd sent: the descriptor, its data into data (exactly
 * len bytes), or -1. */
static inline int recv_fd(int sock, void *data, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	struct cmsghdr *c;
	int fd = -1;

	if (recvmsg(sock, &m, MSG_WAITALL) != (ssize_t)len)
		return -1;
	c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof fd);
	return fd;
}

#endif
