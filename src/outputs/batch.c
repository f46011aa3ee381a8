/* SPDX-License-Identifier: GPL-2.0-only */
/* batch.c - batch output of frames: text for people, CSV, JSON lines. Each interval is
 * built in memory (base/textbuf.h: no stdio formatting in the interval) and written
 * whole, so pipes see it at once and a failing write never leaves half a line. */
#include "outputs/batch.h"
#include "outputs/batch_escape.h"
#include "outputs/batch_tasks.h"
#include "outputs/bottleneck.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/numtext.h"
#include "base/textbuf.h"
#include "base/util.h"
#include "profile/profile.h"
#include "engine/output.h"
#include "engine/runloop.h"

bool batch_parse_format(const char *s, enum batch_format *f)
{
	if (!strcmp(s, "text"))
		*f = BATCH_TEXT;
	else if (!strcmp(s, "csv"))
		*f = BATCH_CSV;
	else if (!strcmp(s, "json"))
		*f = BATCH_JSON;
	else
		return false;
	return true;
}

bool batch_shows_host_meters(enum batch_format f)
{
	return f == BATCH_TEXT;
}

void format_metric_value(const struct frame_value *v, char *buf, size_t len)
{
	switch ((enum value_state)v->state) {
	case VS_OK: /* seven digits, a count whole, as CSV (JSON: ten): 0.0013027, 1e-300 */
		format_g7_or_whole(buf, len, v->value);
		break;
	case VS_NO_VALUE: str_copy(buf, len, "-"); break;
	case VS_NOT_COUNTED: str_copy(buf, len, "not counted"); break;
	case VS_UNREADABLE: str_copy(buf, len, "?"); break;
	case VS_UNAVAILABLE: str_copy(buf, len, "n/a"); break;
	}
}

/* A raw delta exactly, as "%.17g": a count is a whole number (below 2^53 its digits), a
 * scaled count may have a fraction. */
static void json_exact(struct textbuf *tb, double v)
{
	if (v >= 0 && v < 9007199254740992.0 && v == floor(v) && !(v == 0 && signbit(v)))
		textbuf_u64(tb, (uint64_t)v);
	else if (isinf(v))
		textbuf_put(tb, v > 0 ? "1e999" : "-1e999");
	else
		textbuf_printf(tb, "%.17g", v);
}

/* "a=0x1,b=c" as {"a":"0x1","b":"c"} */
static void json_filters(struct textbuf *tb, const char *filters)
{
	textbuf_putc(tb, '{');
	char *copy = xstrdup(filters), *save = NULL;
	bool first = true;
	for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (!first)
			textbuf_putc(tb, ',');
		first = false;
		batch_json_string(tb, kv);
		textbuf_putc(tb, ':');
		batch_json_string(tb, eq + 1);
	}
	free(copy);
	textbuf_putc(tb, '}');
}

/* Instances whose group has filters, or that cannot count: their filters and state. */
static bool instance_worth_listing(const struct frame *fr, int i)
{
	return fr->iinfo[i].group->nfilters > 0 || fr->inst[i].error;
}

static void json_metrics(struct textbuf *tb, const struct frame *fr)
{
	textbuf_put(tb, ",\"metrics\":[");
	bool first = true;
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const struct value_info *vi = &fr->vinfo[k];
		if (vi->m->quiet) /* perf's, shown as the hand metric that is it */
			continue;
		textbuf_put(tb, first ? "{\"profile\":" : ",{\"profile\":");
		first = false;
		batch_json_string(tb, fr->profiles[vi->profile]->name);
		textbuf_put(tb, ",\"metric\":");
		batch_json_string(tb, vi->m->name);
		textbuf_put(tb, ",\"instance\":");
		batch_json_string(tb, fr->iinfo[vi->instance].name);
		if (v->state == VS_OK) {
			textbuf_put(tb, ",\"value\":");
			batch_json_num(tb, v->value);
		} else {
			textbuf_put(tb, ",\"value\":null");
		}
		textbuf_put(tb, ",\"unit\":");
		batch_json_string(tb, vi->m->unit);
		if (v->state != VS_OK) {
			textbuf_put(tb, ",\"state\":");
			batch_json_string(tb, value_state_name((enum value_state)v->state));
		}
		if (v->why) {
			textbuf_put(tb, ",\"reason\":");
			batch_json_string(tb, v->why);
		}
		if (v->multiplexed) {
			textbuf_put(tb, ",\"coverage\":");
			textbuf_fixed(tb, v->coverage, 3);
		}
		if (v->past >= 0) /* perf's MetricThreshold, where the metric has one */
			textbuf_put(tb, v->past ? ",\"past_threshold\":true" : ",\"past_threshold\":false");
		textbuf_putc(tb, '}');
	}
	textbuf_putc(tb, ']');
}

