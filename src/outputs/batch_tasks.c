/* SPDX-License-Identifier: GPL-2.0-only */
/* batch_tasks.c - the top tasks (--tasks N) in batch text, CSV and JSON. */
#include "outputs/batch_tasks.h"

#include "outputs/batch_escape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numtext.h"
#include "base/textbuf.h"
#include "engine/frame.h"
#include "machine/generic_events.h"

/* A figure that may be missing: null in JSON */
static void json_maybe(struct textbuf *tb, const char *key, double v)
{
	textbuf_put(tb, key);
	if (isfinite(v))
		batch_json_num(tb, v);
	else
		textbuf_put(tb, "null");
}

/* TopDown level 1's figures, as perf names the metrics (tma_retiring ...) without tma_ */
static const char *const topdown_key[TASK_TOPDOWN] = { "retiring", "bad_speculation", "frontend_bound", "backend_bound" };
static const char *const topdown_head[TASK_TOPDOWN] = { "RET%", "BAD%", "FE%", "BE%" };

/* Whether a table's rows have a cycles share (the machine's cycles counted): its column */
static bool has_cycles(const struct task_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		if (isfinite(rows[i].cycles_share))
			return true;
	return false;
}

/* Whether a table's rows have TopDown (the CPU has perf metrics): its columns, else none */
static bool has_topdown(const struct task_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		if (isfinite(rows[i].topdown[0]))
			return true;
	return false;
}

/* A table's cost and note: ,"task_fds":N,"tasks_note":"..." */
static void json_table_head(struct textbuf *tb, const char *kind, int fds, const char *note)
{
	textbuf_put(tb, ",\"");
	textbuf_put(tb, kind);
	textbuf_put(tb, "_fds\":");
	textbuf_u64(tb, (uint64_t)fds);
	if (note) {
		textbuf_put(tb, ",\"");
		textbuf_put(tb, kind);
		textbuf_put(tb, "s_note\":");
		batch_json_string(tb, note);
	}
}

/* A row's figures, what could not be counted, and its end: the cache misses under the
 * name of the level this CPU counts (llc_mpki on Intel, l1d_mpki on Arm) */
static void json_row_tail(struct textbuf *tb, const struct task_row *t, const struct frame *fr)
{
	char key[40];
	snprintf(key, sizeof(key), ",\"%s\":", fr->cache_misses->key);
	json_maybe(tb, ",\"cpu_pct\":", t->cpu_pct);
	if (isfinite(t->cycles_share)) /* where the machine's cycles are counted */
		json_maybe(tb, ",\"cycles_share\":", t->cycles_share);
	json_maybe(tb, ",\"ipc\":", t->ipc);
	json_maybe(tb, key, t->cache_mpki);
	json_maybe(tb, ",\"branch_mpki\":", t->branch_mpki);
	for (int l = 0; l < TASK_TOPDOWN && isfinite(t->topdown[0]); l++) {
		snprintf(key, sizeof(key), ",\"%s\":", topdown_key[l]);
		json_maybe(tb, key, t->topdown[l]);
	}
	if (t->why) {
		textbuf_put(tb, ",\"why\":");
		batch_json_string(tb, t->why);
	}
	textbuf_putc(tb, '}');
}

/* The top tasks (--tasks N): each with pid, comm and user, as top's rows */
void batch_json_tasks(struct textbuf *tb, const struct frame *fr)
{
	if (!fr->tasks)
		return;
	json_table_head(tb, "task", fr->task_fds, fr->tasks_note);
	textbuf_put(tb, ",\"tasks\":[");
	for (int i = 0; i < fr->ntasks; i++) {
		const struct task_row *t = &fr->tasks[i];
		textbuf_put(tb, i ? ",{\"pid\":" : "{\"pid\":");
		textbuf_u64(tb, (uint64_t)t->tgid);
		if (fr->tasks_threads) { /* a thread's row: its TID beside its process */
			textbuf_put(tb, ",\"tid\":");
			textbuf_u64(tb, (uint64_t)t->pid);
		}
		textbuf_put(tb, ",\"comm\":");
		batch_json_string(tb, t->comm);
		textbuf_put(tb, ",\"user\":");
		batch_json_string(tb, t->user);
		textbuf_put(tb, ",\"threads\":");
		textbuf_u64(tb, (uint64_t)t->threads);
		if (t->cgroup) {
			textbuf_put(tb, ",\"cgroup\":");
			batch_json_string(tb, t->cgroup);
		}
		json_row_tail(tb, t, fr);
	}
	textbuf_putc(tb, ']');
}

