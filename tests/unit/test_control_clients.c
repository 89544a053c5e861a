/*
 * test_control_clients.c - the control server under clients that
 * misbehave: one that asks for a large snapshot and never reads it, one
 * that sends requests and reads no answer, an empty line, a process that
 * opens hundreds of idle connections, and enough processes to fill the
 * table. Whatever they do, another client is still answered.
 *
 * No check is a timing: the misbehaving client reads nothing until the
 * other one has its answer, so a server that waited on it would never
 * answer (the wait for the answer is a hang guard, HANG_MS), and one that
 * gave up on it would not deliver its answers whole when it reads at last.
 *
 * Clients in other processes are forked children that only use sockets
 * (no API call after fork).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuda.h"
#include "tap.h"
#include "ctl.h"

/* The bound on every wait for an answer: not a timing, a guard that turns
 * a server that never answers into a failure instead of a hang. */
#define HANG_MS 10000

#define NALLOCS 30000

/* One line of answer within ms, into buf ("" when none came). */
static const char *answer_within(int fd, int ms, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	while (n + 1 < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, ms) != 1)
			break;
		if ((r = read(fd, buf + n, 1)) != 1)
			break;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
	return buf;
}

/* Reads n bytes within ms: 0, or -1 when they did not all come. */
static int read_within(int fd, void *buf, size_t n, int ms)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, ms) != 1 ||
		    (r = read(fd, (char *)buf + got, n - got)) <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* The pid whose socket the children connect to: this test's. */
static pid_t server_pid;

/* A connection to the server's socket from any process, or -1; it never
 * waits (a full backlog refuses it). */
static int connect_server(void)
{
	struct sockaddr_un a;
	const char *dir = getenv("CUEMU_RUNDIR");
	int fd, dfd;

	if (!dir || (dfd = cuemuCtlAddr(dir, server_pid, &a)) < 0)
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		close(fd);
		fd = -1;
	}
	close(dfd);
	return fd;
}

/* hello on a fresh connection, answered (within HANG_MS). */
static int hello_answered(void)
{
	char buf[4096];
	int fd = connect_server();
	int answered;

	if (fd < 0)
		return 0;
	answered = write(fd, "{\"op\":\"hello\"}\n", 15) == 15 &&
		   strstr(answer_within(fd, HANG_MS, buf, sizeof buf),
			  "\"ok\":true") != NULL;
	close(fd);
	return answered;
}

/* Whether the server has begun answering on fd (within HANG_MS). */
static int answering(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, HANG_MS) == 1;
}

static void slow_snapshot_reader(void)
{
	char head[128];
	size_t want = 0, got = 0;
	int fd = ctl_connect();
	char chunk[65536];

	if (!ok(fd >= 0, "a client connects"))
		return;
	ok(write(fd, "{\"op\":\"snapshot\",\"text\":true}\n", 30) == 30,
	   "and asks for the snapshot of %d allocations", NALLOCS);
	ok(answering(fd), "the server begins answering it");
	ok(hello_answered(), "while it reads nothing, another client is "
	   "answered");
	answer_within(fd, HANG_MS, head, sizeof head);
	sscanf(head, "{\"ok\":true,\"bytes\":%zu}", &want);
	ok(want > (1u << 20), "the snapshot it asked for is large (%zu bytes)",
	   want);
	while (got < want) {
		size_t n = want - got < sizeof chunk ? want - got : sizeof chunk;

		if (read_within(fd, chunk, n, HANG_MS) < 0)
			break;
		got += n;
	}
	is_int(got, want, "read late, the snapshot arrives whole");
	close(fd);
}

/* Reads up to n answer lines from fd through buf, each wait bounded by
 * HANG_MS: how many began {"ok":true before the first that did not, or
 * before the answers stopped. */
static int ok_lines(int fd, int n, char *buf, size_t len)
{
	static const char want[] = "{\"ok\":true";
	char start[sizeof want] = "";
	size_t at = 0; /* bytes of the current line's start kept */
	int good = 0;

	while (good < n && read_within(fd, buf, 1, HANG_MS) == 0) {
		ssize_t r = read(fd, buf + 1, len - 1);
		size_t got = 1 + (r > 0 ? (size_t)r : 0);

		for (size_t i = 0; i < got && good < n; i++) {
			if (buf[i] == '\n') {
				if (at < sizeof want - 1 ||
				    memcmp(start, want, sizeof want - 1))
					return good;
				good++;
				at = 0;
			} else if (at < sizeof want - 1) {
				start[at++] = buf[i];
			}
		}
	}
	return good;
}

