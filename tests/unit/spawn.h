/*
 * spawn.h - a second process for a unit test without calling the API after
 * fork(), which libcuemu(3) calls unsupported: the test program runs itself
 * again, by posix_spawn of its own path, as "PROGRAM --child ROLE", with
 * extra environment and its stdout and stderr in files. main() hands such
 * a run to the role's function (child_role()). Every wait is bounded.
 *
 * A descriptor the role needs (a socket to its parent) is inherited: made
 * without FD_CLOEXEC, its number given in the environment.
 */
#ifndef CUEMU_TEST_SPAWN_H
#define CUEMU_TEST_SPAWN_H

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <poll.h>

extern char **environ;

/* This program's path as it was started, kept by child_role(). Not
 * /proc/self/exe: under valgrind that is the tool, not this program.
 * Global: main() sees argv, spawn_self() does not. */
static const char *spawn_argv0;

/* Starts this program as "--child role" with env (NULL ended; NAME=value
 * is set on top of ours, a NAME alone is removed from it; NULL: none), stdout into out and stderr into
 * err (NULL: inherited). The pid, or -1. */
static inline pid_t spawn_self(const char *role, char *const env[],
			       const char *out, const char *err)
{
	const char *self = spawn_argv0 && strchr(spawn_argv0, '/') ?
			   spawn_argv0 : "/proc/self/exe";
	char *argv[] = { (char *)self, "--child", (char *)role, NULL };
	posix_spawn_file_actions_t fa;
	size_t n = 0, k = 0;
	char **envp;
	pid_t pid;
	int rc;

	while (environ[n])
		n++;
	while (env && env[k])
		k++;
	if (!(envp = calloc(n + k + 1, sizeof *envp)))
		return -1;
	/* Ours first, minus what env replaces; then env. */
	k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		int replaced = 0;

		for (size_t j = 0; env && env[j]; j++)
			if (!strncmp(env[j], environ[i], len) &&
			    (env[j][len] == '=' || env[j][len] == '\0'))
				replaced = 1;
		if (!replaced)
			envp[k++] = environ[i];
	}
	for (size_t j = 0; env && env[j]; j++)
		if (strchr(env[j], '='))
			envp[k++] = env[j];
	envp[k] = NULL;
	posix_spawn_file_actions_init(&fa);
	if (out)
		posix_spawn_file_actions_addopen(&fa, 1, out,
						 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (err)
		posix_spawn_file_actions_addopen(&fa, 2, err,
						 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fflush(stdout);
	rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	free(envp);
	return rc ? -1 : pid;
}

/* Waits at most `seconds` for pid; kills it when it is not done by then.
 * Its wait status (see waitpid(2)), or -1 when it had to be killed. */
static inline int wait_status_bounded(pid_t pid, int seconds)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int st;

	for (int i = 0; i < seconds * 100; i++) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return st;
		if (r < 0)
			return -1;
		nanosleep(&tick, NULL);
	}
	printf("# child %d did not finish in %d s: killed\n", (int)pid,
	       seconds);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* Waits at most `seconds` for pid; kills it when it is not done by then.
 * Its exit status (0-255), or -1 when it died of a signal or was killed. */
static inline int wait_bounded(pid_t pid, int seconds)
{
	int st = wait_status_bounded(pid, seconds);

	return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Whether fd has something to read (or its end) within `seconds`. */
static inline int readable_within(int fd, int seconds)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, seconds * 1000) == 1;
}

/* Runs role to its end, at most `seconds`: its exit status, or -1. */
static inline int run_self(const char *role, char *const env[],
			   const char *out, const char *err, int seconds)
{
	pid_t pid = spawn_self(role, env, out, err);

	return pid < 0 ? -1 : wait_bounded(pid, seconds);
}

/* The role this run was started for ("--child ROLE"), or NULL. */
static inline const char *child_role(int argc, char **argv)
{
	spawn_argv0 = argv[0];
	return argc == 3 && !strcmp(argv[1], "--child") ? argv[2] : NULL;
}

/* "key value" lines of a child's output file: the value of key, or dflt. */
static inline long long child_value(const char *file, const char *key,
				    long long dflt)
{
	char line[256];
	size_t len = strlen(key);
	long long v = dflt;
	FILE *f = fopen(file, "r");

	if (!f)
		return dflt;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, len) && line[len] == ' ')
			v = strtoll(line + len + 1, NULL, 0);
	fclose(f);
	return v;
}

#endif
