/*
 * main.c - the cufs command: options, the machine check, and the FUSE
 * main loop (multithreaded; SIGINT and SIGTERM unmount cleanly).
 *
 * Locking: none; everything here runs before the loop starts or after it
 * ended, but for the signal handler, which only records its signal.
 */
/* 3.12's loop configuration (fuse_loop_cfg_*, -o max_threads) where the
 * library has it; configure accepts 3.10, whose loop takes a struct. */
#define FUSE_USE_VERSION 312
#include "cufs.h"
#include "outward/cuemu-private.h"
#include "cuemu.h"

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <mntent.h>
#include <fuse_lowlevel.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

/* The command line's choices, read by client.c for the daemon's life. */
struct cufs_options cufs_opt;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: cufs [-f] [-d] [-s] [-o OPTION[,OPTION...]] [--rundir DIR]\n"
"            [--machine NAME] [--topology NAME|FILE] [[SOURCE] MOUNTPOINT]\n"
"       cufs --remove-machine NAME\n"
"\n"
"Mounts the emulated machine and every libcuemu process on it at MOUNTPOINT\n"
"(default /cu): devices, processes, allocations, pools, reservations,\n"
"handles, events and snapshot.json. See cufs(8).\n"
"\n"
"  -f               stay in the foreground\n"
"  -d               debug: foreground, and print every FUSE request\n"
"  -s               single-threaded (reads of events_pipe then block the mount)\n"
"  -o allow_other   let other users see the mount (they can change only\n"
"                   their own processes' objects)\n"
"  -o machine=NAME, -o rundir=DIR, -o topology=FILE\n"
"                   as --machine, --rundir and CUEMU_TOPOLOGY, for fstab\n"
"  -o OPTION        any other FUSE mount option\n"
"  SOURCE           the name mount(8) passes first (mount -t fuse.cufs\n"
"                   cufs /cu); shown as the mount's source\n"
"  --rundir DIR     where processes' control sockets are (default:\n"
"                   $CUEMU_RUNDIR, else $XDG_RUNTIME_DIR/cuemu, else /run/cuemu)\n"
"  --machine NAME   the machine segment (default: $CUEMU_MACHINE, else cuemu)\n"
"  --topology NAME|FILE\n"
"                   the machine to make when there is none: a shipped\n"
"                   topology's name (gb200-nvl72, ...) or a file, as\n"
"                   CUEMU_TOPOLOGY (cuemu-topology(5))\n"
"  --remove-machine NAME\n"
"                   remove the machine segment NAME (yours, with no\n"
"                   process attached) and exit\n"
"  -h, --help       this text\n"
"  -V, --version    the version\n");
}

/* mount(8) and fstab hand every option to the helper as one -o list:
 * take cufs's own (machine=, rundir=, topology=) out of it, drop those
 * meant for mount itself or for other tools (defaults, x-*, nofail, ...),
 * and answer the rest for FUSE, or NULL when nothing is left. */
static char *mount_options(const char *list)
{
	static const char *const for_mount[] = {
		"defaults", "auto", "noauto", "nofail", "_netdev", "user",
		"users", "nouser", "owner", "group", "comment", NULL,
	};
	char *copy = strdup(list), *rest = calloc(1, strlen(list) + 1);
	char *save = NULL;

	if (!copy || !rest) {
		free(copy);
		free(rest);
		return NULL;
	}
	for (char *o = strtok_r(copy, ",", &save); o;
	     o = strtok_r(NULL, ",", &save)) {
		bool drop = !strncmp(o, "x-", 2) || !strncmp(o, "comment=", 8);

		for (int k = 0; !drop && for_mount[k]; k++)
			drop = !strcmp(o, for_mount[k]);
		if (drop)
			continue;
		if (!strncmp(o, "machine=", 8))
			snprintf(cufs_opt.machine, sizeof cufs_opt.machine,
				 "%s", o + 8);
		else if (!strncmp(o, "rundir=", 7))
			snprintf(cufs_opt.rundir, sizeof cufs_opt.rundir,
				 "%s", o + 7);
		else if (!strncmp(o, "topology=", 9))
			setenv("CUEMU_TOPOLOGY", o + 9, 1);
		else {
			if (*rest)
				strcat(rest, ",");
			strcat(rest, o);
		}
	}
	free(copy);
	if (!*rest) {
		free(rest);
		return NULL;
	}
	return rest;
}