static void json_instances(struct textbuf *tb, const struct frame *fr)
{
	bool first = true;
	for (int i = 0; i < fr->ninstances; i++) {
		if (!instance_worth_listing(fr, i))
			continue;
		textbuf_put(tb, first ? ",\"instances\":[{\"group\":" : ",{\"group\":");
		first = false;
		batch_json_string(tb, fr->iinfo[i].group->name);
		textbuf_put(tb, ",\"instance\":");
		batch_json_string(tb, fr->iinfo[i].name);
		textbuf_put(tb, ",\"filters\":");
		json_filters(tb, fr->inst[i].filters ? fr->inst[i].filters : "");
		if (fr->inst[i].error) {
			textbuf_put(tb, fr->inst[i].absent ? ",\"unavailable\":" : ",\"error\":");
			batch_json_string(tb, fr->inst[i].error);
		}
		textbuf_putc(tb, '}');
	}
	if (!first)
		textbuf_putc(tb, ']');
}

/* ,"exclude":["user","hv"]: what a modifier (":k") left out, in perf_event_attr's names */
static void json_exclude(struct textbuf *tb, uint8_t exclude)
{
	static const char *const names[] = { "user", "kernel", "hv", "guest" };
	if (!exclude)
		return;
	textbuf_put(tb, ",\"exclude\":[");
	for (size_t i = 0, n = 0; i < ARRAY_SIZE(names); i++) {
		if (!(exclude & (1u << i)))
			continue;
		textbuf_put(tb, n++ ? ",\"" : "\"");
		textbuf_put(tb, names[i]);
		textbuf_putc(tb, '"');
	}
	textbuf_putc(tb, ']');
}

static void json_counters(struct textbuf *tb, const struct frame *fr)
{
	textbuf_put(tb, ",\"counters\":[");
	bool first = true;
	for (int c = 0; c < fr->ncounters; c++) {
		const struct counter_info *ci = &fr->cinfo[c];
		const struct frame_counter *fc = &fr->counters[c];
		if (!fr->inst[ci->instance].counting)
			continue;
		textbuf_put(tb, first ? "{\"pmu\":" : ",{\"pmu\":");
		first = false;
		batch_json_string(tb, fr->iinfo[ci->instance].pmu);
		textbuf_put(tb, ",\"event\":");
		batch_json_string(tb, ci->event_name);
		textbuf_put(tb, ",\"instance\":");
		batch_json_string(tb, fr->iinfo[ci->instance].name);
		static const char *const config_key[] = { ",\"config\":\"", "\",\"config1\":\"", "\",\"config2\":\"" };
		for (int i = 0; i < 3; i++) {
			textbuf_put(tb, config_key[i]);
			textbuf_hex(tb, ci->config[i]);
		}
		textbuf_putc(tb, '"');
		json_exclude(tb, ci->exclude);
		textbuf_put(tb, ",\"cpu\":");
		textbuf_int(tb, ci->cpu);
		if (fc->state == VS_OK) {
			textbuf_put(tb, ",\"delta\":");
			json_exact(tb, fc->delta);
		} else {
			textbuf_put(tb, ",\"delta\":null");
		}
		textbuf_put(tb, ",\"enabled_ns\":");
		textbuf_u64(tb, fc->enabled);
		textbuf_put(tb, ",\"running_ns\":");
		textbuf_u64(tb, fc->running);
		textbuf_putc(tb, '}');
	}
	textbuf_putc(tb, ']');
}

