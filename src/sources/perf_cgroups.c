/* SPDX-License-Identifier: GPL-2.0-only */
/* perf_cgroups.c - the live machine's cgroups (perf stat -G): the perf_event hierarchy
 * lists them (machine/cgroupfs.h), perf_event_open counts one on every CPU counted, with
 * the cgroup's descriptor as the pid and PERF_FLAG_PID_CGROUP, as perf does: a counter per
 * CPU and event, which is what the view's cost says. A row's number is its path's in the
 * probe's set (base/str_ids.h), and its label that path, kept for the probe's life. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/str_ids.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/procstat.h"
#include "sources/cgroupfs.h"
#include "sources/sources.h"
#include "sources/task_counters.h"

struct cgroup_probe {
	char *root;
	struct cgroupfs fs;
	char **named; /* -G's, relative to the mount; NULL: every cgroup */
	int nnamed;
	struct cpulist cpus;
	struct fd_spares spares; /* for the listing, whatever the counters took */
	struct str_ids paths;  /* a row's number: its path's, shown "/" + path, escaped */
	struct task_events events; /* what each is on this machine */
	bool no_core;
	char *note;
	struct procstat *stat; /* the machine's busy time: the root's */
};

static int by_pid(const void *a, const void *b)
{
	const struct task_sample *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void add_row(struct cgroup_probe *cp, const struct cgroup_node *node, struct task_sample **out, int *n, int *cap)
{
	int id = str_ids_get(&cp->paths, node->rel);
	if (!str_ids_shown(&cp->paths, id)) { /* a directory's name may hold any byte */
		char *esc = str_escape_controls(node->rel), *label = xasprintf("/%s", esc);
		str_ids_set_shown(&cp->paths, id, label);
		free(label);
		free(esc);
	}
	grow_array(out, cap, *n + 1, sizeof(**out));
	(*out)[(*n)++] = (struct task_sample){ .pid = id, .tgid = id, .threads = node->nprocs, .cpu_ns = node->cpu_ns,
					      .label = str_ids_shown(&cp->paths, id) };
}

/* The root cgroup's CPU time: /proc/stat's busy time of every CPU (cgroup2's root has
 * no cpu.stat usage, and a sum of the processes now loses those that ended: under a
 * load of short ones the root fell below its children), else what the walk found */
static uint64_t machine_busy_ns(struct cgroup_probe *cp, uint64_t walked)
{
	if (!cp->stat)
		cp->stat = procstat_new(cp->root);
	long hz = sysconf(_SC_CLK_TCK);
	if (!cp->stat || !procstat_update(cp->stat) || hz <= 0)
		return walked;
	return cp->stat->all.busy * (uint64_t)(1000000000 / hz);
}

/* The root (the machine's whole, perf's -G /) and -G's cgroups, or every cgroup */
static int cg_list(void *ctx, uint64_t now_ns, bool threads, struct task_sample **out)
{
	struct cgroup_probe *cp = ctx;
	(void)now_ns;
	(void)threads; /* a cgroup's row is the cgroup */
	struct task_sample *procs = NULL;
	fd_spares_hold(&cp->spares, false);
	int nprocs = proc_tasks_read(cp->root, &procs), n = 0, cap = 0;
	qsort(procs, (size_t)nprocs, sizeof(*procs), by_pid);
	*out = NULL;
	for (int i = -1; i < (cp->named ? cp->nnamed : 0); i++) {
		struct cgroup_node *nodes = NULL;
		int nn = cgroupfs_tree(&cp->fs, i < 0 ? "" : cp->named[i], procs, nprocs, &nodes);
		if (i < 0 && nn > 0) /* the root: the machine's busy time, with what ended processes used */
			nodes[0].cpu_ns = machine_busy_ns(cp, nodes[0].cpu_ns);
		for (int k = 0; k < (cp->named ? (nn > 0) : nn); k++)
			add_row(cp, &nodes[k], out, &n, &cap);
		cgroupfs_nodes_free(nodes, nn);
	}
	free(procs);
	fd_spares_hold(&cp->spares, true);
	return n;
}

static char *refused(int err, const char *label)
{
	if (err == EACCES || err == EPERM)
		return xasprintf("%s: permission denied (a cgroup is counted on every CPU: perf_event_paranoid 0 or "
				 "CAP_PERFMON)", label);
	if (err == EMFILE || err == ENFILE)
		return xasprintf("%s: too many open files (a counter per CPU and event: raise ulimit -n, or count fewer "
				 "cgroups)", label);
	return xasprintf("%s: %s", label, strerror(err));
}

static void *cg_open(void *ctx, int id, bool thread, int *fds, char **why)
{
	struct cgroup_probe *cp = ctx;
	(void)thread;
	*fds = 0;
	const char *label = str_ids_shown(&cp->paths, id);
	char *dir = path_join(cp->fs.mount, str_ids_name(&cp->paths, id));
	int cg = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (cg < 0) {
		*why = errno == ENOENT ? xasprintf("%s: removed", label) : refused(errno, label);
		return NULL;
	}
	struct task_counters *tc = xcalloc(1, sizeof(*tc));
	task_counters_init(tc, cp->cpus.n);
	int err = 0;
	for (int c = 0; c < cp->cpus.n; c++) {
		int e = task_counters_open_row(tc, &cp->events, c, cg, cp->cpus.cpu[c], false, PERF_FLAG_PID_CGROUP, &cp->no_core);
		err = err ? err : e;
	}
	close(cg); /* each counter holds the cgroup */
	*fds = task_counters_open_count(tc);
	if (err && !*fds) {
		*why = refused(err, label);
		task_counters_close(tc);
		free(tc);
		return NULL;
	}
	if (err) /* some of it (descriptors ran out part way): said */
		*why = xasprintf("%d of %d counters open: %s", *fds, cp->cpus.n * task_events_here(&cp->events), strerror(err));
	return tc;
}

static const char *cg_note(void *ctx)
{
	struct cgroup_probe *cp = ctx;
	if (!cp->note && cp->no_core)
		cp->note = xasprintf("%s (%s); no core PMU here: IPC and misses need one, CPU%% is task-clock's",
				     cp->fs.shown, cp->fs.v2 ? "cgroup2" : "perf_event");
	else if (!cp->note)
		cp->note = xasprintf("%s (%s)", cp->fs.shown, cp->fs.v2 ? "cgroup2" : "perf_event");
	return cp->note;
}

static void cg_destroy(void *ctx)
{
	struct cgroup_probe *cp = ctx;
	for (int i = 0; i < cp->nnamed; i++)
		free(cp->named[i]);
	free(cp->named);
	cgroupfs_done(&cp->fs);
	fd_spares_hold(&cp->spares, false);
	cpulist_free(&cp->cpus);
	str_ids_free(&cp->paths);
	free(cp->note);
	procstat_free(cp->stat);
	free(cp->root);
	free(cp);
}

static const struct task_probe_ops cgroup_ops = { cg_list, cg_open, task_counters_probe_read, task_counters_probe_close,
						  cg_destroy, cg_note, NULL };

struct task_probe *cgroup_probe_live_new(const char *proc_root, const struct machine *m, const char *const *names,
					 int nnames, const struct cpulist *cpus, char **why)
{
	struct cgroup_probe *cp = xcalloc(1, sizeof(*cp));
	task_events_of(m, &cp->events);
	cp->root = xstrdup(proc_root && *proc_root ? proc_root : "/");
	fd_spares_init(&cp->spares);
	if (cgroupfs_find(cp->root, &cp->fs, why) < 0) {
		cg_destroy(cp);
		return NULL;
	}
	cpulist_copy(&cp->cpus, cpus);
	if (names) {
		cp->named = xcalloc((size_t)(nnames ? nnames : 1), sizeof(char *));
		for (; cp->nnamed < nnames; cp->nnamed++)
			if (!(cp->named[cp->nnamed] = cgroupfs_resolve(&cp->fs, names[cp->nnamed], why))) {
				cg_destroy(cp);
				return NULL;
			}
	}
	struct task_probe *p = xcalloc(1, sizeof(*p));
	p->ops = &cgroup_ops;
	p->ctx = cp;
	p->root = cp->root;
	return p;
}