/* The strings mount_options made, kept for fuse_main and freed at exit. */
static char *made[64];
static int nmade;

static char *keep(char *s)
{
	if (s && nmade < (int)(sizeof made / sizeof *made))
		made[nmade++] = s;
	return s;
}

/* The machine --remove-machine names. Global: own_options finds it,
 * main acts on it. */
static const char *remove_name;

/* Removes the machine segment remove_name: cufs's exit status. */
static int remove_machine(void)
{
	char why[512];

	if (cuemuMachineRemove(remove_name, why, sizeof why) < 0) {
		fprintf(stderr, "cufs: %s\n", why);
		return 1;
	}
	return 0;
}

/* Takes cufs's own options out of argv; the rest goes to FUSE. -1 on a
 * bad option, 1 when the program is done (help, version), 3 for
 * --remove-machine, 2 when no mount point was given, else 0. */
static int own_options(int *argc, char **argv)
{
	int out = 1, mounts = 0, first = 0;
	const char *source = NULL;
	char *fsname;

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
		if (!strcmp(a, "--remove-machine")) {
			if (!v) {
				fprintf(stderr, "cufs: %s needs a value\n", a);
				return -1;
			}
			remove_name = v;
			return 3;
		}
		if (!strcmp(a, "--topology")) {
			if (!v) {
				fprintf(stderr, "cufs: %s needs a value\n", a);
				return -1;
			}
			setenv("CUEMU_TOPOLOGY", v, 1);
			i++;
			continue;
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
		if (!strncmp(a, "-o", 2) && (a[2] || v)) {
			char *rest = keep(mount_options(a[2] ? a + 2 : v));

			if (!a[2])
				i++;
			if (rest) {
				argv[out++] = "-o";
				argv[out++] = rest;
			}
			continue;
		}
		if (a[0] != '-') {
			/* mount(8)'s helper passes SOURCE MOUNTPOINT. */
			if (++mounts == 2) {
				source = argv[first];
				argv[first] = (char *)a;
				continue;
			}
			first = out;
		}
		argv[out++] = (char *)a;
	}
	if (mounts > 2) {
		fprintf(stderr, "cufs: one mount point (after at most one "
			"source), please\n");
		return -1;
	}
	/* A comma or backslash would split or escape the option list. */
	if (source && !strpbrk(source, ",\\") &&
	    (fsname = malloc(strlen(source) + 8))) {
		sprintf(fsname, "fsname=%s", source);
		argv[out++] = "-o";
		argv[out++] = keep(fsname);
	}
	*argc = out;
	argv[out] = NULL;
	return mounts ? 0 : 2;
}

/* Why the machine cannot be used, once: the library has said it on
 * stderr itself when it had to (a topology refused, a join denied). */
static void say_machine_error(json_t *m)
{
	if (json_is_true(json_object_get(m, "told")))
		return;
	fprintf(stderr, "cufs: machine %s: %s\n", cufs_opt.machine,
		m ? json_string_value(json_object_get(m, "error")) :
		"out of memory");
}

static int setup(void)
{
	json_t *m;

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
	/* cufs runs as root and serves everyone: it reads the segment that
	 * every member of the machine's group may write, and must neither
	 * wait on a lock a member holds nor die of a truncated file. */
	cuemuMachineReadOnly();
	/* Attach now, so that a broken machine is reported before mounting
	 * (and a machine nobody made yet is made). */
	m = cuemuMachineSummaryObject();
	if (!m || json_object_get(m, "error")) {
		say_machine_error(m);
		json_decref(m);
		return -1;
	}
	json_decref(m);
	return 0;
}

/* Whether dir is a cufs mount already: a second would stack on it and
 * hide the first. Says so, with what to do. */
static bool mounted_already(const char *dir)
{
	char real[PATH_MAX];
	struct mntent me, *e;
	char buf[4096];
	bool found = false;
	FILE *f;

	if (!realpath(dir, real) || !(f = setmntent("/proc/self/mounts", "r")))
		return false;
	while (!found && (e = getmntent_r(f, &me, buf, sizeof buf)))
		found = !strcmp(e->mnt_type, "fuse.cufs") &&
			!strcmp(e->mnt_dir, real);
	endmntent(f);
	if (found)
		fprintf(stderr, "cufs: %s is a cufs mount already: unmount it "
			"first (fusermount3 -u %s)\n", real, real);
	return found;
}

