/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_cgroups.c - the simulated machine's cgroups for the Cgroups view, -G and --cgroups:
 * each [task]'s `cgroup =` path, the cgroups above it and the root, /. The rule: a
 * cgroup holds its tasks and its descendants' (the kernel's: a cgroup's counter counts
 * its descendants), its counts their sum, each task's by sim_tasks.c's rule; a task that
 * names no cgroup is the root's. The root is the machine, as it is on a real one: its
 * counts are the model's core rates on every CPU (sim_machine_counts.c), what the Cores
 * and TopDown panes count, so the tasks are a part of it and the rest is work the model
 * names no task for (a tree without a core PMU: the tasks' sum). Its cost is what the
 * live probe would hold: a counter per CPU and event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str_ids.h"
#include "base/util.h"
#include "engine/tasks.h"
#include "machine/pmu.h"
#include "sim/sim_machine_counts.h"
#include "sim/simmodel_data.h"
#include "sim/simulator.h"
#include "sim/sim_tasks.h"

struct sim_cg_probe {
	struct sim_model *model;
	char *root;
	struct str_ids paths;  /* every cgroup of the model, parents first: a row's number;
				* shown "/" + path, escaped (a model may hold any byte) */
	int *shown;            /* the rows: the root and -G's, or every cgroup */
	int nshown;
	int ncpus;
	double width; /* sim_task_width's */
	const struct machine *m;
	struct sim_machine_counts *machine; /* the root's counts while it is counted (NULL: the
					     * tasks' sum, on a tree without a core PMU) */
};

static const char *cgroup_of(const struct sim_task *k)
{
	return k->cgroup ? k->cgroup : "";
}

/* path is rel or below it */
static bool within(const char *path, const char *rel)
{
	size_t n = strlen(rel);
	return !n || (!strncmp(path, rel, n) && (path[n] == '\0' || path[n] == '/'));
}

/* path and every cgroup above it, the root first */
static void add_with_parents(struct sim_cg_probe *cp, const char *path)
{
	char *walk = xstrdup(path);
	str_ids_get(&cp->paths, "");
	for (char *slash = walk; *walk; slash++) {
		if (*slash != '/' && *slash != '\0')
			continue;
		char keep = *slash;
		*slash = '\0';
		str_ids_get(&cp->paths, walk);
		*slash = keep;
		if (!keep)
			break;
	}
	free(walk);
}

static int sim_cg_list(void *ctx, uint64_t now_ns, bool threads, struct task_sample **out)
{
	struct sim_cg_probe *cp = ctx;
	(void)threads;
	*out = xcalloc((size_t)(cp->nshown ? cp->nshown : 1), sizeof(**out));
	for (int i = 0; i < cp->nshown; i++) {
		int id = cp->shown[i];
		const char *rel = str_ids_name(&cp->paths, id);
		struct task_sample *s = &(*out)[i];
		*s = (struct task_sample){ .pid = id, .tgid = id, .label = str_ids_shown(&cp->paths, id) };
		double cpus = 0;
		for (int t = 0; t < cp->model->ntasks; t++)
			if (within(cgroup_of(&cp->model->tasks[t]), rel)) {
				s->threads++;
				cpus += cp->model->tasks[t].cpus;
			}
		s->cpu_ns = (uint64_t)(cpus * (double)now_ns);
	}
	return cp->nshown;
}

static void *sim_cg_open(void *ctx, int id, bool thread, int *fds, char **why)
{
	struct sim_cg_probe *cp = ctx;
	(void)thread;
	(void)why;
	*fds = cp->ncpus * sim_task_events(cp->width);
	/* the root's counts while it is counted: the model's points evaluate the rates it asks
	 * for at every refresh, which a monitor without the view should not pay */
	if (!*str_ids_name(&cp->paths, id) && !cp->machine)
		cp->machine = sim_machine_counts_new(cp->model, cp->m);
	return (void *)(intptr_t)(id + 1);
}

static bool sim_cg_read(void *ctx, void *handle, uint64_t now_ns, struct task_counts *out)
{
	struct sim_cg_probe *cp = ctx;
	const char *rel = str_ids_name(&cp->paths, (int)(intptr_t)handle - 1);
	if (!*rel && cp->machine) { /* the root: the machine */
		sim_machine_counts_read(cp->machine, now_ns, out);
		return true;
	}
	*out = (struct task_counts){ 0 };
	for (int t = 0; t < cp->model->ntasks; t++) {
		struct task_counts one;
		if (!within(cgroup_of(&cp->model->tasks[t]), rel))
			continue;
		sim_task_counts(&cp->model->tasks[t], 1, now_ns, cp->width, &one);
		for (int e = 0; e < TASK_EVENTS; e++) /* a task that does not count one leaves it uncounted */
			out->v[e] = out->v[e] == UINT64_MAX || one.v[e] == UINT64_MAX ? UINT64_MAX : out->v[e] + one.v[e];
	}
	return true;
}

static void sim_cg_close(void *ctx, void *handle)
{
	struct sim_cg_probe *cp = ctx;
	if (!*str_ids_name(&cp->paths, (int)(intptr_t)handle - 1)) { /* the root: its rates released */
		sim_machine_counts_free(cp->machine);
		cp->machine = NULL;
	}
}

static void sim_cg_destroy(void *ctx)
{
	struct sim_cg_probe *cp = ctx;
	sim_machine_counts_free(cp->machine);
	sim_model_free(cp->model);
	str_ids_free(&cp->paths);
	free(cp->shown);
	free(cp->root);
	free(cp);
}

static const char *sim_cg_note(void *ctx)
{
	(void)ctx;
	return "the simulated machine's cgroups (its model's tasks')";
}

static const struct task_probe_ops sim_cg_ops = { sim_cg_list, sim_cg_open, sim_cg_read, sim_cg_close, sim_cg_destroy,
						  sim_cg_note, NULL };

/* -G's name as a path of the model's: without its leading or trailing /, or -1 */
static int named_id(struct sim_cg_probe *cp, const char *name)
{
	while (*name == '/')
		name++;
	char *rel = xstrdup(name);
	for (size_t n = strlen(rel); n && rel[n - 1] == '/'; n--)
		rel[n - 1] = '\0';
	int id = -1;
	for (int i = 0; i < cp->paths.n && id < 0; i++)
		if (!strcmp(str_ids_name(&cp->paths, i), rel))
			id = i;
	free(rel);
	return id;
}

static char *known_list(const struct sim_cg_probe *cp)
{
	char *all = xstrdup("");
	for (int i = 0; i < cp->paths.n; i++) {
		char *next = xasprintf("%s%s%s", all, i ? ", " : "", str_ids_shown(&cp->paths, i));
		free(all);
		all = next;
	}
	return all;
}

struct task_probe *sim_cgroup_probe_new(struct sim_model *model, const char *root, const struct machine *m,
					const char *const *names, int nnames, char **why)
{
	struct sim_cg_probe *cp = xcalloc(1, sizeof(*cp));
	cp->model = sim_model_ref(model);
	cp->root = xstrdup(root ? root : "/");
	cp->ncpus = m->online.n;
	cp->width = sim_task_width(model, m);
	cp->m = m;
	for (int t = 0; t < model->ntasks; t++)
		add_with_parents(cp, cgroup_of(&model->tasks[t]));
	if (!cp->paths.n)
		str_ids_get(&cp->paths, "");
	for (int i = 0; i < cp->paths.n; i++) {
		char *esc = str_escape_controls(str_ids_name(&cp->paths, i)), *label = xasprintf("/%s", esc);
		str_ids_set_shown(&cp->paths, i, label);
		free(label);
		free(esc);
	}
	cp->shown = xcalloc((size_t)(names ? nnames + 1 : cp->paths.n), sizeof(int));
	for (int i = 0; i < (names ? nnames + 1 : cp->paths.n); i++) {
		int id = names && i ? named_id(cp, names[i - 1]) : names ? 0 : i;
		if (id < 0) {
			char *known = known_list(cp);
			*why = xasprintf("cgroup '%s': no such cgroup in the simulated machine (its model's: %s)", names[i - 1],
					 known);
			free(known);
			sim_cg_destroy(cp);
			return NULL;
		}
		if (!names || !i || id) /* the root is a row once */
			cp->shown[cp->nshown++] = id;
	}
	struct task_probe *p = xcalloc(1, sizeof(*p));
	p->ops = &sim_cg_ops;
	p->ctx = cp;
	p->root = cp->root;
	return p;
}
