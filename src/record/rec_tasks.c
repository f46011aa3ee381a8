/* SPDX-License-Identifier: GPL-2.0-only */
/* rec_tasks.c - the top tasks and the cgroups in a recording, kept and read back as the
 * frames showed them. */
#include "record/rec_tasks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/tasks.h"
#include "record/store.h"

/* comm and user as /proc gives them, a cgroup's path as long as a reader shows one:
 * longer text from a file is cut */
static const int text_max[REC_ROW_KINDS] = { 32, 256 };
static const char *const table[REC_ROW_KINDS] = { "tasks", "cgroups" };

void rec_tasks_copy(struct rec_tasks *t, const struct frame *f, enum rec_rows kind)
{
	const struct task_row *rows = kind == REC_CGROUPS ? f->cgroups : f->tasks;
	*t = (struct rec_tasks){ .kind = kind, .n = !rows ? 0 : kind == REC_CGROUPS ? f->ncgroups : f->ntasks,
				 .threads = kind == REC_TASKS && f->tasks_threads };
	if (!t->n)
		return;
	t->rows = xcalloc((size_t)t->n, sizeof(*t->rows));
	for (int i = 0; i < t->n; i++) {
		t->rows[i] = rows[i];
		t->rows[i].comm = xstrdup(rows[i].comm ? rows[i].comm : "");
		t->rows[i].user = xstrdup(rows[i].user ? rows[i].user : "");
		t->rows[i].why = rows[i].why ? xstrdup(rows[i].why) : NULL;
		t->rows[i].cgroup = rows[i].cgroup ? xstrdup(rows[i].cgroup) : NULL;
	}
}

void rec_tasks_free(struct rec_tasks *t)
{
	for (int i = 0; i < t->n; i++) {
		free((char *)t->rows[i].comm);
		free((char *)t->rows[i].user);
		free((char *)t->rows[i].why);
		free((char *)t->rows[i].cgroup);
	}
	free(t->rows);
	*t = (struct rec_tasks){ 0 };
}

/* A figure as SQL text: NULL for none (not counted) */
static const char *figure(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		return NULL;
	snprintf(buf, len, "%.17g", v);
	return buf;
}

int rec_tasks_write(struct store *st, uint64_t seq, const struct rec_tasks *t, char **err)
{
	if (!t->n)
		return 0;
	int r = store_exec(st, "BEGIN", err);
	for (int i = 0; i < t->n && r == 0; i++) {
		const struct task_row *k = &t->rows[i];
		char s[24], mode[4], pid[16], tgid[16], thr[16], cpu[32], ipc[32], llc[32], br[32], td[TASK_TOPDOWN][32], cyc[32];
		snprintf(s, sizeof(s), "%llu", (unsigned long long)seq);
		snprintf(mode, sizeof(mode), "%d", t->threads);
		snprintf(pid, sizeof(pid), "%d", k->pid);
		snprintf(tgid, sizeof(tgid), "%d", k->tgid);
		snprintf(thr, sizeof(thr), "%d", k->threads);
		const char *v[] = { s,	  mode, pid, tgid, k->comm, k->user, thr, figure(cpu, sizeof(cpu), k->cpu_pct),
				    figure(ipc, sizeof(ipc), k->ipc), figure(llc, sizeof(llc), k->cache_mpki),
				    figure(br, sizeof(br), k->branch_mpki), k->why, k->cgroup,
				    figure(td[0], sizeof(td[0]), k->topdown[0]), figure(td[1], sizeof(td[1]), k->topdown[1]),
				    figure(td[2], sizeof(td[2]), k->topdown[2]), figure(td[3], sizeof(td[3]), k->topdown[3]),
				    figure(cyc, sizeof(cyc), k->cycles_share) };
		char sql[320];
		snprintf(sql, sizeof(sql), "INSERT INTO %s(seq, threads, pid, tgid, comm, user, nthreads, cpu_pct, ipc, llc_mpki,"
					   " branch_mpki, why, cgroup, retiring, bad_speculation, frontend_bound, backend_bound,"
					   " cycles_share) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18)",
			 table[t->kind]);
		r = store_put_row(st, sql, 18, v, err);
	}
	return store_end_transaction(st, r, err);
}

static void found(void *ctx, int n, const char *const *v)
{
	(void)n;
	(void)v;
	*(bool *)ctx = true;
}

bool rec_tasks_recorded(struct store *st, enum rec_rows kind)
{
	bool any = false;
	char *err = NULL, sql[120];
	/* a recording made before these rows were kept has no such table: none */
	snprintf(sql, sizeof(sql), "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '%s'", table[kind]);
	if (store_query(st, sql, found, &any, &err) < 0 || !any) {
		free(err);
		return false;
	}
	any = false;
	snprintf(sql, sizeof(sql), "SELECT 1 FROM %s LIMIT 1", table[kind]);
	if (store_query(st, sql, found, &any, &err) < 0)
		free(err);
	return any;
}

static double number(const char *v)
{
	char *end;
	double d = v ? strtod(v, &end) : NAN;
	return v && end != v && isfinite(d) ? d : NAN;
}

static int integer(const char *v)
{
	double d = number(v);
	return isfinite(d) && d >= 0 && d <= 1e9 ? (int)d : 0;
}

