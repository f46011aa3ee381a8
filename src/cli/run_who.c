/* SPDX-License-Identifier: GPL-2.0-only */
/* run_who.c - a run's task and cgroup tables, from the options. */
#include "cli/run_who.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/cpulist.h"
#include "base/util.h"
#include "cli/options.h"
#include "engine/session.h"
#include "machine/pmu.h"
#include "sim/simulator.h"
#include "sources/sources.h"

/* the rows shown when no option says: htop's screenful */
#define DEFAULT_ROWS 20

static void use_tasks(struct session *s, const struct options *o, const struct machine *m, struct sim_model *model,
		      const char *root)
{
	bool wanted = o->tasks || !o->batch; /* batch --tasks, or the monitor's view */
	if (!wanted || (o->sim && !model))
		return;
	session_use_tasks(s, model ? sim_task_probe_new(model, root, m) : task_probe_live_new(o->proc_root, m),
			  o->tasks ? o->tasks : DEFAULT_ROWS);
	session_want_tasks(s, o->batch && o->tasks);
	session_tasks_threads(s, o->per_thread);
}

/* The CPUs a live cgroup is counted on: -C's (checked already), or every online one */
static void counted_cpus(const struct options *o, const struct machine *m, struct cpulist *out)
{
	if (!o->cpus || !cpulist_parse(o->cpus, out))
		cpulist_copy(out, &m->online);
}

static int use_cgroups(struct session *s, const struct options *o, const struct machine *m, struct sim_model *model,
		       const char *root)
{
	bool asked = o->cgroup_names || o->cgroups;
	if (!asked && o->batch)
		return 0;
	int n = 0;
	char **names = o->cgroup_names ? str_split(o->cgroup_names, &n) : NULL;
	char *why = NULL;
	struct task_probe *probe = NULL;
	if (model) {
		probe = sim_cgroup_probe_new(model, root, m, (const char *const *)names, n, &why);
	} else if (!o->sim) {
		struct cpulist cpus = { 0 };
		counted_cpus(o, m, &cpus);
		probe = cgroup_probe_live_new(o->proc_root, m, (const char *const *)names, n, &cpus, &why);
		cpulist_free(&cpus);
	} else {
		why = xstrdup("this simulated machine's model has no tasks, so no cgroups");
	}
	str_split_free(names);
	if (!probe && asked) {
		fprintf(stderr, "pmutop: %s: %s\n", o->cgroup_names ? "-G" : "--cgroups", why);
		free(why);
		return 2;
	}
	if (!probe) { /* the monitor's Cgroups view says why */
		session_no_cgroups(s, why);
		free(why);
		return 0;
	}
	session_use_cgroups(s, probe, o->cgroup_names ? n + 1 : o->cgroups ? o->cgroups : DEFAULT_ROWS,
			    asked && (o->batch || o->listen || o->serve_only || o->record_only));
	return 0;
}

int run_who(struct session *s, const struct options *o, const struct machine *m, struct sim_model *model,
	    const char *root)
{
	use_tasks(s, o, m, model, root);
	return use_cgroups(s, o, m, model, root);
}