/* A daemon's stderr is /dev/null (fuse_daemonize): what cufs says there
 * (why a write failed, a segment removed, the library's own lines) goes
 * to syslog, the journal where there is one, a line at a time. */
static ssize_t syslog_write(void *cookie, const char *buf, size_t len)
{
	(void)cookie;
	syslog(LOG_NOTICE, "%.*s", (int)(len && buf[len - 1] == '\n' ?
					 len - 1 : len), buf);
	return (ssize_t)len;
}

static void stderr_to_syslog(void)
{
	cookie_io_functions_t io = { .write = syslog_write };
	FILE *f;

	openlog("cufs", LOG_PID, LOG_DAEMON);
	if (!(f = fopencookie(NULL, "w", io)))
		return;
	/* Line-buffered: one syslog record a line, however it was written. */
	setvbuf(f, NULL, _IOLBF, 0);
	stderr = f;
}

/* The termination signal that ended the loop, or 0. Global: a signal
 * handler has nowhere else to put it. */
static volatile sig_atomic_t stop_signal;

/* libfuse's handlers for SIGHUP, SIGINT and SIGTERM (which end the loop);
 * ours records the signal and hands it on. */
static const int stop_signals[] = { SIGHUP, SIGINT, SIGTERM };
static struct sigaction fuse_handler[3];

static void on_stop_signal(int sig)
{
	for (int i = 0; i < 3; i++)
		if (stop_signals[i] == sig) {
			stop_signal = sig;
			if (fuse_handler[i].sa_handler != SIG_DFL &&
			    fuse_handler[i].sa_handler != SIG_IGN)
				fuse_handler[i].sa_handler(sig);
		}
}

/* Around libfuse's handlers, where it installed one (it leaves a signal
 * that was ignored alone); restore == true puts libfuse's back. */
static void wrap_stop_signals(bool restore)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 3; i++) {
		if (restore) {
			sigaction(stop_signals[i], &fuse_handler[i], NULL);
			continue;
		}
		if (sigaction(stop_signals[i], NULL, &fuse_handler[i]) == 0 &&
		    fuse_handler[i].sa_handler != SIG_DFL &&
		    fuse_handler[i].sa_handler != SIG_IGN)
			sigaction(stop_signals[i], &sa, NULL);
	}
}

/*
 * What fuse_main(3) does, with cufs's answers: 2 for a command line that
 * libfuse refuses (fuse_main answers 1 or 3, as for a failure of its own),
 * 1 when the run dir or the machine cannot be used (checked before
 * mounting), and 0 when the loop ended because SIGHUP, SIGINT or SIGTERM
 * asked it to and the mount went cleanly (fuse_main answers 8, as for a
 * loop that failed). The other failures keep fuse_main's numbers: 4 mount,
 * 5 daemon, 6 signal handlers, 7 loop setup, 8 the loop itself.
 */
static int run_fuse(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fuse_cmdline_opts opts;
#if FUSE_VERSION >= FUSE_MAKE_VERSION(3, 12)
	struct fuse_loop_config *cfg = NULL;
#else
	struct fuse_loop_config cfg_v1, *cfg = NULL;
#endif
	struct fuse_session *se;
	int rc;

	/* It refuses a mount point that does not resolve, or a word too
	 * many, and says why. */
	if (fuse_parse_cmdline(&args, &opts) != 0) {
		fuse_opt_free_args(&args);
		return 2;
	}
	/* It refuses an option nobody knows, and says which. It also fails
	 * when it runs out of memory at the start, which this reports as a
	 * bad command line too; nothing else makes it fail. */
	if (!(se = fuse_session_new(&args, &cufs_ll_ops, sizeof cufs_ll_ops,
				    NULL))) {
		rc = 2;
		goto out_args;
	}
	cufs_ll_session(se);
	if (setup() < 0) {
		rc = 1;
		goto out_session;
	}
	if (mounted_already(opts.mountpoint) ||
	    fuse_session_mount(se, opts.mountpoint) != 0) {
		rc = 4;
		goto out_session;
	}
	if (fuse_daemonize(opts.foreground) != 0) {
		rc = 5;
		goto out_mount;
	}
	if (!opts.foreground)
		stderr_to_syslog();
	if (fuse_set_signal_handlers(se) != 0) {
		rc = 6;
		goto out_mount;
	}
	wrap_stop_signals(false);
	if (opts.singlethread) {
		rc = fuse_session_loop(se);
	} else {
#if FUSE_VERSION >= FUSE_MAKE_VERSION(3, 12)
		if ((cfg = fuse_loop_cfg_create())) {
			fuse_loop_cfg_set_clone_fd(cfg, opts.clone_fd);
			fuse_loop_cfg_set_idle_threads(cfg,
						       opts.max_idle_threads);
			fuse_loop_cfg_set_max_threads(cfg, opts.max_threads);
		}
#else
		cfg_v1.clone_fd = opts.clone_fd;
		cfg_v1.max_idle_threads = opts.max_idle_threads;
		cfg = &cfg_v1;
#endif
		rc = cfg ? fuse_session_loop_mt(se, cfg) : -1;
	}
	/* Asked to stop is a clean stop, whatever the loop answers for it
	 * (libfuse 3.14 answers the signal's number). */
	if (stop_signal)
		rc = 0;
	else if (rc != 0)
		rc = cfg || opts.singlethread ? 8 : 7;
	wrap_stop_signals(true);
	fuse_remove_signal_handlers(se);
out_mount:
	fuse_session_unmount(se);
out_session:
	cufs_ll_session(NULL);
	fuse_session_destroy(se);
out_args:
#if FUSE_VERSION >= FUSE_MAKE_VERSION(3, 12)
	fuse_loop_cfg_destroy(cfg);
#endif
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return rc;
}

