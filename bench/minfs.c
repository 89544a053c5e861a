/*
 * minfs.c - the baseline for bench/fsbench.sh: the least a libfuse3
 * filesystem can do through the high-level API. It serves one directory,
 * /files, of N files named 0 .. N-1, each holding one short line, plus
 * /file at the top, and /big/<bytes>: any name there is a file of that
 * many bytes (lines of filler), the baseline for reading a large document
 * such as cufs's snapshot.json. Reading cufs and reading minfs cross the same kernel
 * FUSE path, so the difference between the two is what cufs itself costs.
 *
 * Usage: minfs [-n N] MOUNTPOINT [fuse options...]   (N defaults to 100000)
 *
 * Files are reported with size 0 and read with direct_io, so that every
 * read reaches the daemon instead of the page cache: the baseline of a
 * filesystem that serves each read itself (cufs reads a read-only value
 * that did not change from the page cache, and the rest directly).
 *
 * Locking: none. The only state is the file count, set before fuse_main
 * starts its threads and read-only afterwards.
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read-only after main() parses the command line; global because the
 * high-level FUSE callbacks take no user argument of ours. */
static unsigned long nfiles = 100000;

static const char line[] = "4096\n";

/* The file index named by "/files/<n>", or -1. */
static long file_index(const char *path)
{
	char *end;
	unsigned long n;

	if (strncmp(path, "/files/", 7) != 0 || path[7] < '0' || path[7] > '9')
		return -1;
	errno = 0;
	n = strtoul(path + 7, &end, 10);
	if (errno || *end || n >= nfiles)
		return -1;
	return (long)n;
}

/* The size named by "/big/<bytes>", or -1. */
static long long big_size(const char *path)
{
	char *end;
	unsigned long long n;

	if (strncmp(path, "/big/", 5) != 0 || path[5] < '0' || path[5] > '9')
		return -1;
	errno = 0;
	n = strtoull(path + 5, &end, 10);
	if (errno || *end || n > (1ULL << 40))
		return -1;
	return (long long)n;
}

static int is_file(const char *path)
{
	return strcmp(path, "/file") == 0 || file_index(path) >= 0 ||
	       big_size(path) >= 0;
}

static int minfs_getattr(const char *path, struct stat *st,
                         struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	st->st_uid = getuid();
	st->st_gid = getgid();
	if (strcmp(path, "/") == 0 || strcmp(path, "/files") == 0 ||
	    strcmp(path, "/big") == 0) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		return 0;
	}
	if (!is_file(path))
		return -ENOENT;
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	return 0;
}

static int minfs_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
                         off_t off, struct fuse_file_info *fi,
                         enum fuse_readdir_flags flags)
{
	char name[32];

	(void)off;
	(void)fi;
	(void)flags;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	if (strcmp(path, "/") == 0) {
		fill(buf, "file", NULL, 0, 0);
		fill(buf, "files", NULL, 0, 0);
		fill(buf, "big", NULL, 0, 0);
		return 0;
	}
	if (strcmp(path, "/big") == 0)
		return 0;
	if (strcmp(path, "/files") != 0)
		return -ENOENT;
	for (unsigned long i = 0; i < nfiles; i++) {
		snprintf(name, sizeof(name), "%lu", i);
		if (fill(buf, name, NULL, 0, 0))
			return -ENOMEM;
	}
	return 0;
}

static int minfs_open(const char *path, struct fuse_file_info *fi)
{
	if (!is_file(path))
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	fi->direct_io = 1;
	return 0;
}

/* /big/<n>: filler lines of 64 bytes, cut at n bytes. */
static int big_read(long long n, char *buf, size_t size, off_t off)
{
	static const char filler[] =
		"0123456789abcdef0123456789abcdef0123456789abcdef012345678901234\n";

	if (off >= n)
		return 0;
	if ((long long)size > n - off)
		size = (size_t)(n - off);
	for (size_t i = 0; i < size; i++)
		buf[i] = filler[(off + (off_t)i) % 64];
	return (int)size;
}

static int minfs_read(const char *path, char *buf, size_t size, off_t off,
                      struct fuse_file_info *fi)
{
	size_t len = sizeof(line) - 1;
	long long big = big_size(path);

	(void)fi;
	if (big >= 0)
		return big_read(big, buf, size, off);
	if (off < 0 || (size_t)off >= len)
		return 0;
	if (size > len - (size_t)off)
		size = len - (size_t)off;
	memcpy(buf, line + off, size);
	return (int)size;
}

static void *minfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* As cufs: the kernel keeps a looked-up name for 0.1 s and no
	 * attributes, since cufs's objects change under it. */
	cfg->entry_timeout = 0.1;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	cfg->direct_io = 1;
	return NULL;
}

static const struct fuse_operations minfs_ops = {
	.init = minfs_init,
	.getattr = minfs_getattr,
	.readdir = minfs_readdir,
	.open = minfs_open,
	.read = minfs_read,
};

int main(int argc, char **argv)
{
	char **args;
	int rc;

	if (argc >= 3 && strcmp(argv[1], "-n") == 0) {
		char *end;

		errno = 0;
		nfiles = strtoul(argv[2], &end, 10);
		if (errno || *end || argv[2][0] == '\0') {
			fprintf(stderr, "minfs: bad file count '%s'\n", argv[2]);
			return 2;
		}
		argv[2] = argv[0];
		argv += 2;
		argc -= 2;
	}
	/* As cufs does, so both run the same loop (and libfuse 3.14 does not
	 * warn about its own default). */
	args = calloc((size_t)argc + 2, sizeof(*args));
	if (!args)
		return 1;
	memcpy(args, argv, (size_t)argc * sizeof(*args));
	args[argc] = "-omax_idle_threads=16";
	rc = fuse_main(argc + 1, args, &minfs_ops, NULL);
	free(args);
	return rc;
}
