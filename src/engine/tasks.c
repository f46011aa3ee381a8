/* SPDX-License-Identifier: GPL-2.0-only */
/* tasks.c - the top tasks by CPU time, each with its core figures where counters open. */
#include "engine/tasks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* A task of the top N whose events are open. */
struct tracked {
	int pid;
	void *handle; /* NULL: could not be opened (why) */
	int fds;
	char *why;
	struct task_counts last;
	bool have_last;
	bool kept; /* still in the top this refresh */
};

struct row_text {
	char comm[32], user[32], cgroup[160];
};

struct task_table {
	struct task_probe *probe;
	int max;
	bool want;
	bool threads; /* rows of threads */
	struct task_sample *prev;
	int nprev;
	uint64_t prev_ns;
	struct tracked *tr;
	int ntr, captr;
	struct task_row *rows[2];
	struct row_text *text[2];
	int cur;
	unsigned *uids; /* user names looked up once */
	char (*names)[32];
	int nuids, capuids;
};

struct task_table *task_table_new(struct task_probe *probe, int max)
{
	struct task_table *t = xcalloc(1, sizeof(*t));
	t->probe = probe;
	t->max = max > 0 ? max : 20;
	for (int b = 0; b < 2; b++) {
		t->rows[b] = xcalloc((size_t)t->max, sizeof(struct task_row));
		t->text[b] = xcalloc((size_t)t->max, sizeof(struct row_text));
	}
	return t;
}

static void untrack(struct task_table *t, int i)
{
	if (t->tr[i].handle)
		t->probe->ops->close(t->probe->ctx, t->tr[i].handle);
	free(t->tr[i].why);
	t->tr[i] = t->tr[--t->ntr];
}

void task_table_want(struct task_table *t, bool want)
{
	t->want = want;
	while (!want && t->ntr) /* the view closed: its descriptors back */
		untrack(t, t->ntr - 1);
}

void task_table_threads(struct task_table *t, bool threads)
{
	if (t->threads == threads)
		return;
	t->threads = threads;
	while (t->ntr) /* a process's counters are not its threads' */
		untrack(t, t->ntr - 1);
	free(t->prev); /* nor its CPU time: the next interval ranks from the first sample */
	t->prev = NULL;
	t->nprev = 0;
	t->prev_ns = 0;
}

bool task_table_shows_threads(const struct task_table *t)
{
	return t->threads;
}

void task_table_free(struct task_table *t)
{
	if (!t)
		return;
	task_table_want(t, false);
	if (t->probe && t->probe->ops->destroy)
		t->probe->ops->destroy(t->probe->ctx);
	free(t->probe);
	free(t->tr);
	free(t->prev);
	for (int b = 0; b < 2; b++) {
		free(t->rows[b]);
		free(t->text[b]);
	}
	free(t->uids);
	free(t->names);
	free(t);
}

static int by_pid(const void *a, const void *b)
{
	const struct task_sample *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Sort key: the interval's CPU time (ns), computed once per task. */
struct ranked {
	const struct task_sample *s;
	double cpu_ns;
};

static int by_cpu(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->cpu_ns != y->cpu_ns)
		return x->cpu_ns < y->cpu_ns ? 1 : -1;
	return (x->s->pid > y->s->pid) - (x->s->pid < y->s->pid);
}

static const char *user_name(struct task_table *t, unsigned uid)
{
	for (int i = 0; i < t->nuids; i++)
		if (t->uids[i] == uid)
			return t->names[i];
	grow_array(&t->uids, &t->capuids, t->nuids + 1, sizeof(*t->uids));
	t->names = xrealloc(t->names, sizeof(*t->names) * (size_t)t->capuids);
	t->uids[t->nuids] = uid;
	proc_user_name(t->probe->root, uid, t->names[t->nuids], sizeof(t->names[0]));
	return t->names[t->nuids++];
}

static struct tracked *track(struct task_table *t, int pid)
{
	for (int i = 0; i < t->ntr; i++)
		if (t->tr[i].pid == pid)
			return &t->tr[i];
	grow_array(&t->tr, &t->captr, t->ntr + 1, sizeof(*t->tr));
	struct tracked *k = &t->tr[t->ntr++];
	*k = (struct tracked){ .pid = pid };
	k->handle = t->probe->ops->open(t->probe->ctx, pid, t->threads, &k->fds, &k->why);
	return k;
}

void task_row_uncounted(struct task_row *r)
{
	for (int e = 0; e < TASK_ROW_COUNTS; e++)
		r->counted[e] = NAN;
	for (int l = 0; l < TASK_TOPDOWN; l++)
		r->topdown[l] = NAN;
}

/* TopDown level 1 from the interval's perf metrics: each a share of the four's sum (perf's
 * rule, which also holds when the kernel's slots differ from their sum by rounding) */
static void topdown_level1(const double *d, double *out)
{
	double sum = 0;
	for (int l = 0; l < TASK_TOPDOWN; l++)
		sum += d[TASK_TD_RETIRING + l];
	for (int l = 0; l < TASK_TOPDOWN; l++)
		out[l] = sum > 0 ? 100 * d[TASK_TD_RETIRING + l] / sum : NAN;
}

