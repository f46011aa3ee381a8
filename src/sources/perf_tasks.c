/* SPDX-License-Identifier: GPL-2.0-only */
/* perf_tasks.c - the live machine's tasks: /proc lists them, perf_event_open counts one
 * (the kernel's generic hardware events, each on every thread of the process, inherited
 * by what they start: tiptop's way). A CPU without them (a VM without a virtual PMU)
 * leaves the figures empty; the task is still listed by its CPU time. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <dirent.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "engine/tasks.h"
#include "sources/sources.h"

/* a process of many threads is counted on its first ones: the cost stays bounded */
#define MAX_THREADS 64

static const uint32_t type_of[TASK_EVENTS] = {
	[TASK_CLOCK] = PERF_TYPE_SOFTWARE, [TASK_CYCLES] = PERF_TYPE_HARDWARE, [TASK_INSTRUCTIONS] = PERF_TYPE_HARDWARE,
	[TASK_LLC_MISSES] = PERF_TYPE_HARDWARE, [TASK_BRANCH_MISSES] = PERF_TYPE_HARDWARE,
};
static const uint64_t generic[TASK_EVENTS] = {
	[TASK_CLOCK] = PERF_COUNT_SW_TASK_CLOCK,
	[TASK_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
	[TASK_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
	[TASK_LLC_MISSES] = PERF_COUNT_HW_CACHE_MISSES,
	[TASK_BRANCH_MISSES] = PERF_COUNT_HW_BRANCH_MISSES,
};

struct task_fds {
	int nthreads;
	int fd[MAX_THREADS][TASK_EVENTS]; /* -1: not counted */
};

/* descriptors held back while tasks' counters open, so /proc can still be listed when
 * they have taken all the others (a low ulimit -n) */
#define SPARE_FDS 4

struct live_probe {
	char *root;
	int spare[SPARE_FDS];
	bool no_core;     /* the CPU has no hardware events (a VM without a virtual PMU) */
	char *list_error; /* /proc could not be listed, or NULL */
};

static void hold_spares(struct live_probe *lp, bool hold)
{
	for (int i = 0; i < SPARE_FDS; i++) {
		if (hold && lp->spare[i] < 0)
			lp->spare[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		else if (!hold && lp->spare[i] >= 0) {
			close(lp->spare[i]);
			lp->spare[i] = -1;
		}
	}
}

/* One event of tid; inherit: and of the threads and children it starts (a process's
 * row), not for a thread's own row, whose new threads are rows of their own */
static int open_event(int tid, uint32_t type, uint64_t config, bool inherit)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.inherit = inherit;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

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
	struct task_fds *tf = xcalloc(1, sizeof(*tf));
	int tids[MAX_THREADS] = { pid }, total = 1;
	tf->nthreads = thread ? 1 : threads_of(lp->root, pid, tids, &total);
	*fds = 0;
	if (tf->nthreads < 0) {
		*why = refused(-tf->nthreads == ENOENT ? ESRCH : -tf->nthreads, pid);
		free(tf);
		return NULL;
	}
	int err = 0;
	bool any = false, core = false;
	for (int th = 0; th < tf->nthreads; th++)
		for (int e = 0; e < TASK_EVENTS; e++) {
			tf->fd[th][e] = open_event(tids[th], type_of[e], generic[e], !thread);
			if (tf->fd[th][e] >= 0) {
				(*fds)++;
				any = true;
				core |= e != TASK_CLOCK;
			} else if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV) {
				lp->no_core |= e != TASK_CLOCK;
			} else if (!err) {
				err = errno; /* not "no such event here": the task's own refusal */
			}
		}
	if (err && !any) {
		*why = refused(err, pid);
		for (int th = 0; th < tf->nthreads; th++)
			for (int e = 0; e < TASK_EVENTS; e++)
				if (tf->fd[th][e] >= 0)
					close(tf->fd[th][e]);
		free(tf);
		return NULL;
	}
	int counted = 0;
	for (int th = 0; th < tf->nthreads; th++)
		counted += tf->fd[th][TASK_CLOCK] >= 0;
	if (err && counted < total) /* some of it: said, with why the rest is not */
		*why = xasprintf("%d of its %d threads counted: %s", counted, total, strerror(err));
	else if (total > tf->nthreads)
		*why = xasprintf("%d of its %d threads counted", tf->nthreads, total);
	(void)core; /* no core PMU (a VM without one): its figures stay empty, said once in the title */
	return tf;
}

static bool live_read(void *ctx, void *handle, uint64_t now_ns, struct task_counts *out)
{
	(void)ctx;
	(void)now_ns;
	struct task_fds *tf = handle;
	for (int e = 0; e < TASK_EVENTS; e++) {
		bool counted = false;
		double sum = 0;
		for (int th = 0; th < tf->nthreads; th++) {
			uint64_t v[3];
			if (tf->fd[th][e] < 0 || read(tf->fd[th][e], v, sizeof(v)) != (ssize_t)sizeof(v))
				continue;
			counted = true; /* scaled where the kernel multiplexed it */
			sum += v[2] && v[2] < v[1] ? (double)v[0] * ((double)v[1] / (double)v[2]) : (double)v[0];
		}
		out->v[e] = counted ? (uint64_t)sum : UINT64_MAX;
	}
	return true;
}

static void live_close(void *ctx, void *handle)
{
	(void)ctx;
	struct task_fds *tf = handle;
	for (int th = 0; th < tf->nthreads; th++)
		for (int e = 0; e < TASK_EVENTS; e++)
			if (tf->fd[th][e] >= 0)
				close(tf->fd[th][e]);
	free(tf);
}

static int live_list(void *ctx, uint64_t now_ns, bool threads, struct task_sample **out)
{
	(void)now_ns;
	struct live_probe *lp = ctx;
	hold_spares(lp, false);
	errno = 0;
	int n = threads ? proc_threads_read(lp->root, out) : proc_tasks_read(lp->root, out);
	free(lp->list_error);
	lp->list_error = n == 0 && errno ? xasprintf("cannot list %s/proc: %s", strcmp(lp->root, "/") ? lp->root : "",
						     strerror(errno))
					 : NULL;
	hold_spares(lp, true);
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
	hold_spares(lp, false);
	free(lp->list_error);
	free(lp->root);
	free(lp);
}

static const struct task_probe_ops live_ops = { live_list, live_open, live_read, live_close, live_destroy, live_note };

struct task_probe *task_probe_live_new(const char *proc_root)
{
	struct live_probe *lp = xcalloc(1, sizeof(*lp));
	lp->root = xstrdup(proc_root && *proc_root ? proc_root : "/");
	for (int i = 0; i < SPARE_FDS; i++)
		lp->spare[i] = -1;
	hold_spares(lp, true);
	struct task_probe *p = xcalloc(1, sizeof(*p));
	p->ops = &live_ops;
	p->ctx = lp;
	p->root = lp->root;
	return p;
}
