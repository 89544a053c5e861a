/*
 * rundir.c - where control sockets live (cuemuRundir, cuemu-private.h:
 * $CUEMU_RUNDIR, else $XDG_RUNTIME_DIR/cuemu, else /run/cuemu), making
 * that directory, the checks that it is safe to put a socket in, and the
 * process's listening socket <pid>.sock there (mode 0600). The server
 * that answers on it is control.c's.
 *
 * No state; the caller (control.c's start, under its ctl_lock) keeps the
 * socket and its path.
 */
#include "outward/outward.h"
#include "outward/cuemu-private.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int cuemuRundir(char *buf, size_t len)
{
	const char *d = getenv("CUEMU_RUNDIR");
	const char *x = getenv("XDG_RUNTIME_DIR");
	int n;

	if (d && *d)
		n = snprintf(buf, len, "%s", d);
	else if (x && *x)
		n = snprintf(buf, len, "%s/cuemu", x);
	else
		n = snprintf(buf, len, "/run/cuemu");
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* mkdir -p with mode 0700 for what it creates. */
static int make_dir(const char *dir)
{
	char p[PATH_MAX];
	size_t n = strlen(dir);

	if (n >= sizeof p)
		return -1;
	memcpy(p, dir, n + 1);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* The run dir must be ours (or root's), and writable by no one else
 * unless sticky: whoever may rename in it could put a socket of their own,
 * or a link, where ours is about to be. */
static int check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control directory %s: %s",
			   dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control directory %s is "
			   "not a directory", dir);
		return -1;
	}
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control directory %s "
			   "belongs to uid %d, not to uid %d", dir, (int)st.st_uid,
			   (int)geteuid());
		return -1;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control directory %s is "
			   "writable by others (mode %03o) and not sticky", dir,
			   (unsigned)(st.st_mode & 0777));
		return -1;
	}
	return 0;
}

static int listen_socket(const char *dir, char *path, size_t plen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, n;

	n = snprintf(sa.sun_path, sizeof sa.sun_path, "%s/%d.sock", dir,
		     (int)getpid());
	if (n < 0 || (size_t)n >= sizeof sa.sun_path) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "socket path %s/%d.sock is "
			   "too long", dir, (int)getpid());
		return -1;
	}
	/* A socket of this pid is left over from a dead process. */
	unlink(sa.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* The mode is set on the socket before bind makes its file, so the
	 * file is never looser than 0600, whatever the umask; a chmod of the
	 * path after bind left a moment of the umask's mode and followed
	 * whatever had been put at the path by then. */
	if (fd < 0 || fchmod(fd, 0600) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    listen(fd, 16) < 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control socket %s: %s",
			   sa.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(sa.sun_path);
		return -1;
	}
	snprintf(path, plen, "%s", sa.sun_path);
	return fd;
}

int cuemu_ctl_listen(char *dir, size_t dlen, char *path, size_t plen)
{
	if (cuemuRundir(dir, dlen) < 0 || make_dir(dir) < 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control directory %s: %s",
			   dir, strerror(errno));
		return -1;
	}
	if (check_dir(dir) < 0)
		return -1;
	return listen_socket(dir, path, plen);
}
