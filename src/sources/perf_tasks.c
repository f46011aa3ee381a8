/* SPDX-License-Identifier: GPL-2.0-only */
/* perf_tasks.c - the live machine's tasks: /proc lists them, perf_event_open counts one
 * (the kernel's generic hardware events, each on every thread of the process, inherited
 * by what they start: tiptop's way). A CPU without them (a VM without a virtual PMU)
 * leaves the figures empty; the task is still listed by its CPU time. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "engine/tasks.h"
#include "sources/sources.h"
#include "sources/task_counters.h"

/* a process of many threads is counted on its first ones: the cost stays bounded */
#define MAX_THREADS 64

struct live_probe {
	char *root;
	struct fd_spares spares;
	struct task_events events; /* what each is on this machine */
	bool no_core;     /* the CPU has no hardware events (a VM without a virtual PMU) */
	char *list_error; /* /proc could not be listed, or NULL */
};

/* The threads of pid now (at most MAX_THREADS), *total all of them; -errno where its
 * task directory cannot be read (the task ended, no descriptor left). */
static int threads_of(const char *root, int pid, int *tids, int *total)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	char *dir = path_join(root, path);
	DIR *d = opendir(dir);
	free(dir);
	int n = 0;
	*total = 0;
	if (!d)
		return -errno;
	for (struct dirent *de; (de = readdir(d));)
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9') {
			if (n < MAX_THREADS)
				tids[n++] = atoi(de->d_name);
			(*total)++;
		}
	closedir(d);
	return n;
}

static char *refused(int err, int pid)
{
	if (err == EACCES || err == EPERM)
		return xasprintf("pid %d: permission denied (another user's task; see kernel.perf_event_paranoid)", pid);
	if (err == EMFILE || err == ENFILE)
		return xasprintf("pid %d: too many open files (raise ulimit -n, or show fewer tasks: --tasks N)", pid);
	if (err == ESRCH)
		return xasprintf("pid %d: ended", pid);
	return xasprintf("pid %d: %s", pid, strerror(err));
}

static void *live_open(void *ctx, int pid, bool thread, int *fds, char **why)
{
	struct live_probe *lp = ctx;
	int tids[MAX_THREADS] = { pid }, total = 1;
	int nthreads = thread ? 1 : threads_of(lp->root, pid, tids, &total);
	*fds = 0;
	if (nthreads < 0) {
		*why = refused(-nthreads == ENOENT ? ESRCH : -nthreads, pid);
		return NULL;
	}
	struct task_counters *tc = xcalloc(1, sizeof(*tc));
	task_counters_init(tc, nthreads);
	int err = 0;
	for (int th = 0; th < nthreads; th++) {
		/* inherit: a process's row counts the threads and children it starts; a thread's
		 * own row does not (its new threads are rows of their own) */
		int e = task_counters_open_row(tc, &lp->events, th, tids[th], -1, !thread, 0, &lp->no_core);
		err = err ? err : e; /* the task's own refusal */
	}
	*fds = task_counters_open_count(tc);
	if (err && !*fds) {
		*why = refused(err, pid);
		task_counters_close(tc);
		free(tc);
		return NULL;
	}
	int counted = 0;
	for (int th = 0; th < nthreads; th++)
		counted += tc->fd[th][TASK_CLOCK] >= 0;
	if (err && counted < total) /* some of it: said, with why the rest is not */
		*why = xasprintf("%d of its %d threads counted: %s", counted, total, strerror(err));
	else if (total > nthreads)
		*why = xasprintf("%d of its %d threads counted", nthreads, total);
	return tc;
}

static int live_list(void *ctx, uint64_t now_ns, bool threads, struct task_sample **out)
{
	(void)now_ns;
	struct live_probe *lp = ctx;
	fd_spares_hold(&lp->spares, false);
	errno = 0;
	int n = threads ? proc_threads_read(lp->root, out) : proc_tasks_read(lp->root, out);
	free(lp->list_error);
	lp->list_error = n == 0 && errno ? xasprintf("cannot list %s/proc: %s", strcmp(lp->root, "/") ? lp->root : "",
						     strerror(errno))
					 : NULL;
	fd_spares_hold(&lp->spares, true);
	return n;
}

static const char *live_note(void *ctx)
{
	struct live_probe *lp = ctx;
	if (lp->list_error)
		return lp->list_error;
	return lp->no_core ? "no core PMU here (a VM without a virtual PMU?): IPC and misses need one; CPU% is task-clock's"
			   : NULL;
}

static void live_destroy(void *ctx)
{
	struct live_probe *lp = ctx;
	fd_spares_hold(&lp->spares, false);
	free(lp->list_error);
	free(lp->root);
	free(lp);
}

static void live_cgroup(void *ctx, int pid, char *buf, int len)
{
	struct live_probe *lp = ctx;
	proc_task_cgroup(lp->root, pid, buf, len);
}

static const struct task_probe_ops live_ops = { live_list, live_open, task_counters_probe_read, task_counters_probe_close,
					       live_destroy, live_note, live_cgroup };

struct task_probe *task_probe_live_new(const char *proc_root, const struct machine *m)
{
	struct live_probe *lp = xcalloc(1, sizeof(*lp));
	task_events_of(m, &lp->events);
	lp->root = xstrdup(proc_root && *proc_root ? proc_root : "/");
	fd_spares_init(&lp->spares);
	fd_spares_hold(&lp->spares, true);
	struct task_probe *p = xcalloc(1, sizeof(*p));
	p->ops = &live_ops;
	p->ctx = lp;
	p->root = lp->root;
	return p;
}
