/* SPDX-License-Identifier: GPL-2.0-only */
/* source_perf.c - counting with perf_event_open through libperf.
 *
 * An instance's events are opened on its CPUs (the PMU's cpumask for uncore PMUs, every
 * online CPU for core and software events): each perf group (bind/event_groups.h: the
 * profile's `grouped = yes`, perf's weak groups per metric) in a libperf evlist of its own,
 * so that ratios are taken over the same time window, and the other events alone. A weak
 * group the kernel refuses (more events than counters) is said, and the engine opens it
 * again ungrouped, as perf does.
 *
 * A group is read with one read() of its leader (PERF_FORMAT_GROUP). libperf opens and owns every descriptor but offers no
 * group read (its perf_evsel__read() returns the leader's value only) and no descriptor:
 * so at open pmutop learns each counter's kernel id through libperf (PERF_FORMAT_ID),
 * finds the leader's descriptor among its own by PERF_EVENT_IOC_ID, and reads it itself;
 * the ids in the group's answer say which value is whose. If the descriptor cannot be
 * found, libperf reads each counter as before. */
#include <errno.h>
#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <stdio.h>
#include <dirent.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/diag.h"
#include "bind/event_groups.h"
#include "engine/session.h"
#include "engine/target.h"
#include "sources/sources.h"
#include "base/sysfs.h"
#include "base/util.h"

/* One perf group of an instance: its leader, and per CPU index the leader's descriptor
 * (-1: read each counter). */
struct perf_group {
	int leader;   /* group event */
	int nmembers; /* counters in the group on one CPU */
	int *leader_fd;
	uint64_t *buf; /* its last read's answer */
	bool read_ok;  /* ... on the CPU being read */
};

struct perf_instance {
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	struct perf_evsel **evsel; /* per group event, NULL where not opened */
	int *in_group;             /* per group event: its perf group (index in groups), -1 alone */
	int ngroups;
	struct perf_group *groups;
	int nlists;
	struct perf_evlist **lists; /* one per perf group, one for the events opened alone:
				     * libperf leads every evsel of a list by its first */
	uint64_t *id;              /* per counter its kernel id (with groups) */
	bool tasks;                /* counts the target's tasks, a counter per CPU and thread */
};

struct perf_source {
	const struct target *target; /* NULL: the machine */
	bool told_permission;
	cpu_set_t home;  /* the thread's CPUs before reading moved it */
	bool moved;
	bool affinity;   /* move to each counter's CPU to read it (see go_to) */
	int at_cpu;      /* the CPU it was moved to, -1 */
	uint64_t reads;  /* read() calls, for make bench */
	/* with affinity, the refresh's reads wait for read_done, which makes them CPU by
	 * CPU: one move per CPU, not one per instance (Tegra410's uncore PMUs alternate
	 * between two CPUs in discovery order) */
	struct pending_read {
		struct instance *inst;
		int c; /* CPU index in the instance */
		int cpu;
	} *pending;
	int npending, cappending;
};

static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level; (void)fmt; (void)ap;
	return 0; /* errors reach the user through our own messages */
}

static int paranoid_level(void)
{
	char *v = read_text_file("/proc/sys/kernel/perf_event_paranoid", 64);
	int level = v ? atoi(v) : 2;
	free(v);
	return level;
}