static void write_json(struct textbuf *tb, const struct frame *fr, bool raw, const char *when)
{
	textbuf_put(tb, "{\"time\":\"");
	textbuf_put(tb, when);
	textbuf_put(tb, "\",\"interval_ns\":");
	textbuf_u64(tb, fr->interval_ns);
	if (fr->whole_run)
		textbuf_put(tb, ",\"whole_run\":true");
	if (fr->who) { /* a command's or tasks' core events */
		textbuf_put(tb, ",\"who\":");
		batch_json_string(tb, fr->who);
	}
	if (fr->who_end) {
		textbuf_put(tb, ",\"ended\":");
		batch_json_string(tb, fr->who_end);
	}
	double share;
	char *neck = fr->whole_run ? frame_bottleneck(fr, &share) : NULL;
	if (neck) { /* the run's TopDown bottleneck, as toplev ends */
		textbuf_put(tb, ",\"bottleneck\":");
		batch_json_string(tb, neck);
		free(neck);
	}
	textbuf_put(tb, ",\"source\":");
	batch_json_string(tb, fr->source);
	json_metrics(tb, fr);
	batch_json_tasks(tb, fr);
	batch_json_cgroups(tb, fr);
	json_instances(tb, fr);
	if (raw)
		json_counters(tb, fr);
	textbuf_put(tb, "}\n");
}

/* Whether text and CSV print a value: what was asked for, as perf stat -M prints; not
 * what a formula of it reads (-M TopdownL2: tma_info_thread_clks, the level-1 parents),
 * which is counted and in JSON; not perf's metric a hand one shows. */
static bool asked_for(const struct frame *fr, const struct value_info *vi)
{
	return !vi->m->quiet && (!fr->profiles[vi->profile]->selecting || vi->m->asked);
}

/* ... and on a row the aggregation prints: a member of a sum (a CPU, a channel) only
 * with -A; per socket, not the machine's sum of a group's sockets. */
static bool printed(const struct frame *fr, const struct value_info *vi, enum batch_rows rows)
{
	if (!asked_for(fr, vi))
		return false;
	if (rows == ROWS_EVERY)
		return true;
	const struct instance_info *ii = &fr->iinfo[vi->instance];
	if (vi->detail)
		return false;
	char kind = ii->sum_kind;
	switch (rows) {
	case ROWS_PER_SOCKET: return !(kind == 'a' && ii->group && ii->group->aggregate_socket);
	case ROWS_PER_CORE:
	case ROWS_PER_NODE: /* a per-CPU group's cores (nodes) in place of its sockets and machine */
		if (kind == (rows == ROWS_PER_CORE ? 'c' : 'n'))
			return true;
		return !((kind == 'a' || kind == 's') && ii->group && ii->group->split == SPLIT_CPU);
	default: return kind != 'c' && kind != 'n';
	}
}

static void write_csv(struct textbuf *tb, const struct frame *fr, enum batch_rows rows, bool first_frame,
		      const char *when)
{
	/* --tasks, -G: columns more, the task's and the cgroup's, empty on the metrics' rows */
	if (first_frame) {
		textbuf_put(tb, "time,source,profile,metric,instance,value,unit,state");
		textbuf_put(tb, batch_csv_who_header(fr));
		textbuf_putc(tb, '\n');
	}
	char source[96]; /* the summary's rows say so where a reader of the columns looks */
	snprintf(source, sizeof(source), "%s%s", fr->source, fr->whole_run ? " whole run" : "");
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const struct value_info *vi = &fr->vinfo[k];
		if (!printed(fr, vi, rows))
			continue;
		textbuf_put(tb, when);
		textbuf_putc(tb, ',');
		batch_csv_field(tb, source); /* a recording's: from a file */
		textbuf_putc(tb, ',');
		batch_csv_field(tb, fr->profiles[vi->profile]->name);
		textbuf_putc(tb, ',');
		batch_csv_field(tb, vi->m->name);
		textbuf_putc(tb, ',');
		batch_csv_field(tb, fr->iinfo[vi->instance].name);
		textbuf_putc(tb, ',');
		if (v->state == VS_OK) {
			char num[40];
			textbuf_putn(tb, num, (size_t)format_g7_or_whole(num, sizeof(num), v->value));
		}
		textbuf_putc(tb, ',');
		batch_csv_field(tb, vi->m->unit);
		textbuf_putc(tb, ',');
		textbuf_put(tb, v->multiplexed && v->state == VS_OK ? "multiplexed" : value_state_name((enum value_state)v->state));
		textbuf_put(tb, batch_csv_who_empty(fr));
		textbuf_putc(tb, '\n');
	}
	batch_csv_tasks(tb, fr, when, source);
}

/* s padded with blanks to width (on the left when right-aligned), as printf's "%-28s"
 * and "%12s" do: byte widths, never cut. */