/* The cgroups (-G, --cgroups): each with its path and processes, as perf stat -G's */
void batch_json_cgroups(struct textbuf *tb, const struct frame *fr)
{
	if (!fr->cgroups)
		return;
	json_table_head(tb, "cgroup", fr->cgroup_fds, fr->cgroups_note);
	textbuf_put(tb, ",\"cgroups\":[");
	for (int i = 0; i < fr->ncgroups; i++) {
		const struct task_row *c = &fr->cgroups[i];
		textbuf_put(tb, i ? ",{\"cgroup\":" : "{\"cgroup\":");
		batch_json_string(tb, c->comm);
		textbuf_put(tb, ",\"procs\":");
		textbuf_u64(tb, (uint64_t)c->threads);
		json_row_tail(tb, c, fr);
	}
	textbuf_putc(tb, ']');
}

const char *batch_csv_who_header(const struct frame *fr)
{
	return fr->tasks ? ",pid,comm,cgroup" : fr->cgroups ? ",cgroup" : ""; /* a task's cgroup too */
}

const char *batch_csv_who_empty(const struct frame *fr)
{
	return fr->tasks ? ",,," : fr->cgroups ? "," : "";
}

/* A task's or a cgroup's four figures, a CSV line each, its own in the columns the
 * frame adds (pid and comm, cgroup) */
static void csv_figures(struct textbuf *tb, const struct task_row *t, const char *when, const char *source, bool cgroup,
			const struct frame *fr, bool topdown, bool cycles)
{
	const char *kind = cgroup ? "cgroup" : "task";
	const char *const names[] = { "cpu_pct", "ipc", fr->cache_misses->key, "branch_mpki", topdown_key[0], topdown_key[1],
				      topdown_key[2], topdown_key[3], "cycles_share" };
	static const char *const units[] = { "%", "", "", "", "%", "%", "%", "%", "%" };
	const double v[] = { t->cpu_pct, t->ipc, t->cache_mpki, t->branch_mpki, t->topdown[0], t->topdown[1], t->topdown[2],
			     t->topdown[3], t->cycles_share };
	char pid[16], id[16];
	snprintf(pid, sizeof(pid), "%d", t->tgid);
	snprintf(id, sizeof(id), "%d", t->pid);
	for (int k = 0; k < 9; k++) { /* TopDown and the cycles share where the table has them */
		if ((k >= 4 && k < 8 && !topdown) || (k == 8 && !cycles))
			continue;
		textbuf_put(tb, when);
		textbuf_putc(tb, ',');
		batch_csv_field(tb, source);
		textbuf_put(tb, cgroup ? ",cgroups," : ",tasks,");
		textbuf_put(tb, kind);
		textbuf_putc(tb, '.');
		textbuf_put(tb, names[k]);
		textbuf_putc(tb, ',');
		if (cgroup)
			batch_csv_field(tb, t->comm);
		else
			textbuf_put(tb, id);
		textbuf_putc(tb, ',');
		if (isfinite(v[k])) {
			char num[40];
			textbuf_putn(tb, num, (size_t)format_g7_or_whole(num, sizeof(num), v[k]));
		}
		textbuf_putc(tb, ',');
		textbuf_put(tb, units[k]);
		textbuf_put(tb, isfinite(v[k]) ? ",ok" : ",no value");
		if (fr->tasks) { /* pid, comm: a task's */
			textbuf_putc(tb, ',');
			textbuf_put(tb, cgroup ? "" : pid);
			textbuf_putc(tb, ',');
			if (!cgroup)
				batch_csv_field(tb, t->comm);
		}
		textbuf_putc(tb, ','); /* cgroup: a cgroup's path, or the cgroup a task is in */
		if (cgroup || t->cgroup)
			batch_csv_field(tb, cgroup ? t->comm : t->cgroup);
		textbuf_putc(tb, '\n');
	}
}

/* --tasks: each task's figures, a row each, the task in the pid and comm columns (the
 * instance a thread's TID with --per-thread, the pid column its process's); -G,
 * --cgroups: each cgroup's, its path the instance and the cgroup column */
void batch_csv_tasks(struct textbuf *tb, const struct frame *fr, const char *when, const char *source)
{
	bool td = fr->tasks && has_topdown(fr->tasks, fr->ntasks), cyc = fr->tasks && has_cycles(fr->tasks, fr->ntasks);
	for (int i = 0; fr->tasks && i < fr->ntasks; i++)
		csv_figures(tb, &fr->tasks[i], when, source, false, fr, td, cyc);
	td = fr->cgroups && has_topdown(fr->cgroups, fr->ncgroups);
	cyc = fr->cgroups && has_cycles(fr->cgroups, fr->ncgroups);
	for (int i = 0; fr->cgroups && i < fr->ncgroups; i++)
		csv_figures(tb, &fr->cgroups[i], when, source, true, fr, td, cyc);
}

/* the cache column's width: its name's ("CACHE-MPKI"), at least the figures' 8 */
static int cache_width(const struct frame *fr)
{
	int n = (int)strlen(fr->cache_misses->column);
	return n > 8 ? n : 8;
}

static void put_figure(struct textbuf *tb, double v, int width, int decimals)
{
	char num[32];
	if (isfinite(v))
		snprintf(num, sizeof(num), "%*.*f", width, decimals, v);
	else
		snprintf(num, sizeof(num), "%*s", width, "-");
	textbuf_put(tb, num);
}