char *source_perf_errno_advice(const char *pmu, int err, int paranoid)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return xasprintf(
			"permission denied counting %s system-wide: kernel.perf_event_paranoid is %d. Run pmutop as root, "
			"give it CAP_PERFMON (setcap cap_perfmon+ep %s), or lower the level "
			"(sysctl kernel.perf_event_paranoid=0; Debian's levels 3 and 4 forbid unprivileged use entirely)",
			pmu, paranoid, "$(command -v pmutop)");
	case ENOENT:
		return xasprintf("%s: the kernel does not know this event (ENOENT); is the driver loaded?", pmu);
	case EINVAL:
		return xasprintf("%s: the driver rejected an event or filter (EINVAL); see dmesg for its reason", pmu);
	case EOPNOTSUPP:
		return xasprintf("%s: not supported by this PMU (EOPNOTSUPP)", pmu);
	case ENODEV:
		return xasprintf("%s: no such device (ENODEV): the PMU went away or the CPU is offline", pmu);
	case EBUSY:
		return xasprintf("%s: counters busy (EBUSY): another tool holds them; stop it (perf, a profiler) "
				 "and start pmutop again",
				 pmu);
	case ENOSPC:
		return xasprintf("%s: not enough hardware counters for the group (ENOSPC)", pmu);
	case EMFILE:
	case ENFILE:
		return xasprintf("%s: too many open files (%s): raise the limit with ulimit -n", pmu, strerror(err));
	default:
		return xasprintf("%s: cannot open counters: %s", pmu, strerror(err));
	}
}

static char *explain_errno(struct source *src, const struct instance *inst, int err)
{
	const char *pmu = inst->pmu ? inst->pmu->name : "?";
	char *msg = source_perf_errno_advice(pmu, err, err == EACCES || err == EPERM ? paranoid_level() : 0);
	if (err == EACCES || err == EPERM) {
		struct perf_source *ps = src->priv;
		if (!ps->told_permission)
			diag_error("%s", msg);
		ps->told_permission = true;
	}
	return msg;
}

/* Maps belong to the perf_instance alone: evsels are opened with perf_evsel__open(),
 * which does not keep references to them, so deleting an evsel is right both with the
 * libperf whose perf_evsel__delete() drops its maps (2025 and later) and with the one
 * that does not (Debian 12's 6.12 source) - no double put, no leak, no version check. */
static void delete_evlist(struct perf_evlist *l)
{
	if (l) {
		perf_evlist__close(l);
		perf_evlist__delete(l); /* deletes its evsels too */
	}
}

static void free_pi(struct perf_instance *pi)
{
	if (!pi)
		return;
	for (int g = 0; g < pi->ngroups; g++) {
		free(pi->groups[g].leader_fd);
		free(pi->groups[g].buf);
	}
	for (int l = 0; l < pi->nlists; l++)
		delete_evlist(pi->lists[l]);
	free(pi->lists);
	perf_cpu_map__put(pi->cpus);
	perf_thread_map__put(pi->threads);
	free(pi->evsel);
	free(pi->in_group);
	free(pi->groups);
	free(pi->id);
	free(pi);
}

static void forget_pending(struct perf_source *ps, const struct instance *inst)
{
	int n = 0;
	for (int i = 0; i < ps->npending; i++)
		if (ps->pending[i].inst != inst)
			ps->pending[n++] = ps->pending[i];
	ps->npending = n;
}

static bool perf_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && inst->pmu->type >= 0; /* an event_source PMU */
}

/* The descriptor of this process whose kernel id is id, or -1. */
static int fd_of_id(uint64_t id)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int found = -1;
	while (d && found < 0 && (de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);
		uint64_t got;
		if (*end || fd < 0 || fd == dirfd(d))
			continue;
		if (ioctl((int)fd, PERF_EVENT_IOC_ID, &got) == 0 && got == id)
			found = (int)fd;
	}
	if (d)
		closedir(d);
	return found;
}

/* Each counter's kernel id (libperf reads it for us), and each group's leader descriptor
 * on each CPU. */
