/* source_perf.c - counting with perf_event_open through libperf.
 *
 * One libperf evlist per instance: its events on the CPUs of the instance (the PMU's
 * cpumask for uncore PMUs, every online CPU for core and software events), as one perf
 * group when the profile says so, so that ratios are taken over the same time window.
 * libperf reads one counter per read() (its floor: with PERF_FORMAT_GROUP it returns the
 * leader only). */
#include <errno.h>
#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "engine/session.h"
#include "sources/source.h"
#include "base/sysfs.h"
#include "base/util.h"

struct perf_instance {
	struct perf_evlist *evlist;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;
	int nevsels;
	struct perf_evsel **evsel; /* per group event, NULL where absent */
};

struct perf_source {
	bool told_permission;
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

static char *explain_errno(struct source *src, const struct instance *inst, int err)
{
	const char *pmu = inst->pmu ? inst->pmu->name : "?";
	switch (err) {
	case EACCES:
	case EPERM: {
		struct perf_source *ps = src->priv;
		char *msg = xasprintf(
			"permission denied counting %s system-wide: kernel.perf_event_paranoid is %d. Run pmutop as root, "
			"give it CAP_PERFMON (setcap cap_perfmon+ep %s), or lower the level "
			"(sysctl kernel.perf_event_paranoid=0; Debian's levels 3 and 4 forbid unprivileged use entirely)",
			pmu, paranoid_level(), "$(command -v pmutop)");
		if (!ps->told_permission)
			diag_error("%s", msg);
		ps->told_permission = true;
		return msg;
	}
	case ENOENT:
		return xasprintf("%s: the kernel does not know this event (ENOENT); is the driver loaded?", pmu);
	case EINVAL:
		return xasprintf("%s: the driver rejected an event or filter (EINVAL); see dmesg for its reason", pmu);
	case EOPNOTSUPP:
		return xasprintf("%s: not supported by this PMU (EOPNOTSUPP)", pmu);
	case ENODEV:
		return xasprintf("%s: no such device (ENODEV): the PMU went away or the CPU is offline", pmu);
	case EBUSY:
		return xasprintf("%s: counters busy (EBUSY): another tool holds them", pmu);
	case ENOSPC:
		return xasprintf("%s: not enough hardware counters for the group (ENOSPC)", pmu);
	case EMFILE:
	case ENFILE:
		return xasprintf("%s: too many open files (%s): raise the limit with ulimit -n", pmu, strerror(err));
	default:
		return xasprintf("%s: cannot open counters: %s", pmu, strerror(err));
	}
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
	free(pi);
}

static bool perf_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && inst->pmu->type >= 0; /* an event_source PMU */
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
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
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
	return 0;
}

static int perf_read(struct source *src, struct instance *inst, uint64_t now_ns)
{
	(void)src; (void)now_ns;
	struct perf_instance *pi = inst->priv;
	int ncpu = inst->cpus.n;
	for (int k = 0; k < inst->ncounters; k++) {
		struct counter *ct = &inst->counters[k];
		if (!pi->evsel[ct->event])
			continue; /* not counted under the current filters */
		struct perf_counts_values cv = { 0 };
		int cpu_idx = k % ncpu; /* counters are event-major, CPUs in cpulist order */
		ct->read_ok = perf_evsel__read(pi->evsel[ct->event], cpu_idx, 0, &cv) == 0;
		ct->value = cv.val;
		ct->enabled = cv.ena;
		ct->running = cv.run;
	}
	return 0;
}

static void perf_close(struct source *src, struct instance *inst)
{
	(void)src;
	free_pi(inst->priv);
	inst->priv = NULL;
}

static void perf_destroy(struct source *src)
{
	free(src->priv);
	free(src);
}

static const struct source_ops perf_ops = {
	.kind = "live",
	.claims = perf_claims,
	.open = perf_open,
	.read = perf_read,
	.close = perf_close,
	.destroy = perf_destroy,
};

struct source *source_perf_new(const struct machine *m)
{
	libperf_init(libperf_print);
	struct source *s = xcalloc(1, sizeof(*s));
	s->ops = &perf_ops;
	s->machine = m;
	s->priv = xcalloc(1, sizeof(struct perf_source));
	return s;
}
