/*
 * fsread.c - times open+read+close of one file, as a user of /cu does it:
 * open, read until end of file, close. Prints the median, minimum and
 * maximum of K rounds in microseconds and the bytes one round read, a line
 * for each PATH:
 *
 *     fsread [-k K] [-s] PATH [PATH...]  ->  "median_us min_us max_us bytes"
 *
 * With several paths a round reads each once, in an order that turns by
 * one each round: the files being compared (a cufs file and minfs's) see
 * the same moments of the machine's load, where timing one after the
 * other compared two different seconds of a shared machine.
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

/* One round of path: its bytes, or -1 with a word on stderr. */
static long long once(const char *path, bool stat_only, char *buf, size_t len)
{
	long long bytes = stat_only ? stat_once(path) :
			  round_once(path, buf, len);

	if (bytes < 0)
		fprintf(stderr, "fsread: %s: %s\n", path, strerror(errno));
	return bytes;
}

int main(int argc, char **argv)
{
	static char buf[1 << 17];
	unsigned long k = 1000;
	bool stat_only = false;
	long long *bytes;
	double *t;
	int opt, n, rc = 0;

	while ((opt = getopt(argc, argv, "k:s")) != -1) {
		if (opt == 'k')
			k = strtoul(optarg, NULL, 10);
		else if (opt == 's')
			stat_only = true;
		else
			k = 0;
	}
	n = argc - optind;
	if (n < 1 || k == 0 || k > 10000000) {
		fprintf(stderr, "usage: fsread [-k K] [-s] PATH [PATH...]\n");
		return 2;
	}
	argv += optind;
	t = calloc(k * (size_t)n, sizeof(*t));
	bytes = calloc((size_t)n, sizeof(*bytes));
	if (!t || !bytes) {
		perror("fsread");
		rc = 1;
		goto out;
	}
	/* t[p * k + i]: path p's time in round i. */
	for (unsigned long i = 0; i < k && !rc; i++) {
		for (int j = 0; j < n && !rc; j++) {
			int p = (int)((i + (unsigned long)j) % (unsigned long)n);
			double t0 = now_us();

			bytes[p] = once(argv[p], stat_only, buf, sizeof(buf));
			t[(size_t)p * k + i] = now_us() - t0;
			rc = bytes[p] < 0;
		}
	}
	for (int p = 0; p < n && !rc; p++) {
		double *tp = t + (size_t)p * k;

		qsort(tp, k, sizeof(*tp), cmp_double);
		printf("%.1f %.1f %.1f %lld\n", tp[k / 2], tp[0], tp[k - 1],
		       bytes[p]);
	}
out:
	free(t);
	free(bytes);
	return rc;
}