static void find_leaders(struct instance *inst, struct perf_instance *pi)
{
	int ncpu = inst->cpus.n;
	pi->id = xcalloc((size_t)(inst->ncounters ? inst->ncounters : 1), sizeof(uint64_t));
	for (int k = 0; k < inst->ncounters; k++) {
		struct perf_counts_values cv = { 0 };
		const struct counter *ct = &inst->counters[k];
		if (pi->evsel[ct->event] && pi->in_group[ct->event] >= 0 &&
		    perf_evsel__read(pi->evsel[ct->event], k % ncpu, 0, &cv) == 0)
			pi->id[k] = cv.id;
	}
	for (int g = 0; g < pi->ngroups; g++) {
		struct perf_group *pg = &pi->groups[g];
		pg->leader_fd = xmalloc(sizeof(int) * (size_t)ncpu);
		for (int c = 0; c < ncpu; c++) {
			pg->leader_fd[c] = -1;
			for (int k = c; k < inst->ncounters; k += ncpu) /* counters are event-major */
				if (inst->counters[k].event == pg->leader && pi->id[k])
					pg->leader_fd[c] = fd_of_id(pi->id[k]);
		}
		pg->buf = xmalloc(sizeof(uint64_t) * (size_t)(3 + 2 * pg->nmembers));
	}
}

/* Read where the counters live: move the thread to cpu (kept until read_done), as perf
 * stat does to spare the IPI of a remote read (~100 us against ~15 us here). On a loaded
 * machine the move may wait for a busy CPU and the read come milliseconds late: rates
 * stay right because the sampler divides by the counters' own enabled time, not by the
 * clock's interval. */
static void go_to(struct perf_source *ps, int cpu)
{
	if (ps->at_cpu == cpu)
		return;
	if (!ps->moved) {
		if (sched_getaffinity(0, sizeof(ps->home), &ps->home) != 0)
			return;
		ps->moved = true;
	}
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (cpu < CPU_SETSIZE && sched_setaffinity(0, sizeof(one), &one) == 0)
		ps->at_cpu = cpu;
}


/* An evsel for event e of inst, as its first counter's attr says; NULL with
 * inst->open_error set where this build cannot say it. */
static struct perf_evsel *new_evsel(const struct perf_source *ps, struct instance *inst, int e, bool leads_group)
{
	const struct counter *ct = NULL;
	for (int c = 0; c < inst->ncounters && !ct; c++)
		if (inst->counters[c].event == e)
			ct = &inst->counters[c];
	if (ct->attr.config[3]) {
		inst->open_error = xasprintf("%s uses config3, which this build's kernel headers lack", inst->event_str[e]);
		return NULL;
	}
	struct perf_event_attr attr = { 0 };
	attr.size = sizeof(attr);
	attr.type = ct->attr.type;
	attr.config = ct->attr.config[0];
	attr.config1 = ct->attr.config[1];
	attr.config2 = ct->attr.config[2];
	attr.exclude_user = !!(ct->attr.exclude & EXCLUDE_USER); /* the event's modifiers */
	attr.exclude_kernel = !!(ct->attr.exclude & EXCLUDE_KERNEL);
	attr.exclude_hv = !!(ct->attr.exclude & EXCLUDE_HV);
	attr.exclude_guest = !!(ct->attr.exclude & EXCLUDE_GUEST);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	const struct perf_instance *pi = inst->priv;
	if (leads_group && !pi->tasks) /* the leader answers for the whole group */
		attr.read_format |= PERF_FORMAT_GROUP;
	attr.disabled = 1;
	if (pi->tasks) { /* the tasks and the children they start from now on, as perf stat */
		attr.inherit = 1;
		/* a command held at its gate: counting begins at its exec */
		attr.enable_on_exec = ps->target->kind == TARGET_COMMAND && ps->target->gate_fd >= 0;
	}
	return perf_evsel__new(&attr);
}

/* Open events[0..n) in a new evlist of pi's: one perf group (its leader first) where
 * grouped, else each alone. Returns 0 or an errno, *failed the index that failed (what
 * was opened stays in the list). */