#define CUFS_STR_(x) #x
#define CUFS_STR(x) CUFS_STR_(x)

/* Whether an -o list of the command line names option (alone, or with
 * a value). */
static bool option_named(int n, char **args, const char *name)
{
	size_t len = strlen(name);

	for (int i = 1; i < n; i++) {
		const char *a = args[i];

		if (!strcmp(a, "-o") && i + 1 < n)
			a = args[++i];
		else if (!strncmp(a, "-o", 2))
			a += 2;
		else
			continue;
		for (const char *p = a; (p = strstr(p, name)); p += len)
			if ((p == a || p[-1] == ',') &&
			    (!p[len] || p[len] == ',' || p[len] == '='))
				return true;
	}
	return false;
}

/* Free heap past which cufs hands it back (cufs_tidy_heap). */
#define TIDY_FREE_BYTES (64UL << 20)

void cufs_tidy_heap(void)
{
	if (mallinfo2().fordblks > TIDY_FREE_BYTES)
		malloc_trim(0);
}

int main(int argc, char **argv)
{
	char **args;
	int n = argc, rc;

	/* libcuemu exports the C library's clock names (CUEMU_CLOCK): cufs's
	 * timeouts, event times and mtimes are the machine's, also when the
	 * shell that started it set CUEMU_CLOCK=model for its programs. */
	cuemuClockReal();
	args = calloc(2 * (size_t)argc + 5, sizeof *args);
	if (!args)
		return 1;
	memcpy(args, argv, (size_t)argc * sizeof *args);
	rc = own_options(&n, args);
	if (rc == 3) {
		free(args);
		while (nmade > 0)
			free(made[--nmade]);
		return remove_machine();
	}
	if (rc == 1 || rc < 0) {
		free(args);
		while (nmade > 0)
			free(made[--nmade]);
		return rc < 0 ? 2 : 0;
	}
	if (rc == 2) {
		struct stat st;

		if (stat("/cu", &st) < 0) {
			fprintf(stderr, "cufs: no mount point given, and the "
				"default, /cu, cannot be used (%s): create it "
				"(mkdir /cu) or name another (cufs DIR)\n",
				strerror(errno));
			free(args);
			while (nmade > 0)
				free(made[--nmade]);
			return 2;
		}
		args[n++] = "/cu";
	}
	/* libfuse 3.14 warns about its own default otherwise. */
	args[n++] = "-omax_idle_threads=16";
#if FUSE_VERSION >= FUSE_MAKE_VERSION(3, 12)
	/* libfuse's 10 would let ten readers of events_pipe, or writes to
	 * processes that do not answer, stop every other request. */
	if (!option_named(n, args, "max_threads"))
		args[n++] = "-omax_threads=" CUFS_STR(CUFS_FUSE_THREADS);
#endif
	/* Other users reach the mount: lowlevel.c keeps less for them. */
	cufs_opt.allow_other = option_named(n, args, "allow_other");
	/* The type mount(8), findmnt and fstab name it by: fuse.cufs. */
	args[n++] = "-osubtype=cufs";
	rc = run_fuse(n, args);
	free(args);
	while (nmade > 0)
		free(made[--nmade]);
	return rc;
}
