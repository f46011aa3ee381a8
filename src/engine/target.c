/* SPDX-License-Identifier: GPL-2.0-only */
/* target.c - who the core events count: the machine, a command held at its gate until
 * the counters are open, or running tasks and their threads. */
#include "engine/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool target_parse_ids(const char *text, pid_t **ids, int *n, char **why)
{
	*ids = NULL;
	*n = 0;
	const char *p = text;
	while (*p) {
		char *end;
		errno = 0;
		long v = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;
		if (v <= 0 || errno || v > 0x3fffffff || (*end && *end != ',')) {
			*why = xasprintf("'%s' is not a list of process or thread IDs (comma-separated numbers)", text);
			free(*ids);
			*ids = NULL;
			*n = 0;
			return false;
		}
		*ids = xrealloc(*ids, sizeof(pid_t) * (size_t)(*n + 1));
		(*ids)[(*n)++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	if (!*n)
		*why = xasprintf("'%s' names no ID", text);
	return *n > 0;
}

static void add_tid(struct target *t, pid_t tid)
{
	for (int i = 0; i < t->ntids; i++)
		if (t->tids[i] == tid)
			return; /* -p 42 -t 43 where 43 is 42's */
	t->tids = xrealloc(t->tids, sizeof(pid_t) * (size_t)(t->ntids + 1));
	t->tids[t->ntids++] = tid;
}

/* Every thread of process pid now (threads that start later are counted through inherit). */
static bool add_threads(struct target *t, const char *proc_root, pid_t pid)
{
	char *dir = xasprintf("%s/proc/%d/task", proc_root, (int)pid);
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return false;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			add_tid(t, (pid_t)atoi(de->d_name));
	closedir(d);
	return true;
}

static bool thread_exists(const char *proc_root, pid_t tid)
{
	char *path = xasprintf("%s/proc/%d", proc_root, (int)tid); /* /proc lists threads by TID too */
	struct stat st;
	bool ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	return ok;
}

int target_tasks(struct target *t, const char *proc_root, const pid_t *ids, int nids, bool threads, char **why)
{
	const char *root = proc_root && strcmp(proc_root, "/") ? proc_root : "";
	t->kind = TARGET_TASKS;
	for (int i = 0; i < nids; i++) {
		if (threads ? !thread_exists(root, ids[i]) : !add_threads(t, root, ids[i])) {
			*why = xasprintf("%s %d: no such %s (it is not running, or %s/proc is not this machine's)",
					 threads ? "-t" : "-p", (int)ids[i], threads ? "thread" : "process", root);
			return -1;
		}
		if (threads)
			add_tid(t, ids[i]);
	}
	char list[256] = "";
	for (int i = 0; i < nids && strlen(list) < sizeof(list) - 16; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", i ? "," : "", (int)ids[i]);
	free(t->what);
	t->what = xasprintf("%s %s%s", threads ? (nids > 1 ? "threads" : "thread") : (nids > 1 ? "pids" : "pid"), list,
			    strlen(list) >= sizeof(list) - 16 ? ",..." : "");
	return 0;
}

/* In the child: wait at the gate, then become the command. Never returns. */
static void child_at_gate(int gate, int err_fd, char *const argv[], bool quiet)
{
	int null = quiet ? open("/dev/null", O_RDWR) : -1;
	for (int fd = 0; null >= 0 && fd < 3; fd++)
		dup2(null, fd);
	if (null > 2)
		close(null);
	/* what pmutop ignores the command must not (ignored dispositions survive exec) */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
	char go;
	if (read(gate, &go, 1) != 1)
		_exit(127); /* pmutop gave up before counting: no command */
	close(gate);
	execvp(argv[0], argv);
	int e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0) {
		/* the parent is gone: nobody to tell */
	}
	_exit(127);
}

int target_spawn(struct target *t, char *const argv[], bool quiet, char **why)
{
	int gate[2], err[2];
	if (pipe2(gate, O_CLOEXEC) < 0)
		goto fail;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(gate[0]);
		close(gate[1]);
		goto fail;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(gate[1]);
		close(err[0]);
		child_at_gate(gate[0], err[1], argv, quiet);
	}
	close(gate[0]);
	close(err[1]);
	if (pid < 0) {
		close(gate[1]);
		close(err[0]);
		goto fail;
	}
	t->kind = TARGET_COMMAND;
	t->child = pid;
	t->gate_fd = gate[1];
	t->exec_err_fd = err[0];
	add_tid(t, pid);
	char cmd[200] = "";
	for (int i = 0; argv[i] && strlen(cmd) < sizeof(cmd) - 8; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), "%s%s", i ? " " : "", argv[i]);
	free(t->what);
	t->what = xasprintf("'%s' (pid %d)", cmd, (int)pid);
	return 0;
fail:
	*why = xasprintf("cannot start '%s': %s", argv[0], strerror(errno));
	return -1;
}