/* The figures every row has, IPC to BR-MPKI, its share of the machine's cycles and
 * TopDown's where the table has them (cyc, td) */
static void put_figures(struct textbuf *tb, const struct task_row *t, int cw, bool td, bool cyc)
{
	if (cyc) {
		put_figure(tb, t->cycles_share, 5, 1);
		textbuf_putc(tb, ' ');
	}
	put_figure(tb, t->ipc, 6, 2);
	textbuf_putc(tb, ' ');
	put_figure(tb, t->cache_mpki, cw, 2);
	textbuf_putc(tb, ' ');
	put_figure(tb, t->branch_mpki, 8, 2);
	for (int l = 0; td && l < TASK_TOPDOWN; l++) {
		textbuf_putc(tb, ' ');
		put_figure(tb, t->topdown[l], 5, 1);
	}
	textbuf_put(tb, "  ");
}

/* ... their heads, and the last column's */
static void put_heads(struct textbuf *tb, const struct frame *fr, int cw, bool td, bool cyc, const char *last)
{
	char h[96];
	snprintf(h, sizeof(h), "%s%6s %*s %8s", cyc ? " CYC% " : "", "IPC", cw, fr->cache_misses->column, "BR-MPKI");
	textbuf_put(tb, h);
	for (int l = 0; td && l < TASK_TOPDOWN; l++) {
		snprintf(h, sizeof(h), " %5s", topdown_head[l]);
		textbuf_put(tb, h);
	}
	textbuf_put(tb, "  ");
	textbuf_put(tb, last);
	textbuf_putc(tb, '\n');
}

/* a row's command or path, and why it is not counted */
static void put_name(struct textbuf *tb, const struct task_row *t)
{
	textbuf_put(tb, t->comm);
	if (t->why) {
		textbuf_put(tb, "  (");
		textbuf_put(tb, t->why);
		textbuf_putc(tb, ')');
	}
	textbuf_putc(tb, '\n');
}

/* The top tasks, as top and tiptop print them (--tasks N) */
void batch_write_text_tasks(struct textbuf *tb, const struct frame *fr)
{
	if (!fr->tasks)
		return;
	char head[160];
	if (fr->tasks_note) {
		textbuf_put(tb, "  tasks: ");
		textbuf_put(tb, fr->tasks_note);
		textbuf_putc(tb, '\n');
	}
	bool th = fr->tasks_threads, td = has_topdown(fr->tasks, fr->ntasks), cyc = has_cycles(fr->tasks, fr->ntasks);
	int cw = cache_width(fr);
	snprintf(head, sizeof(head), "  %s: top %d by CPU, %d counters open\n  %7s %-10s %6s %*s ", th ? "threads" : "tasks",
		 fr->ntasks, fr->task_fds, th ? "TID" : "PID", "USER", "CPU%", th ? 7 : 4, th ? "TGID" : "THR");
	textbuf_put(tb, head);
	put_heads(tb, fr, cw, td, cyc, "COMMAND");
	for (int i = 0; i < fr->ntasks; i++) {
		const struct task_row *t = &fr->tasks[i];
		char lead[64];
		snprintf(lead, sizeof(lead), "  %7d %-10.10s ", t->pid, t->user);
		textbuf_put(tb, lead);
		put_figure(tb, t->cpu_pct, 6, 1);
		snprintf(lead, sizeof(lead), " %*d ", th ? 7 : 4, th ? t->tgid : t->threads);
		textbuf_put(tb, lead);
		put_figures(tb, t, cw, td, cyc);
		put_name(tb, t);
	}
}

/* The cgroups (-G, --cgroups), as perf stat -G's rows beside the machine's */
void batch_write_text_cgroups(struct textbuf *tb, const struct frame *fr)
{
	if (!fr->cgroups)
		return;
	char head[200];
	bool td = has_topdown(fr->cgroups, fr->ncgroups), cyc = has_cycles(fr->cgroups, fr->ncgroups);
	int cw = cache_width(fr);
	snprintf(head, sizeof(head), "  cgroups: %d by CPU, %d counters open%s%s%s\n  %7s %6s ", fr->ncgroups, fr->cgroup_fds,
		 fr->cgroups_note ? " (" : "", fr->cgroups_note ? fr->cgroups_note : "", fr->cgroups_note ? ")" : "", "CPU%",
		 "PROCS");
	textbuf_put(tb, head);
	put_heads(tb, fr, cw, td, cyc, "CGROUP");
	for (int i = 0; i < fr->ncgroups; i++) {
		const struct task_row *c = &fr->cgroups[i];
		char lead[32];
		textbuf_put(tb, "  ");
		put_figure(tb, c->cpu_pct, 7, 1); /* the root: a machine of 100 CPUs or more */
		snprintf(lead, sizeof(lead), " %6d ", c->threads);
		textbuf_put(tb, lead);
		put_figures(tb, c, cw, td, cyc);
		put_name(tb, c);
	}
}
