/* SPDX-License-Identifier: GPL-2.0-only */
/* prom_cgroups.c - each cgroup's counts as Prometheus counters, summed across frames. */
#include "outputs/prom_cgroups.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/frame.h"
#include "machine/generic_events.h"
#include "outputs/prom.h"

struct prom_cgroup {
	char *path;
	double sum[TASK_ROW_COUNTS];
	bool have[TASK_ROW_COUNTS]; /* counted at least once: a series */
	int procs;
	bool current; /* in the last frame */
};

/* the frame row's counts, in its order: the family, its help, the count's scale */
static const struct {
	const char *name, *help, *unit;
	double scale;
} fams[TASK_ROW_COUNTS] = {
	{ "pmutop_cgroup_cpu_seconds", "CPU time of the cgroup and its descendants on the CPUs counted (task-clock, as perf stat -G)", "seconds", 1e-9 },
	{ "pmutop_cgroup_cycles", "core cycles of the cgroup and its descendants (perf's cycles, as perf stat -G)", NULL, 1 },
	{ "pmutop_cgroup_instructions", "instructions retired by the cgroup and its descendants (perf's instructions)", NULL, 1 },
	{ "pmutop_cgroup_cache_misses", NULL, NULL, 1 }, /* its help says the level (cache_help) */
	{ "pmutop_cgroup_branch_misses", "mispredicted branches of the cgroup and its descendants (perf's branch-misses)", NULL, 1 },
	/* perf metrics (Intel, Ice Lake and later): level 1 is each over the four's sum */
	{ "pmutop_cgroup_slots", "issue slots of the cgroup and its descendants (perf's slots)", NULL, 1 },
	{ "pmutop_cgroup_topdown_retiring_slots", "slots that retired (perf's topdown-retiring)", NULL, 1 },
	{ "pmutop_cgroup_topdown_bad_speculation_slots", "slots wasted by bad speculation (perf's topdown-bad-spec)", NULL, 1 },
	{ "pmutop_cgroup_topdown_frontend_bound_slots", "slots the frontend left empty (perf's topdown-fe-bound)", NULL, 1 },
	{ "pmutop_cgroup_topdown_backend_bound_slots", "slots stalled on the backend (perf's topdown-be-bound)", NULL, 1 },
};
_Static_assert(sizeof(fams) / sizeof(fams[0]) == TASK_ROW_COUNTS, "a family for each count a row carries");

static struct prom_cgroup *find(struct prom_cgroups *c, const char *path)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->cg[i].path, path))
			return &c->cg[i];
	grow_array(&c->cg, &c->cap, c->n + 1, sizeof(*c->cg));
	c->cg[c->n] = (struct prom_cgroup){ .path = xstrdup(path) };
	return &c->cg[c->n++];
}

void prom_cgroups_feed(struct prom_cgroups *c, const struct frame *f)
{
	c->cache_level = f->cache_misses ? f->cache_misses->level : NULL;
	for (int i = 0; i < c->n; i++)
		c->cg[i].current = false;
	for (int r = 0; f->cgroups && r < f->ncgroups; r++) {
		const struct task_row *row = &f->cgroups[r];
		struct prom_cgroup *g = find(c, row->comm);
		g->current = true;
		g->procs = row->threads;
		for (int e = 0; e < TASK_ROW_COUNTS; e++)
			if (isfinite(row->counted[e])) {
				g->sum[e] += row->counted[e] * fams[e].scale;
				g->have[e] = true;
			}
	}
}

static void header(const char *name, const char *type, const char *help, const char *unit, bool openmetrics,
		   void (*put)(void *ctx, const char *s), void *ctx)
{
	char line[512];
	snprintf(line, sizeof(line), "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	put(ctx, line);
	if (openmetrics && unit) {
		snprintf(line, sizeof(line), "# UNIT %s %s\n", name, unit);
		put(ctx, line);
	}
}

static void sample(const char *name, const char *path, double v, void (*put)(void *ctx, const char *s), void *ctx)
{
	char labels[1200], num[40], line[1400];
	labels[0] = '\0';
	prom_label(labels, sizeof(labels), "cgroup", path);
	prom_value(num, sizeof(num), v);
	snprintf(line, sizeof(line), "%s{%s} %s\n", name, labels, num);
	put(ctx, line);
}

/* perf's cache-misses is the level the CPU's driver maps it to: the help says which, so
 * that a fleet of Intel, AMD and Arm machines is not read as one cache */
static const char *cache_help(const struct prom_cgroups *c, char *buf, size_t len)
{
	if (c->cache_level)
		snprintf(buf, len, "cache misses of the cgroup and its descendants (perf's cache-misses, on this CPU %s misses)",
			 c->cache_level);
	else
		snprintf(buf, len, "cache misses of the cgroup and its descendants (perf's cache-misses, the level this CPU's "
			 "driver maps it to)");
	return buf;
}

void prom_cgroups_render(const struct prom_cgroups *c, bool openmetrics, void (*put)(void *ctx, const char *s), void *ctx)
{
	char name[96], help[200];
	for (int e = 0; e < TASK_ROW_COUNTS; e++) {
		bool any = false;
		for (int i = 0; i < c->n && !any; i++)
			any = c->cg[i].current && c->cg[i].have[e];
		if (!any) /* not counted here (no core PMU): no family */
			continue;
		header(openmetrics ? fams[e].name : (snprintf(name, sizeof(name), "%s_total", fams[e].name), name), "counter",
		       fams[e].help ? fams[e].help : cache_help(c, help, sizeof(help)), fams[e].unit, openmetrics, put, ctx);
		snprintf(name, sizeof(name), "%s_total", fams[e].name);
		for (int i = 0; i < c->n; i++)
			if (c->cg[i].current && c->cg[i].have[e])
				sample(name, c->cg[i].path, c->cg[i].sum[e], put, ctx);
	}
	bool any = false;
	for (int i = 0; i < c->n && !any; i++)
		any = c->cg[i].current;
	if (!any)
		return;
	header("pmutop_cgroup_processes", "gauge", "processes in the cgroup and its descendants", NULL, openmetrics, put, ctx);
	for (int i = 0; i < c->n; i++)
		if (c->cg[i].current)
			sample("pmutop_cgroup_processes", c->cg[i].path, c->cg[i].procs, put, ctx);
}

void prom_cgroups_free(struct prom_cgroups *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->cg[i].path);
	free(c->cg);
	*c = (struct prom_cgroups){ 0 };
}