static int open_list(const struct perf_source *ps, struct instance *inst, struct perf_instance *pi, const int *events,
		     int n, bool grouped, int *failed)
{
	struct perf_evlist *list = perf_evlist__new();
	*failed = 0;
	if (!list)
		return ENOMEM;
	pi->lists[pi->nlists++] = list;
	for (int i = 0; i < n; i++) {
		if (!(pi->evsel[events[i]] = new_evsel(ps, inst, events[i], grouped && i == 0)))
			return EINVAL;
		perf_evlist__add(list, pi->evsel[events[i]]);
	}
	if (grouped)
		perf_evlist__set_leader(list);
	for (int i = 0; i < n; i++) { /* leader first: members find its fd */
		int r = perf_evsel__open(pi->evsel[events[i]], pi->cpus, pi->threads);
		if (r < 0) {
			*failed = i;
			return r == -1 ? errno : -r;
		}
	}
	return 0;
}

/* Perf group number set of the open order (events[0..n)). Where the PMU refuses a member
 * (EINVAL, EBADF: more events than counters), says which group, as perf stat's weak
 * groups do before opening them again ungrouped (bind/event_groups.c). */
static int open_group(const struct perf_source *ps, struct instance *inst, struct perf_instance *pi, const int *events,
		      int n, int set)
{
	struct perf_group *pg = &pi->groups[pi->ngroups++];
	*pg = (struct perf_group){ .leader = events[0], .nmembers = n };
	for (int i = 0; i < n; i++)
		pi->in_group[events[i]] = pi->ngroups - 1;
	int failed, err = open_list(ps, inst, pi, events, n, true, &failed);
	if ((err == EINVAL || err == EBADF) && failed > 0 && !inst->open_error)
		inst->open_refused_set = set;
	return err;
}

/* Does this instance count the target's tasks? Core and software PMUs do; an uncore PMU
 * (one with a cpumask: perf's is_uncore) counts its box for the whole machine. */
static bool counts_tasks(const struct perf_source *ps, const struct instance *inst)
{
	return ps->target && ps->target->kind != TARGET_MACHINE && ps->target->ntids > 0 && pmu_counts_tasks(inst->pmu);
}

static struct perf_instance *new_pi(const struct perf_source *ps, const struct instance *inst)
{
	const struct prof_group *g = inst->group;
	struct perf_instance *pi = xcalloc(1, sizeof(*pi));
	size_t listlen = (size_t)inst->cpus.n * 12 + 1; /* "1234567," per CPU: never truncated */
	char *list = xmalloc(listlen);
	cpulist_format(&inst->cpus, list, listlen);
	pi->tasks = counts_tasks(ps, inst);
	/* a task's counter follows it on any CPU (one per thread): per-CPU counters of a task
	 * would each be enabled wherever it runs and running only where they are, which
	 * perf's scaling would read as multiplexing */
	pi->cpus = pi->tasks ? perf_cpu_map__new_any_cpu() : perf_cpu_map__new(list);
	free(list);
	pi->threads = pi->tasks ? perf_thread_map__new_array(ps->target->ntids, ps->target->tids)
				: perf_thread_map__new_dummy();
	pi->lists = xcalloc((size_t)g->nevents + 1, sizeof(*pi->lists));
	pi->evsel = xcalloc((size_t)g->nevents + 1, sizeof(*pi->evsel));
	pi->in_group = xmalloc(sizeof(int) * ((size_t)g->nevents + 1));
	pi->groups = xcalloc((size_t)g->nevents + 1, sizeof(*pi->groups));
	for (int e = 0; e < g->nevents; e++)
		pi->in_group[e] = -1;
	return pi;
}

