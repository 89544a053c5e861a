/*
 * rundir.c - where control sockets live (cuemuRundir, cuemu-private.h:
 * $CUEMU_RUNDIR, else $XDG_RUNTIME_DIR/cuemu, else /run/cuemu), making
 * that directory, the checks that it is safe to put a socket in, and the
 * process's listening socket <pid>.sock there (mode 0600). The server
 * that answers on it is control.c's. Also the one way to name such a
 * socket in bind(2) or connect(2) (cuemuCtlAddr, for cufs and the tests as
 * well): through a descriptor of the directory, since a Unix socket's
 * address holds 108 bytes and a run dir may lie deeper than that.
 *
 * No state; the caller (control.c's start, under its ctl_lock) keeps the
 * socket and its path.
 */
#include "outward/outward.h"
#include "outward/cuemu-private.h"

#include <errno.h>
#include <fcntl.h>
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

int cuemuCtlAddr(const char *dir, pid_t pid, struct sockaddr_un *sa)
{
	int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0)
		return -1;
	/* /proc/self/fd/N is the directory itself, whatever its name's
	 * length: "/proc/self/fd/2147483647/2147483647.sock" fits. */
	memset(sa, 0, sizeof *sa);
	sa->sun_family = AF_UNIX;
	snprintf(sa->sun_path, sizeof sa->sun_path, "/proc/self/fd/%d/%d.sock",
		 dfd, (int)pid);
	return dfd;
}

static int listen_socket(const char *dir, char *path, size_t plen)
{
	struct sockaddr_un sa;
	char name[32];
	int fd = -1, dfd, n;

	n = snprintf(path, plen, "%s/%d.sock", dir, (int)getpid());
	if (n < 0 || (size_t)n >= plen) {
		cuemu_fail(CUDA_ERROR_INVALID_VALUE, "socket path %s/%d.sock is "
			   "too long", dir, (int)getpid());
		return -1;
	}
	if ((dfd = cuemuCtlAddr(dir, getpid(), &sa)) < 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control directory %s: %s",
			   dir, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof name, "%d.sock", (int)getpid());
	/* A socket of this pid is left over from a dead process. */
	unlinkat(dfd, name, 0);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* The mode is set on the socket before bind makes its file, so the
	 * file is never looser than 0600, whatever the umask; a chmod of the
	 * path after bind left a moment of the umask's mode and followed
	 * whatever had been put at the path by then. */
	if (fd < 0 || fchmod(fd, 0600) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
	    listen(fd, 16) < 0) {
		cuemu_fail(CUDA_ERROR_OPERATING_SYSTEM, "control socket %s: %s",
			   path, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlinkat(dfd, name, 0);
		fd = -1;
	}
	close(dfd);
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
