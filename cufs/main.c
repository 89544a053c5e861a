/*
 * main.c - the cufs command: options, the machine check, and the FUSE
 * main loop (multithreaded; SIGINT and SIGTERM unmount cleanly).
 *
 * Locking: none; everything here runs before the loop starts.
 */
#define FUSE_USE_VERSION 31
#include "cufs.h"
#include "outward/cuemu-private.h"

#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The command line's choices, read by client.c for the daemon's life. */
struct cufs_options cufs_opt;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: cufs [-f] [-d] [-s] [-o OPTION[,OPTION...]] [--rundir DIR]\n"
"            [--machine NAME] [MOUNTPOINT]\n"
"\n"
"Mounts the emulated machine and every libcuemu process on it at MOUNTPOINT\n"
"(default /cu): devices, processes, allocations, pools, reservations,\n"
"handles, events and snapshot.json. See cufs(8).\n"
"\n"
"  -f               stay in the foreground\n"
"  -d               debug: foreground, and print every FUSE request\n"
"  -s               single-threaded (reads of events then block the mount)\n"
"  -o allow_other   let other users see the mount (they can change only\n"
"                   their own processes' objects)\n"
"  -o OPTION        any other FUSE mount option\n"
"  --rundir DIR     where processes' control sockets are (default:\n"
"                   $CUEMU_RUNDIR, else $XDG_RUNTIME_DIR/cuemu, else /run/cuemu)\n"
"  --machine NAME   the machine segment (default: $CUEMU_MACHINE, else cuemu)\n"
"  -h, --help       this text\n"
"  -V, --version    the version\n");
}

/* Takes cufs's own options out of argv; the rest goes to FUSE. -1 on a
 * bad option, 1 when the program is done (help, version), else 0. */
static int own_options(int *argc, char **argv)
{
	int out = 1, mounts = 0;

	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < *argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 1;
		}
		if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			printf("cufs %s (FUSE %s)\n", PACKAGE_VERSION,
			       fuse_pkgversion());
			return 1;
		}
		if (!strcmp(a, "--rundir") || !strcmp(a, "--machine")) {
			if (!v) {
				fprintf(stderr, "cufs: %s needs a value\n", a);
				return -1;
			}
			snprintf(a[2] == 'r' ? cufs_opt.rundir : cufs_opt.machine,
				 a[2] == 'r' ? sizeof cufs_opt.rundir :
				 sizeof cufs_opt.machine, "%s", v);
			i++;
			continue;
		}
		if (a[0] != '-')
			mounts++;
		if (!strcmp(a, "-o") && v) {
			argv[out++] = argv[i++];
			a = v;
		}
		argv[out++] = (char *)a;
	}
	*argc = out;
	argv[out] = NULL;
	if (mounts > 1) {
		fprintf(stderr, "cufs: one mount point, please\n");
		return -1;
	}
	return mounts ? 0 : 2;
}

static int setup(void)
{
	char *m;

	if (cufs_opt.machine[0])
		setenv("CUEMU_MACHINE", cufs_opt.machine, 1);
	else
		snprintf(cufs_opt.machine, sizeof cufs_opt.machine, "%s",
			 getenv("CUEMU_MACHINE") && *getenv("CUEMU_MACHINE") ?
			 getenv("CUEMU_MACHINE") : "cuemu");
	if (!cufs_opt.rundir[0] &&
	    cuemuRundir(cufs_opt.rundir, sizeof cufs_opt.rundir) < 0) {
		fprintf(stderr, "cufs: run dir: %s\n", strerror(errno));
		return -1;
	}
	/* Processes may start later; the directory they use must exist. */
	if (mkdir(cufs_opt.rundir, 0700) < 0 && errno != EEXIST) {
		fprintf(stderr, "cufs: %s: %s\n", cufs_opt.rundir,
			strerror(errno));
		return -1;
	}
	/* Attach now, so that a broken machine is reported before mounting
	 * (and a machine nobody made yet is made). */
	m = cuemuMachineJson();
	if (!m || strstr(m, "\"error\"")) {
		fprintf(stderr, "cufs: machine %s: %s\n", cufs_opt.machine,
			m ? m : "out of memory");
		free(m);
		return -1;
	}
	free(m);
	return 0;
}

int main(int argc, char **argv)
{
	char **args = calloc((size_t)argc + 3, sizeof *args);
	int n = argc, rc;

	if (!args)
		return 1;
	memcpy(args, argv, (size_t)argc * sizeof *args);
	rc = own_options(&n, args);
	if (rc == 1 || rc < 0) {
		free(args);
		return rc < 0 ? 2 : 0;
	}
	if (rc == 2)
		args[n++] = "/cu";
	/* libfuse 3.14 warns about its own default otherwise. */
	args[n++] = "-omax_idle_threads=16";
	if (setup() < 0) {
		free(args);
		return 1;
	}
	rc = fuse_main(n, args, &cufs_ops, NULL);
	free(args);
	return rc;
}