static int perf_open(struct source *src, struct instance *inst)
{
	struct perf_source *ps = src->priv;
	struct perf_instance *pi = new_pi(ps, inst);
	inst->priv = pi; /* for new_evsel; unset again where the open fails */
	if (!pi->cpus || !pi->threads || perf_cpu_map__nr(pi->cpus) != inst->cpus.n) {
		inst->open_error = xasprintf("libperf could not set up the CPUs of %s", inst->name);
		free_pi(pi);
		return -ENOMEM;
	}
	int order[inst->group->nevents + 1], set[inst->group->nevents + 1];
	int n = instance_open_order(inst, order, set), err = 0;
	for (int i = 0, j, failed; i < n && !err; i = j) { /* runs of one group, or of events alone */
		for (j = i + 1; j < n && set[j] == set[i]; j++)
			;
		if (set[i] >= 0)
			err = open_group(ps, inst, pi, order + i, j - i, set[i]);
		else
			err = open_list(ps, inst, pi, order + i, j - i, false, &failed);
	}
	if (err) {
		if (!inst->open_error)
			inst->open_error = explain_errno(src, inst, err);
		free_pi(pi);
		inst->priv = NULL;
		return -err;
	}
	bool at_exec = pi->tasks && ps->target->kind == TARGET_COMMAND && ps->target->gate_fd >= 0;
	for (int i = 0; i < n && !at_exec; i++)
		perf_evsel__enable(pi->evsel[order[i]]);
	if (pi->ngroups && !pi->tasks)
		find_leaders(inst, pi);
	return 0;
}

/* One read() of perf group g on CPU index c: nr, enabled, running, then (value, id) each. */
static bool read_group(struct perf_source *ps, struct perf_group *pg, int c)
{
	if (!pg->leader_fd || pg->leader_fd[c] < 0)
		return false; /* its descriptor not found, or tasks' counters: counter by counter */
	size_t want = sizeof(uint64_t) * (size_t)(3 + 2 * pg->nmembers);
	ps->reads++;
	ssize_t got = read(pg->leader_fd[c], pg->buf, want);
	return got == (ssize_t)want && pg->buf[0] == (uint64_t)pg->nmembers;
}

/* A counter's value in its group's answer, by its kernel id. */
static void from_group(struct counter *ct, const struct perf_group *pg, uint64_t id)
{
	counter_read_failed(ct);
	for (int j = 0; j < pg->nmembers; j++)
		if (pg->buf[3 + 2 * j + 1] == id)
			counter_read_count(ct, pg->buf[3 + 2 * j], pg->buf[1], pg->buf[2]);
}

/* An evsel's count on CPU index c: summed over its threads (a task target's; the
 * machine's is one), times too, so that scaling weighs each thread by its own. */
static bool read_threads(struct perf_source *ps, struct perf_evsel *evsel, int c, struct perf_counts_values *sum)
{
	memset(sum, 0, sizeof(*sum));
	int nthreads = perf_thread_map__nr(perf_evsel__threads(evsel));
	bool any = false;
	for (int th = 0; th < (nthreads > 0 ? nthreads : 1); th++) {
		struct perf_counts_values cv = { 0 };
		ps->reads++;
		if (perf_evsel__read(evsel, c, th, &cv) != 0)
			continue;
		sum->val += cv.val;
		sum->ena += cv.ena;
		sum->run += cv.run;
		any = true;
	}
	return any;
}

/* The counters of one instance on its c-th CPU: each group with one read() of its leader
 * (or, where that fails, counter by counter, as the events alone); whether any answered. */
static bool read_cpu(struct perf_source *ps, struct instance *inst, int c)
{
	struct perf_instance *pi = inst->priv;
	bool ok = false, tried = false;
	for (int g = 0; g < pi->ngroups; g++)
		ok |= pi->groups[g].read_ok = read_group(ps, &pi->groups[g], c);
	tried = ok;
	for (int k = c; k < inst->ncounters; k += inst->cpus.n) { /* counters are event-major */
		struct counter *ct = &inst->counters[k];
		if (!pi->evsel[ct->event])
			continue; /* not counted under the current filters, or another group's counter read */
		int g = pi->in_group[ct->event];
		if (g >= 0 && pi->groups[g].read_ok) {
			from_group(ct, &pi->groups[g], pi->id[k]);
			continue;
		}
		tried = true;
		struct perf_counts_values cv;
		bool read = read_threads(ps, pi->evsel[ct->event], c, &cv);
		ok |= read;
		if (read)
			counter_read_count(ct, cv.val, cv.ena, cv.run);
		else
			counter_read_failed(ct);
	}
	return ok || !tried; /* nothing to read (its events read other groups' counters) is no failure */
}