static void deaf_client(void)
{
	static const char req[] = "{\"op\":\"list\",\"path\":\"allocations\"}\n";
	char *line = malloc(1 << 20);
	int fd = ctl_connect(), sent = 0, answers = 0;

	if (!ok(fd >= 0 && line, "a client connects")) {
		free(line);
		return;
	}
	for (int i = 0; i < 200; i++)
		if (write(fd, req, sizeof req - 1) == (ssize_t)sizeof req - 1)
			sent++;
	is_int(sent, 200, "and sends 200 requests, reading no answer");
	ok(answering(fd), "the server begins answering them");
	ok(hello_answered(), "another client is answered");
	/* Each answer lists the 30000 ids: far more than a socket holds. */
	answers = ok_lines(fd, sent, line, 1 << 20);
	is_int(answers, sent, "read late, every answer arrives, each ok");
	free(line);
	close(fd);
}

static void empty_line(void)
{
	char buf[512];
	int fd = ctl_connect();

	if (!ok(fd >= 0, "a client connects"))
		return;
	ok(write(fd, "\n", 1) == 1, "and sends an empty line");
	answer_within(fd, 2000, buf, sizeof buf);
	ok(strstr(buf, "\"ok\":false") && strstr(buf, "\"errno\":22"),
	   "it is answered: errno 22 (got: %s)", buf);
	ok(strstr(ctl_line(fd, "{\"op\":\"hello\"}", buf, sizeof buf),
		  "\"ok\":true") != NULL, "and the connection stays usable");
	close(fd);
}

/* A child that opens n connections and says hello on each; says on out
 * how many of them the server refused or closed, once each is answered or
 * closed (each wait bounded by HANG_MS), and holds the rest until killed.
 * When it has said, the server has taken every one of its connections. */
static pid_t hoarder(int n, int out)
{
	pid_t pid;
	int *fds, closed = 0;

	fflush(stdout);
	if ((pid = fork()) != 0)
		return pid;
	if (!(fds = calloc((size_t)n, sizeof *fds)))
		_exit(1);
	for (int i = 0; i < n; i++)
		/* A connection the server refused may be closed before the
		 * hello: that is EPIPE, not a SIGPIPE that kills the child. */
		if ((fds[i] = connect_server()) < 0 ||
		    send(fds[i], "{\"op\":\"hello\"}\n", 15, MSG_NOSIGNAL) != 15)
			closed++;
	for (int i = 0; i < n; i++) {
		struct pollfd p = { .fd = fds[i], .events = POLLIN };
		char c;

		if (fds[i] >= 0 && poll(&p, 1, HANG_MS) == 1 &&
		    read(fds[i], &c, 1) <= 0)
			closed++;
	}
	if (write(out, &closed, sizeof closed) != sizeof closed)
		_exit(1);
	pause();
	_exit(0);
}

static void stop(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
}

static void idle_flood_from_one_process(void)
{
	int pipefd[2], closed = -1;
	pid_t pid;

	if (pipe(pipefd) < 0)
		return;
	pid = hoarder(200, pipefd[1]);
	close(pipefd[1]); /* a child that dies is an end of file */
	if (read_within(pipefd[0], &closed, sizeof closed, 2 * HANG_MS) < 0)
		closed = -1;
	ok(closed >= 200 - 8, "a process opening 200 connections keeps 8 at "
	   "most (%d closed)", closed);
	ok(hello_answered(), "another process is still served");
	stop(&pid, 1);
	close(pipefd[0]);
}

static void full_table(void)
{
	enum { PROCS = 40, EACH = 8 };
	pid_t pids[PROCS];
	int pipefd[2], closed, reports;

	if (pipe(pipefd) < 0)
		return;
	for (int i = 0; i < PROCS; i++)
		pids[i] = hoarder(EACH, pipefd[1]);
	close(pipefd[1]); /* a child that dies is an end of file */
	for (reports = 0; reports < PROCS; reports++)
		if (read_within(pipefd[0], &closed, sizeof closed, 2 * HANG_MS) < 0)
			break;
	is_int(reports, PROCS, "%d processes each open %d connections, and "
	       "the server takes every one", PROCS, EACH);
	ok(hello_answered(), "with %d processes holding %d connections each, a "
	   "newcomer is served", PROCS, EACH);
	stop(pids, PROCS);
	close(pipefd[0]);
}

int main(void)
{
	static CUdeviceptr p[NALLOCS];
	CUcontext ctx;
	int n = 0;

	if (!getenv("CUEMU_RUNDIR")) {
		printf("1..0 # SKIP needs CUEMU_RUNDIR, as make check sets\n");
		return 0;
	}
	unsetenv("CUEMU_CONTROL");
	server_pid = getpid();
	if (cuInit(0) != CUDA_SUCCESS ||
	    cuDevicePrimaryCtxRetain(&ctx, 0) != CUDA_SUCCESS ||
	    cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
		printf("Bail out! no machine\n");
		return 1;
	}
	while (n < NALLOCS && cuMemAlloc(&p[n], 4096) == CUDA_SUCCESS)
		n++;
	is_int(n, NALLOCS, "the process holds %d allocations", NALLOCS);

	slow_snapshot_reader();
	deaf_client();
	empty_line();
	idle_flood_from_one_process();
	full_table();

	for (int i = 0; i < n; i++)
		cuMemFree(p[i]);
	return done_testing();
}
