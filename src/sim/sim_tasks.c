/* SPDX-License-Identifier: GPL-2.0-only */
/* sim_tasks.c - the simulated machine's tasks ([task NAME] in its model): listed as /proc
 * would list them, their CPU time and counts growing at the model's rates, so the Tasks
 * view and batch --tasks show on a demo what they show on a server. The rule: a task
 * keeps `cpus` CPUs busy at `ghz`; its cycles are that time at that clock, its
 * instructions the cycles times `ipc`, its cache misses (perf's cache-misses, whatever
 * level the CPU's driver maps it to) and branch misses per thousand of them.
 * Its threads are TIDs pid .. pid + threads - 1 (the first is the process's own, as
 * Linux numbers them), each an equal share of it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/tasks.h"
#include "machine/generic_events.h"
#include "sim/simmodel_data.h"
#include "sim/simulator.h"
#include "sim/sim_tasks.h"

struct sim_probe {
	struct sim_model *model;
	char *root;
	double width; /* its cores' slots a cycle where the tree has perf metrics, else 0 */
};

struct sim_handle {
	const struct sim_task *task;
	double share; /* of the task's counts: 1, or one thread's */
};

/* The tasks have run since the clock's origin (the machine's boot, as /proc's times) */
static double seconds(uint64_t now_ns)
{
	return (double)now_ns / 1e9;
}

static int sim_list(void *ctx, uint64_t now_ns, bool threads, struct task_sample **out)
{
	struct sim_probe *sp = ctx;
	double t = seconds(now_ns);
	int n = 0, cap = 0;
	*out = NULL;
	for (int i = 0; i < sp->model->ntasks; i++) {
		const struct sim_task *k = &sp->model->tasks[i];
		for (int th = 0; th < (threads ? k->threads : 1); th++) {
			grow_array(out, &cap, n + 1, sizeof(**out));
			struct task_sample *s = &(*out)[n++];
			*s = (struct task_sample){ .pid = k->pid + th, .tgid = k->pid, .threads = k->threads };
			snprintf(s->comm, sizeof(s->comm), "%s", k->name);
			snprintf(s->user, sizeof(s->user), "%s", k->user ? k->user : "root");
			s->cpu_ns = (uint64_t)llround(k->cpus * t * 1e9 / (threads ? k->threads : 1));
		}
	}
	return n;
}

static void *sim_open(void *ctx, int pid, bool thread, int *fds, char **why)
{
	struct sim_probe *sp = ctx;
	for (int i = 0; i < sp->model->ntasks; i++) {
		const struct sim_task *k = &sp->model->tasks[i];
		if (thread ? pid >= k->pid && pid < k->pid + k->threads : k->pid == pid) {
			struct sim_handle *h = xcalloc(1, sizeof(*h));
			h->task = k;
			h->share = thread ? 1.0 / k->threads : 1;
			*fds = (thread ? 1 : k->threads) * sim_task_events(sp->width); /* what the real probe would hold */
			return h;
		}
	}
	*why = xasprintf("pid %d: ended", pid);
	*fds = 0;
	return NULL;
}

void sim_task_counts(const struct sim_task *k, double share, uint64_t now_ns, double width, struct task_counts *out)
{
	double cpus = k->cpus * share, cycles = cpus * seconds(now_ns) * k->ghz * 1e9, ins = cycles * k->ipc;
	out->v[TASK_CLOCK] = (uint64_t)llround(cpus * seconds(now_ns) * 1e9);
	out->v[TASK_CYCLES] = (uint64_t)llround(cycles);
	out->v[TASK_INSTRUCTIONS] = (uint64_t)llround(ins);
	out->v[TASK_CACHE_MISSES] = (uint64_t)llround(ins * k->cache_mpki / 1000);
	out->v[TASK_BRANCH_MISSES] = (uint64_t)llround(ins * k->branch_mpki / 1000);
	/* perf metrics: its slots (width a cycle), each metric the share its model gives */
	double sum = 0, slots = cycles * width;
	for (int l = 0; l < 4; l++)
		sum += k->topdown[l];
	out->v[TASK_SLOTS] = width > 0 && sum > 0 ? (uint64_t)llround(slots) : UINT64_MAX;
	for (int l = 0; l < 4; l++)
		out->v[TASK_TD_RETIRING + l] = width > 0 && sum > 0 ? (uint64_t)llround(slots * k->topdown[l] / sum) : UINT64_MAX;
}

double sim_task_width(const struct sim_model *model, const struct machine *m)
{
	return machine_perf_metrics_pmu(m) ? model->width : 0;
}

int sim_task_events(double width)
{
	return width > 0 ? TASK_EVENTS : TASK_SLOTS;
}

static bool sim_read(void *ctx, void *handle, uint64_t now_ns, struct task_counts *out)
{
	const struct sim_handle *h = handle;
	const struct sim_probe *sp = ctx;
	sim_task_counts(h->task, h->share, now_ns, sp->width, out);
	return true;
}

static void sim_close(void *ctx, void *handle)
{
	(void)ctx;
	free(handle);
}

static void sim_destroy(void *ctx)
{
	struct sim_probe *sp = ctx;
	sim_model_free(sp->model);
	free(sp->root);
	free(sp);
}

/* its model's cgroup = (none: the root's) */
static void sim_cgroup(void *ctx, int pid, char *buf, int len)
{
	struct sim_probe *sp = ctx;
	buf[0] = '\0';
	for (int i = 0; i < sp->model->ntasks; i++)
		if (sp->model->tasks[i].pid == pid) {
			char *esc = str_escape_controls(sp->model->tasks[i].cgroup ? sp->model->tasks[i].cgroup : "");
			snprintf(buf, (size_t)len, "/%s", esc);
			free(esc);
		}
}

static const struct task_probe_ops sim_ops = { sim_list, sim_open, sim_read, sim_close, sim_destroy, NULL, sim_cgroup };

struct task_probe *sim_task_probe_new(struct sim_model *model, const char *root, const struct machine *m)
{
	struct sim_probe *sp = xcalloc(1, sizeof(*sp));
	sp->model = sim_model_ref(model);
	sp->width = sim_task_width(model, m);
	sp->root = xstrdup(root ? root : "/");
	struct task_probe *p = xcalloc(1, sizeof(*p));
	p->ops = &sim_ops;
	p->ctx = sp;
	p->root = sp->root;
	return p;
}