static int perf_read(struct source *src, struct instance *inst, uint64_t now_ns)
{
	(void)now_ns;
	struct perf_source *ps = src->priv;
	int ncpu = inst->cpus.n;
	struct perf_instance *pi = inst->priv;
	if (ps->affinity && !pi->tasks) { /* read in read_done, CPU by CPU (a task's: anywhere) */
		for (int c = 0; c < ncpu; c++) {
			grow_array(&ps->pending, &ps->cappending, ps->npending + 1, sizeof(*ps->pending));
			ps->pending[ps->npending++] = (struct pending_read){ inst, c, inst->cpus.cpu[c] };
		}
		inst->read_errno = 0;
		return 0;
	}
	bool ok = false;
	for (int c = 0; c < ncpu; c++)
		ok |= read_cpu(ps, inst, c);
	/* nothing answered (a PMU whose driver went away reads 0 bytes or ENODEV): gone */
	return ncpu && !ok ? -ENODEV : 0;
}

static int by_cpu(const void *a, const void *b)
{
	const struct pending_read *x = a, *y = b;
	return x->cpu != y->cpu ? (x->cpu > y->cpu) - (x->cpu < y->cpu) : (x->inst > y->inst) - (x->inst < y->inst);
}

static void perf_read_done(struct source *src)
{
	struct perf_source *ps = src->priv;
	if (ps->npending) {
		/* stable order within a CPU: an instance's CPUs in order, instances in order */
		qsort(ps->pending, (size_t)ps->npending, sizeof(*ps->pending), by_cpu);
		for (int i = 0; i < ps->npending; i++)
			ps->pending[i].inst->read_errno = ENODEV; /* until one of its reads answers */
		/* begin with the CPU the thread is on and go round from there: no move for
		 * that CPU, and the next refresh starts where this one ended (on two CPUs one
		 * move a refresh instead of two) */
		int here = sched_getcpu(), first = 0;
		while (first < ps->npending && ps->pending[first].cpu < here)
			first++;
		if (first == ps->npending)
			first = 0;
		ps->at_cpu = here;
		for (int step = 0; step < ps->npending; step++) {
			struct pending_read *r = &ps->pending[(first + step) % ps->npending];
			go_to(ps, r->cpu);
			if (read_cpu(ps, r->inst, r->c))
				r->inst->read_errno = 0;
		}
		ps->npending = 0;
	}
	if (ps->moved)
		sched_setaffinity(0, sizeof(ps->home), &ps->home);
	ps->moved = false;
	ps->at_cpu = -1;
}

uint64_t source_perf_reads(const struct source *src)
{
	return ((const struct perf_source *)src->priv)->reads;
}

static void perf_close(struct source *src, struct instance *inst)
{
	forget_pending(src->priv, inst);
	free_pi(inst->priv);
	inst->priv = NULL;
}

static void perf_destroy(struct source *src)
{
	struct perf_source *ps = src->priv;
	free(ps->pending);
	free(src->priv);
	free(src);
}

static const struct source_ops perf_ops = {
	.kind = "live",
	.shares_counters = true,
	.claims = perf_claims,
	.open = perf_open,
	.read = perf_read,
	.close = perf_close,
	.destroy = perf_destroy,
	.read_done = perf_read_done,
};

struct source *source_perf_new(const struct machine *m, const struct target *t)
{
	libperf_init(libperf_print);
	struct source *s = xcalloc(1, sizeof(*s));
	s->ops = &perf_ops;
	s->machine = m;
	struct perf_source *ps = xcalloc(1, sizeof(*ps));
	ps->at_cpu = -1;
	ps->affinity = true;
	ps->target = t;
	s->priv = ps;
	return s;
}
