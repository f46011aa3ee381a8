/* source_perf.c - counting with perf_event_open through libperf.
 *
 * One libperf evlist per instance: its events on the CPUs of the instance (the PMU's
 * cpumask for uncore PMUs, every online CPU for core and software events), as one perf
 * group when the profile says so, so that ratios are taken over the same time window.
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
#include "engine/session.h"
#include "sources/sources.h"
#include "base/sysfs.h"
#include "base/util.h"

struct perf_instance {
	struct perf_evlist *evlist;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	int nevsels;
	struct perf_evsel **evsel; /* per group event, NULL where absent */
	/* group reads: per CPU index the leader's descriptor (-1: read each counter), and
	 * per counter its kernel id */
	int *leader_fd;
	uint64_t *id;
	int nmembers; /* counters in the group on one CPU */
	uint64_t *buf;
};

struct perf_source {
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
static void free_pi(struct perf_instance *pi)
{
	if (!pi)
		return;
	if (pi->evlist) {
		perf_evlist__close(pi->evlist);
		perf_evlist__delete(pi->evlist); /* deletes its evsels too */
	}
	perf_cpu_map__put(pi->cpus);
	perf_thread_map__put(pi->threads);
	free(pi->evsel);
	free(pi->leader_fd);
	free(pi->id);
	free(pi->buf);
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

/* Each counter's kernel id (libperf reads it for us), and each CPU's leader descriptor. */
static void find_leaders(struct instance *inst, struct perf_instance *pi, int leader)
{
	int ncpu = inst->cpus.n;
	pi->leader_fd = xmalloc(sizeof(int) * (size_t)ncpu);
	pi->id = xcalloc((size_t)(inst->ncounters ? inst->ncounters : 1), sizeof(uint64_t));
	for (int k = 0; k < inst->ncounters; k++) {
		struct perf_counts_values cv = { 0 };
		const struct counter *ct = &inst->counters[k];
		if (pi->evsel[ct->event] && perf_evsel__read(pi->evsel[ct->event], k % ncpu, 0, &cv) == 0)
			pi->id[k] = cv.id;
	}
	pi->nmembers = 0;
	for (int e = 0; e < inst->group->nevents; e++)
		pi->nmembers += pi->evsel[e] != NULL;
	pi->buf = xmalloc(sizeof(uint64_t) * (size_t)(3 + 2 * pi->nmembers));
	for (int c = 0; c < ncpu; c++) {
		pi->leader_fd[c] = -1;
		for (int k = 0; k < inst->ncounters; k++)
			if (inst->counters[k].event == leader && k % ncpu == c && pi->id[k])
				pi->leader_fd[c] = fd_of_id(pi->id[k]);
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


static int perf_open(struct source *src, struct instance *inst)
{
	const struct prof_group *g = inst->group;
	struct perf_instance *pi = xcalloc(1, sizeof(*pi));
	size_t listlen = (size_t)inst->cpus.n * 12 + 1; /* "1234567," per CPU: never truncated */
	char *list = xmalloc(listlen);
	cpulist_format(&inst->cpus, list, listlen);
	pi->cpus = perf_cpu_map__new(list);
	pi->threads = perf_thread_map__new_dummy();
	pi->evlist = perf_evlist__new();
	pi->evsel = xcalloc((size_t)g->nevents, sizeof(*pi->evsel));
	if (!pi->cpus || !pi->threads || !pi->evlist || perf_cpu_map__nr(pi->cpus) != inst->cpus.n) {
		inst->open_error = xasprintf("libperf could not set up CPUs %s", list);
		free(list);
		free_pi(pi);
		return -ENOMEM;
	}
	free(list);
	/* the leader goes first: set_leader makes the first evsel lead the list */
	int order[g->nevents + 1];
	int n = instance_open_order(inst, order);
	for (int i = 0; i < n; i++) {
		int e = order[i];
		const struct counter *ct = NULL;
		for (int c = 0; c < inst->ncounters && !ct; c++)
			if (inst->counters[c].event == e)
				ct = &inst->counters[c];
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
		if (g->perf_group && n > 1 && i == 0) /* the leader answers for the whole group */
			attr.read_format |= PERF_FORMAT_GROUP;
		attr.disabled = 1;
		if (ct->attr.config[3]) {
			free_pi(pi);
			inst->open_error = xasprintf("%s uses config3, which this build's kernel headers lack", inst->event_str[e]);
			return -EINVAL;
		}
		pi->evsel[e] = perf_evsel__new(&attr);
		perf_evlist__add(pi->evlist, pi->evsel[e]);
	}
	if (g->perf_group && n > 1)
		perf_evlist__set_leader(pi->evlist);
	for (int i = 0; i < n; i++) { /* leader first: members find its fd */
		int r = perf_evsel__open(pi->evsel[order[i]], pi->cpus, pi->threads);
		if (r < 0) {
			int err = r == -1 ? errno : -r;
			inst->open_error = explain_errno(src, inst, err);
			free_pi(pi);
			return -err;
		}
	}
	for (int i = 0; i < n; i++)
		perf_evsel__enable(pi->evsel[order[i]]);
	inst->priv = pi;
	if (g->perf_group && n > 1)
		find_leaders(inst, pi, order[0]);
	return 0;
}

/* One read() of CPU index c's group: nr, enabled, running, then (value, id) each. */
static bool read_group(struct perf_source *ps, struct instance *inst, struct perf_instance *pi, int c)
{
	int ncpu = inst->cpus.n;
	size_t want = sizeof(uint64_t) * (size_t)(3 + 2 * pi->nmembers);
	ps->reads++;
	ssize_t got = read(pi->leader_fd[c], pi->buf, want);
	if (got != (ssize_t)want || pi->buf[0] != (uint64_t)pi->nmembers)
		return false;
	for (int k = c; k < inst->ncounters; k += ncpu) {
		struct counter *ct = &inst->counters[k];
		if (!pi->evsel[ct->event])
			continue;
		counter_read_failed(ct);
		for (int j = 0; j < pi->nmembers; j++)
			if (pi->buf[3 + 2 * j + 1] == pi->id[k]) {
				counter_read_count(ct, pi->buf[3 + 2 * j], pi->buf[1], pi->buf[2]);
			}
	}
	return true;
}

/* The counters of one instance on its c-th CPU; whether any answered. */
static bool read_cpu(struct perf_source *ps, struct instance *inst, int c)
{
	struct perf_instance *pi = inst->priv;
	int ncpu = inst->cpus.n;
	if (pi->leader_fd && pi->leader_fd[c] >= 0 && read_group(ps, inst, pi, c))
		return true;
	bool ok = false, tried = false;
	for (int k = c; k < inst->ncounters; k += ncpu) { /* counters are event-major */
		struct counter *ct = &inst->counters[k];
		if (!pi->evsel[ct->event])
			continue; /* not counted under the current filters, or another group's counter read */
		tried = true;
		struct perf_counts_values cv = { 0 };
		ps->reads++;
		bool read = perf_evsel__read(pi->evsel[ct->event], c, 0, &cv) == 0;
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
	if (ps->affinity) { /* read in read_done, CPU by CPU */
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

struct source *source_perf_new(const struct machine *m)
{
	libperf_init(libperf_print);
	struct source *s = xcalloc(1, sizeof(*s));
	s->ops = &perf_ops;
	s->machine = m;
	struct perf_source *ps = xcalloc(1, sizeof(*ps));
	ps->at_cpu = -1;
	ps->affinity = true;
	s->priv = ps;
	return s;
}
