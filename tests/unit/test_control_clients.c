/*
 * test_control_clients.c - the control server under clients that
 * misbehave: one that asks for a large snapshot and never reads it, one
 * that sends requests and reads no answer, an empty line, a process that
 * opens hundreds of idle connections, and enough processes to fill the
 * table. Whatever they do, another client is still answered, and promptly.
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

/* How long a well-behaved client may wait for its answer while others
 * misbehave: far below the seconds a stalled server used to take. */
#define PROMPT_MS 1000

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
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *dir = getenv("CUEMU_RUNDIR");
	int fd;

	snprintf(a.sun_path, sizeof a.sun_path, "%s/%d.sock", dir,
		 (int)server_pid);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			 0)) < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* hello on a fresh connection, answered within PROMPT_MS. */
static int hello_prompt(void)
{
	char buf[4096];
	int fd = connect_server();
	int answered;

	if (fd < 0)
		return 0;
	answered = write(fd, "{\"op\":\"hello\"}\n", 15) == 15 &&
		   strstr(answer_within(fd, PROMPT_MS, buf, sizeof buf),
			  "\"ok\":true") != NULL;
	close(fd);
	return answered;
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
	usleep(100 * 1000);
	ok(hello_prompt(), "while it reads nothing, another client is answered "
	   "within %d ms", PROMPT_MS);
	answer_within(fd, 5000, head, sizeof head);
	sscanf(head, "{\"ok\":true,\"bytes\":%zu}", &want);
	ok(want > (1u << 20), "the snapshot it asked for is large (%zu bytes)",
	   want);
	while (got < want) {
		size_t n = want - got < sizeof chunk ? want - got : sizeof chunk;

		if (read_within(fd, chunk, n, 5000) < 0)
			break;
		got += n;
	}
	is_int(got, want, "read late, the snapshot arrives whole");
	close(fd);
}

static void deaf_client(void)
{
	static const char req[] = "{\"op\":\"get\",\"path\":\"allocations\"}\n";
	int fd = ctl_connect(), sent = 0;

	if (!ok(fd >= 0, "a client connects"))
		return;
	for (int i = 0; i < 200; i++)
		if (write(fd, req, sizeof req - 1) == (ssize_t)sizeof req - 1)
			sent++;
	ok(sent > 0, "and sends %d requests, reading no answer", sent);
	usleep(100 * 1000);
	ok(hello_prompt(), "another client is answered within %d ms",
	   PROMPT_MS);
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

/* A child that opens n connections, says on out how many of them the
 * server refused or closed, and holds the rest until killed. */
static pid_t hoarder(int n, int out)
{
	pid_t pid = fork();
	int *fds, closed = 0;

	if (pid != 0)
		return pid;
	if (!(fds = calloc((size_t)n, sizeof *fds)))
		_exit(1);
	for (int i = 0; i < n; i++)
		fds[i] = connect_server();
	usleep(300 * 1000);
	for (int i = 0; i < n; i++) {
		struct pollfd p = { .fd = fds[i], .events = POLLIN };
		char c;

		if (fds[i] < 0 || (poll(&p, 1, 0) == 1 &&
				   read(fds[i], &c, 1) <= 0))
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
	if (read_within(pipefd[0], &closed, sizeof closed, 5000) < 0)
		closed = -1;
	ok(closed >= 200 - 8, "a process opening 200 connections keeps 8 at "
	   "most (%d closed)", closed);
	ok(hello_prompt(), "another process is still served, within %d ms",
	   PROMPT_MS);
	stop(&pid, 1);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void full_table(void)
{
	enum { PROCS = 40, EACH = 8 };
	pid_t pids[PROCS];
	int pipefd[2], closed;

	if (pipe(pipefd) < 0)
		return;
	for (int i = 0; i < PROCS; i++)
		pids[i] = hoarder(EACH, pipefd[1]);
	for (int i = 0; i < PROCS; i++)
		if (read_within(pipefd[0], &closed, sizeof closed, 5000) < 0)
			break;
	ok(hello_prompt(), "with %d processes holding %d connections each, a "
	   "newcomer is served within %d ms", PROCS, EACH, PROMPT_MS);
	stop(pids, PROCS);
	close(pipefd[0]);
	close(pipefd[1]);
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