/* s padded to width columns as a terminal shows them (°C: three bytes, two columns) */
static void put_padded(struct textbuf *tb, const char *s, size_t width, bool right)
{
	size_t len = strlen(s), cols = 0;
	for (size_t i = 0; i < len; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	size_t pad = cols < width ? width - cols : 0;
	if (right)
		textbuf_pad(tb, ' ', pad);
	textbuf_putn(tb, s, len);
	if (!right)
		textbuf_pad(tb, ' ', pad);
}

/* "  %-28s %-16s %12s %-6s%s\n" */
struct text_widths {
	size_t metric, instance; /* columns wide enough for the longest name (28, 16 at least) */
};

static void put_text_row(struct textbuf *tb, const struct text_widths *w, const char *metric, const char *instance,
			 const char *value, const char *unit, const char *mark)
{
	textbuf_put(tb, "  ");
	put_padded(tb, metric, w->metric, false);
	textbuf_putc(tb, ' ');
	put_padded(tb, instance, w->instance, false);
	textbuf_putc(tb, ' ');
	put_padded(tb, value, 12, true);
	textbuf_putc(tb, ' ');
	put_padded(tb, unit, 6, false);
	textbuf_put(tb, mark);
	textbuf_putc(tb, '\n');
}

/* perf stat's last words: whose counts, over how long, and how the command ended */
static void write_text_whole_run(struct textbuf *tb, const struct frame *fr, const char *when)
{
	textbuf_put(tb, when);
	textbuf_put(tb, "  whole run ");
	textbuf_fixed(tb, (double)fr->interval_ns / 1e9, 3);
	textbuf_put(tb, " s  source ");
	textbuf_put(tb, fr->source);
	textbuf_put(tb, "\n Performance counter stats for ");
	textbuf_put(tb, fr->who ? fr->who : "the machine");
	if (fr->who_end) {
		textbuf_put(tb, ", which ");
		textbuf_put(tb, fr->who_end);
	}
	textbuf_put(tb, ":\n");
}

static void write_text_header(struct textbuf *tb, const struct frame *fr, const char *when)
{
	if (fr->whole_run) {
		write_text_whole_run(tb, fr, when);
		return;
	}
	textbuf_put(tb, when);
	textbuf_put(tb, "  interval ");
	textbuf_fixed(tb, (double)fr->interval_ns / 1e9, 3);
	textbuf_put(tb, " s  source ");
	textbuf_put(tb, fr->source);
	if (!isnan(fr->cpu_util)) {
		textbuf_put(tb, "  cpu ");
		textbuf_fixed(tb, fr->cpu_util, 1);
		textbuf_putc(tb, '%');
	}
	if (fr->have_temp) {
		textbuf_put(tb, "  ");
		textbuf_fixed(tb, fr->cpu_temp_c, 0);
		textbuf_put(tb, "°C (");
		textbuf_put(tb, fr->temp_chip ? fr->temp_chip : "?");
		textbuf_putc(tb, ')');
	}
	textbuf_putc(tb, '\n');
}

/* filters at the start and whenever they change; on the first frame what cannot count */
static void write_text_notes(struct textbuf *tb, const struct frame *fr, enum batch_rows rows, bool first_frame)
{
	for (int i = 0; i < fr->ninstances; i++) {
		const struct frame_instance *fi = &fr->inst[i];
		if (fi->filters && *fi->filters && (first_frame || fi->filters_seq == fr->seq))
			textbuf_printf(tb, "  filters %s %s: %s\n", fr->iinfo[i].group->name, fr->iinfo[i].name, fi->filters);
	}
	for (int i = 0; i < fr->ninstances && first_frame; i++) {
		const struct frame_instance *fi = &fr->inst[i];
		if (!fi->error || fr->iinfo[i].nmembers)
			continue;
		/* a group's instances not on this machine for one reason: said once ("cpu0 and
		 * 31 more"), not a line a CPU */
		int more = 0;
		bool said = false;
		for (int j = 0; fi->absent && j < fr->ninstances; j++)
			if (j != i && fr->inst[j].absent && fr->iinfo[j].group == fr->iinfo[i].group && !fr->iinfo[j].nmembers &&
			    fr->inst[j].error && !strcmp(fr->inst[j].error, fi->error)) {
				said |= j < i;
				more += j > i;
			}
		if (said)
			continue;
		textbuf_printf(tb, "  %s %s %s", fi->absent ? "n/a" : "!", fr->iinfo[i].group->name, fr->iinfo[i].name);
		if (more)
			textbuf_printf(tb, " and %d more", more);
		textbuf_printf(tb, ": %s\n", fi->error);
	}
	int nabsent = 0, first_absent = -1;
	for (int k = 0; k < fr->nvalues && first_frame; k++)
		if (fr->values[k].state == VS_UNAVAILABLE && fr->values[k].absent && printed(fr, &fr->vinfo[k], rows)) {
			first_absent = first_absent < 0 ? k : first_absent;
			nabsent++;
		}
	if (nabsent) /* a recording recomputed through another profile (-P): said once */
		textbuf_printf(tb, "  n/a %d value%s left out, the first %s %s: %s\n", nabsent, nabsent == 1 ? "" : "s",
			       fr->vinfo[first_absent].m->name, fr->iinfo[fr->vinfo[first_absent].instance].name,
			       fr->values[first_absent].why);
	for (int i = 0; i < fr->nmissing && first_frame; i++) {
		if (fr->missing_why && fr->missing_why[i])
			textbuf_printf(tb, "  n/a %s: not counted: %s\n", fr->missing[i]->name, fr->missing_why[i]);
		else
			textbuf_printf(tb, "  n/a %s: no PMU matches '%s'\n", fr->missing[i]->name, fr->missing[i]->pmu_pattern);
	}
}

/* toplev's last line: where the run's slots went, one node (bottleneck.h) */
static void write_text_bottleneck(struct textbuf *tb, const struct frame *fr)
{
	double share;
	char *neck = frame_bottleneck(fr, &share);
	if (!neck)
		return;
	textbuf_put(tb, " TopDown bottleneck (toplev's rule): ");
	textbuf_put(tb, neck);
	textbuf_put(tb, " (");
	textbuf_fixed(tb, share * 100, 1);
	textbuf_put(tb, " % of the slots)\n");
	free(neck);
}

static void write_text(struct textbuf *tb, const struct frame *fr, enum batch_rows rows, bool first_frame,
		       const char *when)
{
	write_text_header(tb, fr, when);
	struct text_widths w = { 28, 16 }; /* long names widen their column, rows stay aligned */
	for (int k = 0; k < fr->nvalues; k++) { /* names are ASCII (profile names, PMU captures) */
		if (!printed(fr, &fr->vinfo[k], rows))
			continue;
		size_t lm = strlen(fr->vinfo[k].m->name), li = strlen(fr->iinfo[fr->vinfo[k].instance].name);
		w.metric = lm > w.metric ? lm : w.metric;
		w.instance = li > w.instance ? li : w.instance;
	}
	const struct prof_metric *last = NULL;
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const struct prof_metric *m = fr->vinfo[k].m;
		if (!printed(fr, &fr->vinfo[k], rows))
			continue;
		if (v->state == VS_UNAVAILABLE && (v->absent || frame_instance_absent(fr, fr->vinfo[k].instance)))
			continue; /* not on this machine (in this recording): left out, the notes say why once */
		char val[32], mark[160] = "";
		format_metric_value(v, val, sizeof(val));
		/* the reason JSON gives, so "n/a" is never left unexplained */
		if (v->why)
			snprintf(mark, sizeof(mark), "  (%s)", v->why);
		else if (v->multiplexed)
			str_copy(mark, sizeof(mark), "  (multiplexed)");
		put_text_row(tb, &w, m == last ? "" : m->name, fr->iinfo[fr->vinfo[k].instance].name, val,
			     v->state == VS_OK ? m->unit : "", mark);
		last = m;
	}
	batch_write_text_tasks(tb, fr);
	batch_write_text_cgroups(tb, fr);
	write_text_notes(tb, fr, rows, first_frame);
	if (fr->whole_run)
		write_text_bottleneck(tb, fr);
	textbuf_putc(tb, '\n');
}

