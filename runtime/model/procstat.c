/*
 * procstat.c - the one reader of a process's start time (field 22 of
 * /proc/<pid>/stat), what tells a live process from a later one that got
 * its pid: the machine's process table (machine.c), the published state
 * (outward/pubseg.c) and cufs all compare it. Compiled into libcuemu, and
 * into cufs and the tests that read segments, which cannot reach the
 * library's internal names. No state, no locks.
 */
#include "model/procstat.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

uint64_t cuemu_proc_start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd, field;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	/* Field 22 (starttime) counts from after the ")" that ends comm: the
	 * name before it may hold spaces and parentheses. */
	if (!(p = strrchr(buf, ')')))
		return 0;
	for (field = 2; *p && field < 22; p++)
		if (*p == ' ')
			field++;
	if (sscanf(p, "%llu", &start) != 1)
		return 0;
	return start;
}
