/*
 * replay.c - runs one harness over its committed inputs, as a TAP test of
 * make check: fuzz/corpus/<harness>/ (the seeds and what fuzzing kept) and
 * fuzz/regress/<harness>/ (every crash found so far, kept once fixed). One
 * line an input; an input that crashes the harness ends the run short of
 * its plan, which fails the test. Arguments, when given, are the files to
 * run instead (to replay a new crash by hand).
 *
 * HARNESS names the harness; srcdir (from make check) locates the inputs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Inputs larger than this are no input a harness is run on (libFuzzer's
 * -max_len in make fuzz is far smaller). */
#define REPLAY_MAX (1 << 20)

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static char **files;
static size_t nfiles, capfiles;

static int add(const char *path)
{
	if (nfiles == capfiles) {
		size_t cap = capfiles ? 2 * capfiles : 64;
		char **f = realloc(files, cap * sizeof *f);

		if (!f)
			return -1;
		files = f;
		capfiles = cap;
	}
	if (!(files[nfiles] = strdup(path)))
		return -1;
	nfiles++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, sorted; a missing dir has none. */
static int add_dir(const char *dir)
{
	size_t first = nfiles;
	struct dirent *e;
	char path[4096];
	DIR *d;

	if (!(d = opendir(dir)))
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && add(path) < 0) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	qsort(files + first, nfiles - first, sizeof *files, by_name);
	return 0;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    n <= REPLAY_MAX && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	const char *src = getenv("srcdir");
	char dir[4096];

	if (!src || !*src)
		src = ".";
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (add(argv[i]) < 0)
				return 99;
	} else {
		snprintf(dir, sizeof dir, "%s/fuzz/corpus/%s", src, HARNESS);
		if (add_dir(dir) < 0)
			return 99;
		snprintf(dir, sizeof dir, "%s/fuzz/regress/%s", src, HARNESS);
		if (add_dir(dir) < 0)
			return 99;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	printf("1..%zu\n", nfiles);
	fflush(stdout);
	for (size_t i = 0; i < nfiles; i++) {
		size_t len = 0;
		unsigned char *buf = slurp(files[i], &len);
		const char *name = strstr(files[i], "fuzz/");

		if (!buf) {
			printf("not ok %zu - %s: cannot be read\n", i + 1, files[i]);
			continue;
		}
		/* Announced first: a crash leaves the input's name in the log. */
		fprintf(stderr, "# running %s\n", files[i]);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("ok %zu - %s %s survives\n", i + 1, HARNESS,
		       name ? name : files[i]);
		fflush(stdout);
	}
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	return 0;
}