/* Write all of buf or, on a failure part way, cut the file back to where it began. */
/* Once a signal asked pmutop to stop, a write that would block (a pipe nobody reads)
 * gives up rather than wait: fd made non-blocking; its flags before, or -1 where they
 * were left alone. */
static int unblock_if_stopping(int fd, int was)
{
	if (was >= 0 || !runloop_stop_pending())
		return was;
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0 && !(flags & O_NONBLOCK) && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0)
		return flags;
	return -1;
}

static bool write_whole(int fd, const char *buf, size_t len)
{
	size_t done = 0;
	int flags = -1;
	bool ok = true;
	while (done < len) {
		flags = unblock_if_stopping(fd, flags);
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue; /* (a stop makes the next write non-blocking) */
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;
			/* cut the part written: it began done bytes before the offset (appending
			 * too, where a write leaves the offset at the end); a pipe or terminal
			 * has no offset and nothing to cut. Asked only now: two syscalls less
			 * an interval. */
			off_t at = done > 0 ? lseek(fd, 0, SEEK_CUR) : -1;
			off_t start = at - (off_t)done;
			if (at >= 0 && start >= 0 && ftruncate(fd, start) == 0)
				lseek(fd, start, SEEK_SET);
			errno = err;
			ok = false;
			break;
		}
		done += (size_t)n;
	}
	if (flags >= 0) { /* the descriptor as it was (a shell shares a terminal's) */
		int err = errno;
		fcntl(fd, F_SETFL, flags);
		errno = err;
	}
	return ok;
}