static void row(void *ctx, int n, const char *const *v)
{
	struct rec_tasks *t = ctx;
	if (n < 12 || t->n >= REC_TASKS_MAX)
		return;
	struct task_row *k = &t->rows[t->n++];
	t->threads = t->kind == REC_TASKS && integer(v[1]) != 0;
	char comm[256], user[32];
	snprintf(comm, (size_t)text_max[t->kind], "%s", v[4] ? v[4] : "");
	snprintf(user, sizeof(user), "%s", v[5] ? v[5] : "");
	*k = (struct task_row){ .pid = integer(v[2]), .tgid = integer(v[3]), .comm = xstrdup(comm), .user = xstrdup(user),
				.threads = integer(v[6]), .cpu_pct = number(v[7]), .ipc = number(v[8]),
				.cache_mpki = number(v[9]), .branch_mpki = number(v[10]), .cycles_share = NAN };
	task_row_uncounted(k); /* a recording keeps the figures, not the counts */
	if (v[11]) {
		char why[160];
		snprintf(why, sizeof(why), "%s", v[11]);
		k->why = xstrdup(why);
	}
	if (n > 12 && v[12]) { /* a task's cgroup (files before it have none): text, its controls escaped */
		char cgroup[160], *esc = str_escape_controls(v[12]);
		snprintf(cgroup, sizeof(cgroup), "%s", esc);
		free(esc);
		k->cgroup = xstrdup(cgroup);
	}
	for (int l = 0; n > 16 && l < TASK_TOPDOWN; l++) { /* TopDown level 1 (files before it have none) */
		double share = number(v[13 + l]);
		k->topdown[l] = share >= 0 && share <= 100 ? share : NAN; /* a percentage, or none */
	}
	double cyc = n > 17 ? number(v[17]) : NAN; /* a share of a noisy whole may pass 100 a little */
	k->cycles_share = cyc >= 0 && cyc <= 1000 ? cyc : NAN;
}

void rec_tasks_read(struct store *st, uint64_t seq, enum rec_rows kind, struct rec_tasks *t)
{
	rec_tasks_free(t);
	t->kind = kind;
	t->rows = xcalloc(REC_TASKS_MAX, sizeof(*t->rows));
	char sql[320], *err = NULL;
	/* with the cycles share, TopDown and cgroup columns, or (a file made before them) without */
	static const char *const later[] = { "", ", cgroup", ", cgroup, retiring, bad_speculation, frontend_bound, backend_bound",
					     ", cgroup, retiring, bad_speculation, frontend_bound, backend_bound, cycles_share" };
	for (int with = 3; with >= 0; with--) {
		snprintf(sql, sizeof(sql), "SELECT seq, threads, pid, tgid, comm, user, nthreads, cpu_pct, ipc, llc_mpki,"
					   " branch_mpki, why%s FROM %s WHERE seq = %llu ORDER BY rowid", later[with],
			 table[kind], (unsigned long long)seq);
		if (store_query(st, sql, row, t, &err) == 0)
			return;
		free(err); /* none: a table made by someone else, or damaged */
		err = NULL;
	}
}

/* One kind's rows as a replay shows them */
struct feed_kind {
	bool any;                  /* the recording kept them */
	struct rec_tasks rows[2];  /* the rows of the last two frames */
	int max;                   /* rows a frame at most (0: all kept) */
	uint64_t seq[2];
	int cur;
};

struct rec_task_feed {
	struct store *st;
	struct feed_kind kind[REC_ROW_KINDS];
};

struct rec_task_feed *rec_task_feed_new(struct store *st)
{
	struct rec_task_feed *tf = xcalloc(1, sizeof(*tf));
	tf->st = st;
	for (int k = 0; k < REC_ROW_KINDS; k++)
		tf->kind[k].any = rec_tasks_recorded(st, (enum rec_rows)k);
	return tf;
}

void rec_task_feed_free(struct rec_task_feed *tf)
{
	if (!tf)
		return;
	for (int k = 0; k < REC_ROW_KINDS; k++) {
		rec_tasks_free(&tf->kind[k].rows[0]);
		rec_tasks_free(&tf->kind[k].rows[1]);
	}
	free(tf);
}

void rec_task_feed_limit(struct rec_task_feed *tf, enum rec_rows kind, int max)
{
	tf->kind[kind].max = max;
}

bool rec_task_feed_any(const struct rec_task_feed *tf, enum rec_rows kind)
{
	return tf && tf->kind[kind].any;
}

void rec_task_feed_frame(struct rec_task_feed *tf, uint64_t seq, enum rec_rows kind, struct frame *f)
{
	struct feed_kind *fk = &tf->kind[kind];
	const char **note = kind == REC_CGROUPS ? &f->cgroups_note : &f->tasks_note;
	if (!fk->any) {
		*note = kind == REC_CGROUPS ? "this recording kept no cgroups (record with -G or --cgroups, or with the Cgroups view open)"
					    : "this recording kept no tasks (record with --tasks N, or with the Tasks view open)";
		return;
	}
	if (!seq)
		return;
	int b = fk->seq[fk->cur] == seq ? fk->cur : fk->cur ^ 1;
	if (fk->seq[b] != seq) {
		rec_tasks_read(tf->st, seq, kind, &fk->rows[b]);
		fk->seq[b] = seq;
	}
	fk->cur = b;
	int n = fk->max > 0 && fk->rows[b].n > fk->max ? fk->max : fk->rows[b].n; /* kept by CPU, highest first */
	if (kind == REC_CGROUPS) {
		f->cgroups = fk->rows[b].rows;
		f->ncgroups = n;
	} else {
		f->tasks = fk->rows[b].rows;
		f->ntasks = n;
		f->tasks_threads = fk->rows[b].threads;
	}
	*note = "as recorded";
}
