/* SPDX-License-Identifier: GPL-2.0-only */
/* task_counters.c - a row's generic events, opened per thread or per CPU, read summed. */
#include "sources/task_counters.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cpulist.h"
#include "base/util.h"
#include "machine/encode.h"
#include "machine/generic_events.h"

static const uint32_t type_of[TASK_SLOTS] = {
	[TASK_CLOCK] = PERF_TYPE_SOFTWARE, [TASK_CYCLES] = PERF_TYPE_HARDWARE, [TASK_INSTRUCTIONS] = PERF_TYPE_HARDWARE,
	[TASK_CACHE_MISSES] = PERF_TYPE_HARDWARE, [TASK_BRANCH_MISSES] = PERF_TYPE_HARDWARE,
};
static const uint64_t generic[TASK_SLOTS] = {
	[TASK_CLOCK] = PERF_COUNT_SW_TASK_CLOCK,
	[TASK_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
	[TASK_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
	[TASK_CACHE_MISSES] = PERF_COUNT_HW_CACHE_MISSES,
	[TASK_BRANCH_MISSES] = PERF_COUNT_HW_BRANCH_MISSES,
};
_Static_assert(TASK_SLOTS + PERF_METRICS_EVENTS == TASK_EVENTS, "slots and the four metrics end the events");

void task_events_of(const struct machine *m, struct task_events *te)
{
	memset(te, 0, sizeof(*te));
	for (int e = 0; e < TASK_SLOTS; e++) {
		te->here[e] = true;
		te->type[e] = type_of[e];
		te->config[e] = generic[e];
	}
	const struct pmu *p = machine_perf_metrics_pmu(m);
	for (int k = 0; p && k < PERF_METRICS_EVENTS; k++) {
		char text[160];
		snprintf(text, sizeof(text), "%s/%s/", p->name, perf_metrics_alias[k]);
		struct encoded_event enc;
		char *err = NULL;
		if (encode_event(m, text, &enc, &err) < 0) { /* all or none: a metric is a share of slots */
			free(err);
			memset(te->here + TASK_SLOTS, 0, sizeof(bool) * PERF_METRICS_EVENTS);
			return;
		}
		te->here[TASK_SLOTS + k] = true;
		te->type[TASK_SLOTS + k] = enc.attr.type;
		te->config[TASK_SLOTS + k] = enc.attr.config[0];
	}
	te->metrics_cpus = p ? &p->cpus : NULL;
}

int task_events_here(const struct task_events *te)
{
	int n = 0;
	for (int e = 0; e < TASK_EVENTS; e++)
		n += te->here[e];
	return n;
}

void task_counters_init(struct task_counters *c, int n)
{
	c->n = n;
	c->fd = xmalloc(sizeof(*c->fd) * (size_t)(n > 0 ? n : 1));
	for (int r = 0; r < n; r++)
		for (int e = 0; e < TASK_EVENTS; e++)
			c->fd[r][e] = -1;
}

static int counter_open(const struct task_events *te, int e, int pid, int cpu, bool inherit, int group, unsigned long flags)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = te->type[e];
	a.config = te->config[e];
	a.inherit = inherit;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, group, flags | PERF_FLAG_FD_CLOEXEC);
}

int task_counters_open_row(struct task_counters *c, const struct task_events *te, int r, int pid, int cpu, bool inherit,
			   unsigned long flags, bool *absent)
{
	int err = 0;
	bool metrics_here = cpu < 0 || !te->metrics_cpus || cpulist_contains(te->metrics_cpus, cpu);
	for (int e = 0; e < TASK_EVENTS; e++) {
		int group = e > TASK_SLOTS ? c->fd[r][TASK_SLOTS] : -1;
		if (!te->here[e] || (e > TASK_SLOTS && group < 0) || (e >= TASK_SLOTS && !metrics_here))
			continue;
		c->fd[r][e] = counter_open(te, e, pid, cpu, inherit, group, flags);
		if (c->fd[r][e] >= 0 || e >= TASK_SLOTS)
			continue;
		if (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV)
			*absent |= e != TASK_CLOCK; /* no such event here: said once in the title */
		else if (!err)
			err = errno;
	}
	return err;
}

void task_counters_read(const struct task_counters *c, struct task_counts *out)
{
	for (int e = 0; e < TASK_EVENTS; e++) {
		bool counted = false;
		double sum = 0;
		for (int r = 0; r < c->n; r++) {
			uint64_t v[3];
			if (c->fd[r][e] < 0 || read(c->fd[r][e], v, sizeof(v)) != (ssize_t)sizeof(v))
				continue;
			counted = true; /* scaled where the kernel multiplexed it */
			sum += v[2] && v[2] < v[1] ? (double)v[0] * ((double)v[1] / (double)v[2]) : (double)v[0];
		}
		out->v[e] = counted ? (uint64_t)sum : UINT64_MAX;
	}
}

bool task_counters_probe_read(void *ctx, void *handle, uint64_t now_ns, struct task_counts *out)
{
	(void)ctx;
	(void)now_ns;
	task_counters_read(handle, out);
	return true;
}

void task_counters_probe_close(void *ctx, void *handle)
{
	(void)ctx;
	task_counters_close(handle);
	free(handle);
}

int task_counters_open_count(const struct task_counters *c)
{
	int open = 0;
	for (int r = 0; r < c->n; r++)
		for (int e = 0; e < TASK_EVENTS; e++)
			open += c->fd[r][e] >= 0;
	return open;
}

void task_counters_close(struct task_counters *c)
{
	for (int r = 0; r < c->n; r++)
		for (int e = 0; e < TASK_EVENTS; e++)
			if (c->fd[r][e] >= 0)
				close(c->fd[r][e]);
	free(c->fd);
	c->fd = NULL;
	c->n = 0;
}

void fd_spares_init(struct fd_spares *s)
{
	for (int i = 0; i < SPARE_FDS; i++)
		s->fd[i] = -1;
	fd_spares_hold(s, true);
}

void fd_spares_hold(struct fd_spares *s, bool hold)
{
	for (int i = 0; i < SPARE_FDS; i++) {
		if (hold && s->fd[i] < 0) {
			s->fd[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		} else if (!hold && s->fd[i] >= 0) {
			close(s->fd[i]);
			s->fd[i] = -1;
		}
	}
}