/* The figures of the interval from a tracked task's counts. */
static void figures(struct task_table *t, struct tracked *k, uint64_t now_ns, double interval, struct task_row *r)
{
	r->ipc = r->cache_mpki = r->branch_mpki = NAN;
	task_row_uncounted(r);
	r->why = k->why;
	struct task_counts c;
	if (!k->handle || !t->probe->ops->read(t->probe->ctx, k->handle, now_ns, &c))
		return;
	if (k->have_last) {
		double d[TASK_EVENTS];
		for (int e = 0; e < TASK_EVENTS; e++)
			d[e] = c.v[e] == UINT64_MAX || k->last.v[e] == UINT64_MAX ? NAN : (double)(c.v[e] - k->last.v[e]);
		memcpy(r->counted, d, sizeof(d));
		double ins = d[TASK_INSTRUCTIONS];
		if (isfinite(d[TASK_CLOCK]) && interval > 0)
			r->cpu_pct = 100 * d[TASK_CLOCK] / interval; /* the kernel's ns, not ticks */
		r->ipc = d[TASK_CYCLES] > 0 ? ins / d[TASK_CYCLES] : NAN;
		r->cache_mpki = ins > 0 ? 1000 * d[TASK_CACHE_MISSES] / ins : NAN;
		r->branch_mpki = ins > 0 ? 1000 * d[TASK_BRANCH_MISSES] / ins : NAN;
		topdown_level1(d, r->topdown);
	}
	k->last = c;
	k->have_last = true;
}

/* Each task's CPU time over the interval (from its previous sample; at the first, all it
 * has used, as top's first screen), highest first. */
static int rank(struct task_table *t, struct task_sample *now, int n, struct ranked *out)
{
	for (int i = 0; i < n; i++) {
		struct task_sample key = { .pid = now[i].pid };
		const struct task_sample *was = t->nprev ? bsearch(&key, t->prev, (size_t)t->nprev, sizeof(key), by_pid) : NULL;
		double used = !t->prev_ns ? (double)now[i].cpu_ns
			    : was && now[i].cpu_ns >= was->cpu_ns ? (double)(now[i].cpu_ns - was->cpu_ns) : 0;
		out[i] = (struct ranked){ &now[i], used };
	}
	qsort(out, (size_t)n, sizeof(*out), by_cpu);
	return n < t->max ? n : t->max;
}

const char *task_table_note(const struct task_table *t)
{
	return t->probe->ops->note ? t->probe->ops->note(t->probe->ctx) : NULL;
}

int task_table_sample(struct task_table *t, uint64_t now_ns, double machine_cycles, const struct task_row **rows,
		      int *cost)
{
	struct task_sample *now = NULL;
	int n = t->probe->ops->list(t->probe->ctx, now_ns, t->threads, &now);
	qsort(now, (size_t)n, sizeof(*now), by_pid);
	struct ranked *rk = xmalloc(sizeof(*rk) * (size_t)(n ? n : 1));
	int top = rank(t, now, n, rk), b = t->cur ^ 1;
	double interval = t->prev_ns && now_ns > t->prev_ns ? (double)(now_ns - t->prev_ns) : NAN;
	for (int i = 0; i < t->ntr; i++)
		t->tr[i].kept = false;
	*cost = 0;
	for (int i = 0; i < top; i++) {
		const struct task_sample *s = rk[i].s;
		struct task_row *r = &t->rows[b][i];
		struct row_text *tx = &t->text[b][i];
		snprintf(tx->comm, sizeof(tx->comm), "%s", s->comm);
		snprintf(tx->user, sizeof(tx->user), "%s", s->label ? "" : s->user[0] ? s->user : user_name(t, s->uid));
		*r = (struct task_row){ .pid = s->pid, .tgid = s->tgid, .comm = s->label ? s->label : tx->comm, .user = tx->user,
					.threads = s->threads,
					.cpu_pct = 100 * rk[i].cpu_ns / interval, .ipc = NAN, .cache_mpki = NAN,
					.branch_mpki = NAN, .cycles_share = NAN };
		task_row_uncounted(r);
		if (t->probe->ops->cgroup) { /* the top rows only: a file read each */
			t->probe->ops->cgroup(t->probe->ctx, s->tgid ? s->tgid : s->pid, tx->cgroup, sizeof(tx->cgroup));
			r->cgroup = tx->cgroup[0] ? tx->cgroup : NULL;
		}
		if (!t->want)
			continue;
		struct tracked *k = track(t, s->pid);
		k->kept = true;
		*cost += k->fds;
		figures(t, k, now_ns, interval, r);
		r->cycles_share = machine_cycles > 0 && isfinite(r->counted[TASK_CYCLES])
					  ? 100 * r->counted[TASK_CYCLES] / machine_cycles : NAN;
	}
	for (int i = t->ntr - 1; i >= 0; i--) /* out of the top: its descriptors back */
		if (!t->tr[i].kept)
			untrack(t, i);
	free(rk);
	free(t->prev);
	t->prev = now;
	t->nprev = n;
	t->prev_ns = now_ns;
	t->cur = b;
	*rows = t->rows[b];
	return top;
}