/* One interval into tb (kept for the output's life, cleared each interval), then out. */
static bool write_frame_via(struct textbuf *tb, FILE *out, const struct batch_style *st, bool first,
			    const struct frame *fr)
{
	char when[40];
	format_utc_ms(when, sizeof(when), fr->wall_ns);
	textbuf_clear(tb);
	switch (st->format) {
	case BATCH_JSON: write_json(tb, fr, st->raw, when); break;
	case BATCH_CSV: write_csv(tb, fr, st->rows, first, when); break;
	case BATCH_TEXT: /* for a terminal: a profile's strings are data, not escape sequences */
		write_text(tb, fr, st->rows, first, when);
		textbuf_escape_controls(tb);
		break;
	}
	errno = 0;
	/* the interval whole or not at all: written past stdio, and a file that took part of
	 * it (a full disk) is cut back to where the interval began, so no reader ever sees
	 * half a JSON line or CSV row */
	if (fflush(out) != 0)
		return false;
	int fd = fileno(out);
	if (fd < 0) /* a stream in memory (tests, the bench): stdio it is */
		return fwrite(tb->data, 1, tb->len, out) == tb->len && fflush(out) == 0;
	return write_whole(fd, tb->data, tb->len);
}

bool batch_write_frame(FILE *out, const struct batch_style *st, bool first, const struct frame *fr)
{
	struct textbuf tb = { 0 };
	bool ok = write_frame_via(&tb, out, st, first, fr);
	int err = errno;
	textbuf_free(&tb);
	errno = err;
	return ok;
}

struct batch {
	FILE *out;
	struct textbuf text; /* the interval being written */
	struct batch_style style;
	bool first;
	bool failed;
	bool stopped; /* a signal stopped a write nobody read: nothing more is written */
};

static int batch_frame(struct output *o, const struct frame *f)
{
	struct batch *b = o->priv;
	if (b->failed || b->stopped)
		return -1;
	if (!write_frame_via(&b->text, b->out, &b->style, b->first, f)) {
		bool stopping = runloop_stop_pending() && (errno == EINTR || errno == EAGAIN);
		if (errno != EPIPE && !stopping) /* a reader that went away (| head) is not news */
			fprintf(stderr, "pmutop: writing batch output: %s\n", strerror(errno ? errno : EIO));
		b->failed = !stopping; /* stopped by a signal while the reader read nothing: */
		b->stopped = stopping; /* what it was not sent is no failure of the file's */
		return -1;
	}
	b->first = false;
	return 0;
}

static int batch_finish(struct output *o)
{
	struct batch *b = o->priv;
	return b->failed ? 1 : 0;
}

static void batch_destroy(struct output *o)
{
	struct batch *b = o->priv;
	textbuf_free(&b->text);
	free(b);
	free(o);
}

static const struct output_ops batch_ops = {
	.name = "batch",
	.frame = batch_frame,
	.finish = batch_finish,
	.destroy = batch_destroy,
};

struct output *batch_output_new(FILE *out, const struct batch_style *st)
{
	struct batch *b = xcalloc(1, sizeof(*b));
	b->out = out;
	b->style = *st;
	b->first = true;
	struct output *o = xcalloc(1, sizeof(*o));
	o->ops = &batch_ops;
	o->priv = b;
	return o;
}
