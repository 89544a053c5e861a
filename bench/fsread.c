/*
 * fsread.c - times open+read+close of one file, as a user of /cu does it:
 * open, read until end of file, close. Prints the median, minimum and
 * maximum of K rounds in microseconds and the bytes one round read:
 *
 *     fsread [-k K] [-s] PATH  ->  "median_us min_us max_us bytes"
 *
 * With -s a round is one lstat of PATH instead (what `ls -l` does for each
 * entry), and bytes is 0.
 *
 * A failed open or read stops it with the errno's text and status 1, so
 * that bench/fsbench.sh reports the failure rather than a time.
 *
 * Locking: none (one thread).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One round: answers the bytes read, or -1 with errno set. */
static long long round_once(const char *path, char *buf, size_t len)
{
	long long total = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, len)) > 0)
		total += n;
	if (n < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	return total;
}

static long long stat_once(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	static char buf[1 << 17];
	unsigned long k = 1000;
	long long bytes = 0;
	bool stat_only = false;
	double *t;
	int opt;

	while ((opt = getopt(argc, argv, "k:s")) != -1) {
		if (opt == 'k')
			k = strtoul(optarg, NULL, 10);
		else if (opt == 's')
			stat_only = true;
		else
			k = 0;
	}
	if (optind != argc - 1 || k == 0) {
		fprintf(stderr, "usage: fsread [-k K] [-s] PATH\n");
		return 2;
	}
	argv += optind - 1;
	t = calloc(k, sizeof(*t));
	if (!t) {
		perror("fsread");
		return 1;
	}
	for (unsigned long i = 0; i < k; i++) {
		double t0 = now_us();

		bytes = stat_only ? stat_once(argv[1]) :
			round_once(argv[1], buf, sizeof(buf));
		t[i] = now_us() - t0;
		if (bytes < 0) {
			fprintf(stderr, "fsread: %s: %s\n", argv[1],
			        strerror(errno));
			free(t);
			return 1;
		}
	}
	qsort(t, k, sizeof(*t), cmp_double);
	printf("%.1f %.1f %.1f %lld\n", t[k / 2], t[0], t[k - 1], bytes);
	free(t);
	return 0;
}