int target_release(struct target *t, char **why)
{
	if (t->kind != TARGET_COMMAND || t->gate_fd < 0)
		return 0;
	char go = 1;
	ssize_t w = write(t->gate_fd, &go, 1);
	close(t->gate_fd);
	t->gate_fd = -1;
	int e = 0;
	ssize_t r;
	do /* EOF: exec closed it (close-on-exec); an int: exec's errno */
		r = read(t->exec_err_fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(t->exec_err_fd);
	t->exec_err_fd = -1;
	t->started_ns = monotonic_ns();
	if (w == 1 && r != (ssize_t)sizeof(e))
		return 0;
	t->exec_errno = w == 1 ? e : EPIPE;
	waitpid(t->child, &t->wait_status, 0);
	t->ended = true;
	t->ended_ns = t->started_ns;
	*why = xasprintf("cannot run %s: %s", t->what, w == 1 ? strerror(e) : "it did not wait for its counters");
	return -1;
}

/* Have all the tasks -p and -t name ended (their threads gone, as perf stat -p sees)? */
static bool tasks_gone(const struct target *t)
{
	for (int i = 0; i < t->ntids; i++) {
		/* a zombie (Z) or dead (X) task has ended, whether or not its parent reaped it */
		char path[64], buf[256];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)t->tids[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		if (fd >= 0)
			close(fd);
		buf[n > 0 ? n : 0] = '\0';
		const char *paren = strrchr(buf, ')'); /* after the command's name, which may hold any byte */
		if (paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X')
			return false;
	}
	return true;
}

bool target_reap(struct target *t)
{
	if (t->kind == TARGET_TASKS && !t->ended && tasks_gone(t)) {
		t->ended = true;
		t->ended_ns = monotonic_ns();
		return true;
	}
	if (t->kind != TARGET_COMMAND || t->ended)
		return t->ended;
	pid_t r = waitpid(t->child, &t->wait_status, WNOHANG);
	if (r == t->child) {
		t->ended = true;
		t->ended_ns = monotonic_ns();
	}
	return t->ended;
}

int target_exit_code(const struct target *t)
{
	if (!t->ended || t->kind != TARGET_COMMAND)
		return 0;
	if (WIFEXITED(t->wait_status))
		return WEXITSTATUS(t->wait_status);
	if (WIFSIGNALED(t->wait_status))
		return 128 + WTERMSIG(t->wait_status);
	return 1;
}

char *target_end_text(const struct target *t)
{
	if (!t->ended)
		return xstrdup("running");
	if (t->kind == TARGET_TASKS)
		return xstrdup(t->ntids > 1 ? "ended (every thread)" : "ended");
	if (WIFSIGNALED(t->wait_status))
		return xasprintf("killed by signal %d (%s)", WTERMSIG(t->wait_status), strsignal(WTERMSIG(t->wait_status)));
	return xasprintf("exited with status %d", target_exit_code(t));
}

/* A command still running when pmutop leaves: asked to end (SIGTERM), then told (SIGKILL)
 * if it has not within two seconds; reaped either way. */
static void end_command(struct target *t)
{
	if (t->gate_fd >= 0) { /* held: closing the gate ends it */
		close(t->gate_fd);
		t->gate_fd = -1;
	}
	if (t->exec_err_fd >= 0)
		close(t->exec_err_fd);
	t->exec_err_fd = -1;
	if (t->ended || t->child <= 0)
		return;
	kill(t->child, SIGTERM);
	for (int i = 0; i < 200 && !target_reap(t); i++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	if (!t->ended) {
		kill(t->child, SIGKILL);
		waitpid(t->child, &t->wait_status, 0);
		t->ended = true;
	}
}

void target_free(struct target *t)
{
	if (!t)
		return;
	if (t->kind == TARGET_COMMAND)
		end_command(t);
	free(t->tids);
	free(t->what);
	memset(t, 0, sizeof(*t));
	t->gate_fd = t->exec_err_fd = -1;
}
