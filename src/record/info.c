/* SPDX-License-Identifier: GPL-2.0-only */
/* info.c - what a recording holds, for a person (pmutop record --info).
 *
 * A reader of files anyone may hand it: a damaged chunk at either end is stepped over
 * (the range shown is what can be read, and the damage is said), every string from the
 * file is escaped before it reaches a terminal, and nothing here trusts a count the
 * file claims (the store refuses those). The recording fuzzer calls this as the command
 * does. */
#include "record/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/textbuf.h"
#include "base/util.h"
#include "record/rec_tasks.h"
#include "record/store.h"

static void stamp(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S %z", &tm))
		snprintf(buf, len, "@%llu", (unsigned long long)(wall_ns / 1000000000ull));
}

static void put_row(void *ctx, int n, const char *const *v)
{
	struct textbuf *out = ctx;
	for (int i = 0; i < n; i++) {
		textbuf_put(out, i ? "  " : "    ");
		textbuf_put(out, v[i] ? v[i] : "");
	}
	textbuf_putc(out, '\n');
}

static void put_meta(struct textbuf *out, struct store *st)
{
	static const char *const keys[] = { "host", "kernel", "pmutop_version", "version", "source", "command", "who", "who_end", "profiles" };
	static const char *const labels[] = { "host", "kernel", "pmutop", "format", "source", "command", "counted", "ended", "profiles" };
	textbuf_putc(out, '\n');
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *v = store_meta(st, keys[i]);
		if (!v && i >= 6 && i <= 7)
			continue; /* the machine was counted: no who */
		textbuf_printf(out, "%-11s %s\n", labels[i], v ? v : "?");
		free(v);
	}
	char *np = store_meta(st, "profiles");
	int n = np ? atoi(np) : 0;
	free(np);
	for (int i = 0; i < n && i < 64; i++) {
		char key[64];
		snprintf(key, sizeof(key), "profile.%d.name", i);
		char *name = store_meta(st, key);
		snprintf(key, sizeof(key), "profile.%d.path", i);
		char *p = store_meta(st, key);
		textbuf_printf(out, "  %-12s %s\n", name ? name : "?", p ? p : "");
		free(name);
		free(p);
	}
}

/* from, to and the samples that can be read; the damage, if any. */
static int put_range(struct textbuf *out, struct store *st)
{
	uint64_t first, last, fa, lb;
	store_range(st, &first, &last);
	struct rec_sample a, b;
	rec_sample_alloc(&a, store_ncounters(st));
	rec_sample_alloc(&b, store_ncounters(st));
	char *damage = NULL;
	if (store_readable_range(st, &fa, &lb, &damage) == 0 && store_sample_quiet(st, fa, &a) && store_sample_quiet(st, lb, &b)) {
		/* from the start of the first interval counted to the end of the last, so the
		 * span said is the one between the two stamps */
		uint64_t from = a.wall_ns > a.interval_ns ? a.wall_ns - a.interval_ns : a.wall_ns;
		char t1[64], t2[64];
		stamp(from, t1, sizeof(t1));
		stamp(b.wall_ns, t2, sizeof(t2));
		textbuf_printf(out, "from        %s\nto          %s (%.0f s)\n", t1, t2,
			       b.wall_ns > from ? (double)(b.wall_ns - from) / 1e9 : 0.0);
	}
	textbuf_printf(out, "samples     %llu", first ? (unsigned long long)(last - first + 1) : 0ull);
	if (fa && lb && (fa != first || lb != last))
		textbuf_printf(out, " (%llu to %llu readable)", (unsigned long long)fa, (unsigned long long)lb);
	textbuf_putc(out, '\n');
	if (damage)
		textbuf_printf(out, "damaged     %s\n", damage);
	free(damage);
	rec_sample_free(&a);
	rec_sample_free(&b);
	return damage ? 1 : 0;
}

int record_info(const char *path, struct textbuf *out, char **err)
{
	struct store *st = store_open(path, err);
	if (!st)
		return -1;
	textbuf_printf(out, "recording   %s", path);
	put_meta(out, st);
	int status = put_range(out, st);
	textbuf_printf(out, "counters    %d\n", store_ncounters(st));
	char *max = store_meta(st, "cpu_rows_max"); /* bind_cpu_sums.c: the monitor's, past that */
	textbuf_printf(out, "cpu rows    %s\n", max ? "none: per-CPU groups counted in their socket rows" : "kept");
	free(max);
	textbuf_printf(out, "tasks       %s\n", rec_tasks_recorded(st, REC_TASKS) ? "kept (replay with T, or -r FILE -b --tasks N)" : "none");
	textbuf_printf(out, "cgroups     %s\n",
		       rec_tasks_recorded(st, REC_CGROUPS) ? "kept (replay with G, or -r FILE -b --cgroups[=N])" : "none");
	uint64_t chunk_bytes, file_bytes, chunk_samples;
	store_sizes(st, &chunk_bytes, &file_bytes, &chunk_samples);
	textbuf_printf(out, "size        %llu bytes", (unsigned long long)file_bytes);
	if (chunk_samples && store_ncounters(st))
		textbuf_printf(out, " (chunks: %.3f bytes per counter per sample)",
			       (double)chunk_bytes / (double)chunk_samples / store_ncounters(st));
	textbuf_put(out, "\nevents\n");
	char *qerr = NULL;
	if (store_query(st, "SELECT seq, kind, instance_name, term, value FROM events ORDER BY seq, id", put_row, out,
			&qerr) < 0) {
		textbuf_printf(out, "    (unreadable: %s)\n", qerr ? qerr : "?");
		status = 1;
	}
	free(qerr);
	store_close(st);
	textbuf_escape_controls(out);
	return status;
}
