/*
 * main.c - cuemu-run(1): replays a workload description
 * (cuemu-workload(5)) through libcuemu, so that a workload is tried, shown
 * in /cu and compared under policies without writing C.
 *
 *   cuemu-run [--check] [--ids FILE] [--wait-for FILE] [--done FILE]
 *             [--exit-when FILE] [--quiet] WORKLOAD
 *
 * Exit status: 0 when it ran (or, with --check, is valid), 1 when the
 * description is refused or a call failed (the message names the line),
 * 2 for a bad command line.
 *
 * No state of its own; one thread until workload_run starts the streams'.
 */
#include "workload.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: cuemu-run [--check] [--ids FILE] [--wait-for FILE] "
		"[--done FILE] [--exit-when FILE] [--quiet] WORKLOAD.json\n");
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "check", no_argument, NULL, 'c' },
		{ "ids", required_argument, NULL, 'i' },
		{ "wait-for", required_argument, NULL, 'w' },
		{ "done", required_argument, NULL, 'd' },
		{ "exit-when", required_argument, NULL, 'x' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_opts o = { 0 };
	struct workload w;
	char err[1024];
	bool check = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "ci:w:d:x:qh", longs, NULL)) != -1) {
		switch (c) {
		case 'c': check = true; break;
		case 'i': o.ids = optarg; break;
		case 'w': o.wait_for = optarg; break;
		case 'd': o.done = optarg; break;
		case 'x': o.exit_when = optarg; break;
		case 'q': o.quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	o.file = argv[optind];
	if (workload_load(o.file, &w, err, sizeof err) < 0) {
		fprintf(stderr, "cuemu-run: %s\n", err);
		return 1;
	}
	rc = check ? 0 : workload_run(&w, &o, err, sizeof err);
	if (rc < 0)
		fprintf(stderr, "cuemu-run: %s\n", err);
	workload_free(&w);
	return rc < 0 ? 1 : 0;
}
