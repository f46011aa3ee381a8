/* batch.c - batch output of frames: text for people, CSV, JSON lines. Each interval is
 * built in memory and written whole, then flushed, so pipes see it at once and a
 * failing write never leaves half a line. */
#include "outputs/batch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "base/numtext.h"
#include "base/util.h"
#include "engine/profile.h"
#include "engine/output.h"

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

static void iso8601(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000ull);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ", (unsigned)(ns / 1000000ull % 1000));
}

void format_metric_value(const struct frame_value *v, char *buf, size_t len)
{
	switch ((enum value_state)v->state) {
	case VS_OK: /* batch output keeps full precision, as CSV and JSON: 0.0013027, 1e-300 */
		format_g10(buf, len, v->value);
		break;
	case VS_NO_VALUE: snprintf(buf, len, "-"); break;
	case VS_NOT_COUNTED: snprintf(buf, len, "not counted"); break;
	case VS_UNREADABLE: snprintf(buf, len, "?"); break;
	case VS_UNAVAILABLE: snprintf(buf, len, "n/a"); break;
	}
}

/* A number in C notation whatever the locale; values in full precision ("%.10g", one
 * for every value an interval) the fast way. */
static void put_num(FILE *f, const char *fmt, double v)
{
	char buf[64];
	if (!strcmp(fmt, "%.10g"))
		format_g10(buf, sizeof(buf), v);
	else
		snprintf_c(buf, sizeof(buf), fmt, v);
	fputs(buf, f);
}

/* A JSON number; an infinite value (x / 0 is no value, but a formula may still overflow)
 * is 1e999, which is valid JSON and what JSON parsers read back as infinity, so it keeps
 * the state "ok" that CSV and text give it. */
static void json_num(FILE *f, const char *fmt, double v)
{
	if (isinf(v))
		fputs(v > 0 ? "1e999" : "-1e999", f);
	else
		put_num(f, fmt, v);
}

/* JSON string body: our names are plain, but escape anyway. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	while (*s) {
		size_t plain = 0; /* a run written whole: a character at a time was a JSON frame's cost */
		while (s[plain] && s[plain] != '"' && s[plain] != '\\' && (unsigned char)s[plain] >= 0x20)
			plain++;
		fwrite(s, 1, plain, f);
		s += plain;
		if (!*s)
			break;
		unsigned char c = (unsigned char)*s++;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else
			fprintf(f, "\\u%04x", c);
	}
	fputc('"', f);
}

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* "a=0x1,b=c" as {"a":"0x1","b":"c"} */
static void json_filters(FILE *f, const char *filters)
{
	fputc('{', f);
	char *copy = xstrdup(filters), *save = NULL;
	bool first = true;
	for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (!first)
			fputc(',', f);
		first = false;
		json_string(f, kv);
		fputc(':', f);
		json_string(f, eq + 1);
	}
	free(copy);
	fputc('}', f);
}

/* Instances whose group has filters, or that cannot count: their filters and state. */
static bool instance_worth_listing(const struct frame *fr, int i)
{
	return fr->iinfo[i].group->nfilters > 0 || fr->inst[i].error;
}

static void write_json(FILE *f, const struct frame *fr, bool raw, const char *when)
{
	fprintf(f, "{\"time\":\"%s\",\"interval_ns\":%llu,\"source\":", when, (unsigned long long)fr->interval_ns);
	json_string(f, fr->source);
	fputs(",\"metrics\":[", f);
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const struct value_info *vi = &fr->vinfo[k];
		fputs(k ? ",{\"profile\":" : "{\"profile\":", f);
		json_string(f, fr->profiles[vi->profile]->name);
		fputs(",\"metric\":", f);
		json_string(f, vi->m->name);
		fputs(",\"instance\":", f);
		json_string(f, fr->iinfo[vi->instance].name);
		if (v->state == VS_OK) {
			fputs(",\"value\":", f);
			json_num(f, "%.10g", v->value);
		} else {
			fputs(",\"value\":null", f);
		}
		fputs(",\"unit\":", f);
		json_string(f, vi->m->unit);
		if (v->state != VS_OK) {
			fputs(",\"state\":", f);
			json_string(f, value_state_name((enum value_state)v->state));
		}
		if (v->why) {
			fputs(",\"reason\":", f);
			json_string(f, v->why);
		}
		if (v->multiplexed) {
			fputs(",\"coverage\":", f);
			put_num(f, "%.3f", v->coverage);
		}
		fputc('}', f);
	}
	fputc(']', f);
	bool first = true;
	for (int i = 0; i < fr->ninstances; i++) {
		if (!instance_worth_listing(fr, i))
			continue;
		fputs(first ? ",\"instances\":[{\"group\":" : ",{\"group\":", f);
		first = false;
		json_string(f, fr->iinfo[i].group->name);
		fputs(",\"instance\":", f);
		json_string(f, fr->iinfo[i].name);
		fputs(",\"filters\":", f);
		json_filters(f, fr->inst[i].filters ? fr->inst[i].filters : "");
		if (fr->inst[i].error) {
			fputs(",\"error\":", f);
			json_string(f, fr->inst[i].error);
		}
		fputc('}', f);
	}
	if (!first)
		fputc(']', f);
	if (raw) {
		fputs(",\"counters\":[", f);
		first = true;
		for (int c = 0; c < fr->ncounters; c++) {
			const struct counter_info *ci = &fr->cinfo[c];
			const struct frame_counter *fc = &fr->counters[c];
			if (!fr->inst[ci->instance].counting)
				continue;
			fputs(first ? "{\"pmu\":" : ",{\"pmu\":", f);
			first = false;
			json_string(f, fr->iinfo[ci->instance].pmu);
			fputs(",\"event\":", f);
			json_string(f, ci->event_name);
			fprintf(f, ",\"instance\":");
			json_string(f, fr->iinfo[ci->instance].name);
			fprintf(f, ",\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\",\"cpu\":%d,",
				(unsigned long long)fc->config[0], (unsigned long long)fc->config[1],
				(unsigned long long)fc->config[2], ci->cpu);
			if (fc->state == VS_OK) { /* exact: a scaled count may have a fraction */
				fputs("\"delta\":", f);
				json_num(f, "%.17g", fc->delta);
			} else {
				fputs("\"delta\":null", f);
			}
			fprintf(f, ",\"enabled_ns\":%llu,\"running_ns\":%llu}", (unsigned long long)fc->enabled,
				(unsigned long long)fc->running);
		}
		fputc(']', f);
	}
	fputs("}\n", f);
}

static void write_csv(FILE *f, const struct frame *fr, bool first_frame, const char *when)
{
	if (first_frame)
		fputs("time,source,profile,metric,instance,value,unit,state\n", f);
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const struct value_info *vi = &fr->vinfo[k];
		fprintf(f, "%s,%s,", when, fr->source);
		csv_field(f, fr->profiles[vi->profile]->name);
		fputc(',', f);
		csv_field(f, vi->m->name);
		fputc(',', f);
		csv_field(f, fr->iinfo[vi->instance].name);
		if (v->state == VS_OK) {
			fputc(',', f);
			put_num(f, "%.10g", v->value);
			fputc(',', f);
		} else {
			fputs(",,", f);
		}
		csv_field(f, vi->m->unit);
		fprintf(f, ",%s\n", v->multiplexed && v->state == VS_OK ? "multiplexed" : value_state_name((enum value_state)v->state));
	}
}

/* Append s to line at *n, padded with blanks to width (on the left when right-aligned),
 * as printf's "%-28s" and "%12s" do: byte widths, never cut. */
static void pad_into(char *line, size_t *n, const char *s, int width, bool right)
{
	size_t len = strlen(s), pad = len < (size_t)width ? (size_t)width - len : 0;
	if (right) {
		memset(line + *n, ' ', pad);
		*n += pad;
	}
	memcpy(line + *n, s, len);
	*n += len;
	if (!right) {
		memset(line + *n, ' ', pad);
		*n += pad;
	}
}

/* "  %-28s %-16s %12s %-6s%s\n" built by hand and written at once: printf's padding and
 * a stream's small writes were a fifth of a live refresh. */
static void put_text_row(FILE *f, const char *metric, const char *instance, const char *value, const char *unit,
			 const char *mark)
{
	char line[512];
	size_t need = 2 + strlen(metric) + 28 + strlen(instance) + 16 + strlen(value) + 12 + strlen(unit) + 6 + strlen(mark) + 4;
	if (need > sizeof(line)) { /* names this long are rare: the slow way */
		fprintf(f, "  %-28s %-16s %12s %-6s%s\n", metric, instance, value, unit, mark);
		return;
	}
	size_t n = 0;
	pad_into(line, &n, "  ", 0, false);
	pad_into(line, &n, metric, 28, false);
	pad_into(line, &n, " ", 0, false);
	pad_into(line, &n, instance, 16, false);
	pad_into(line, &n, " ", 0, false);
	pad_into(line, &n, value, 12, true);
	pad_into(line, &n, " ", 0, false);
	pad_into(line, &n, unit, 6, false);
	pad_into(line, &n, mark, 0, false);
	line[n++] = '\n';
	fwrite(line, 1, n, f);
}

static void write_text(FILE *f, const struct frame *fr, bool first_frame, const char *when)
{
	fprintf(f, "%s  interval ", when);
	put_num(f, "%.3f", (double)fr->interval_ns / 1e9);
	fprintf(f, " s  source %s", fr->source);
	if (!isnan(fr->cpu_util)) {
		fputs("  cpu ", f);
		put_num(f, "%.1f", fr->cpu_util);
		fputc('%', f);
	}
	if (fr->have_temp) {
		fputs("  ", f);
		put_num(f, "%.0f", fr->cpu_temp_c);
		fprintf(f, "°C (%s)", fr->temp_chip ? fr->temp_chip : "?");
	}
	fputc('\n', f);
	const struct prof_metric *last = NULL;
	for (int k = 0; k < fr->nvalues; k++) {
		const struct frame_value *v = &fr->values[k];
		const struct prof_metric *m = fr->vinfo[k].m;
		char val[32], mark[160] = "";
		format_metric_value(v, val, sizeof(val));
		/* the reason JSON gives, so "n/a" is never left unexplained */
		if (v->why)
			snprintf(mark, sizeof(mark), "  (%s)", v->why);
		else if (v->multiplexed)
			snprintf(mark, sizeof(mark), "  (multiplexed)");
		put_text_row(f, m == last ? "" : m->name, fr->iinfo[fr->vinfo[k].instance].name, val,
			     v->state == VS_OK ? m->unit : "", mark);
		last = m;
	}
	/* filters: at the start and whenever they change */
	for (int i = 0; i < fr->ninstances; i++) {
		const struct frame_instance *fi = &fr->inst[i];
		if (fi->filters && *fi->filters && (first_frame || fi->filters_seq == fr->seq))
			fprintf(f, "  filters %s %s: %s\n", fr->iinfo[i].group->name, fr->iinfo[i].name, fi->filters);
	}
	for (int i = 0; i < fr->ninstances && first_frame; i++) {
		if (fr->inst[i].error && !fr->iinfo[i].nmembers)
			fprintf(f, "  ! %s %s: %s\n", fr->iinfo[i].group->name, fr->iinfo[i].name, fr->inst[i].error);
	}
	for (int i = 0; i < fr->nmissing && first_frame; i++)
		fprintf(f, "  ! %s: no PMU matches '%s'\n", fr->missing[i]->name, fr->missing[i]->pmu_pattern);
	fputc('\n', f);
}

/* Where an interval is built: one memory stream kept for the output's life and
 * rewound each interval (opening one an interval cost a zeroed 8 KiB buffer, a sixth of
 * the host profile's refresh). */
struct scratch {
	FILE *m;
	char *buf;
	size_t len;
};

static void scratch_free(struct scratch *sc)
{
	if (sc->m)
		fclose(sc->m);
	free(sc->buf);
	memset(sc, 0, sizeof(*sc));
}

/* Write all of buf or, on a failure part way, cut the file back to where it began. */
static bool write_whole(int fd, const char *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
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
			return false;
		}
		done += (size_t)n;
	}
	return true;
}

static bool write_frame_via(struct scratch *sc, FILE *out, enum batch_format format, bool raw, bool first,
			    const struct frame *fr)
{
	char when[40];
	iso8601(fr->wall_ns, when, sizeof(when));
	if (!sc->m && !(sc->m = open_memstream(&sc->buf, &sc->len)))
		return false;
	rewind(sc->m); /* a memory stream's size is its position at the flush */
	switch (format) {
	case BATCH_JSON: write_json(sc->m, fr, raw, when); break;
	case BATCH_CSV: write_csv(sc->m, fr, first, when); break;
	case BATCH_TEXT: write_text(sc->m, fr, first, when); break;
	}
	errno = 0;
	if (fflush(sc->m) != 0)
		return false;
	/* the interval whole or not at all: written past stdio, and a file that took part of
	 * it (a full disk) is cut back to where the interval began, so no reader ever sees
	 * half a JSON line or CSV row */
	if (fflush(out) != 0)
		return false;
	int fd = fileno(out);
	if (fd < 0) /* a stream in memory (tests, the bench): stdio it is */
		return fwrite(sc->buf, 1, sc->len, out) == sc->len && fflush(out) == 0;
	return write_whole(fd, sc->buf, sc->len);
}

bool batch_write_frame(FILE *out, enum batch_format format, bool raw, bool first, const struct frame *fr)
{
	struct scratch sc = { 0 };
	bool ok = write_frame_via(&sc, out, format, raw, first, fr);
	int err = errno;
	scratch_free(&sc);
	errno = err;
	return ok;
}

struct batch {
	FILE *out;
	struct scratch scratch;
	enum batch_format format;
	bool raw;
	bool first;
	bool failed;
};

static int batch_frame(struct output *o, const struct frame *f)
{
	struct batch *b = o->priv;
	if (b->failed)
		return -1;
	if (!write_frame_via(&b->scratch, b->out, b->format, b->raw, b->first, f)) {
		if (errno != EPIPE) /* a reader that went away (| head) is not news */
			fprintf(stderr, "pmutop: writing batch output: %s\n", strerror(errno ? errno : EIO));
		b->failed = true;
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
	scratch_free(&b->scratch);
	free(b);
	free(o);
}

static const struct output_ops batch_ops = {
	.name = "batch",
	.frame = batch_frame,
	.finish = batch_finish,
	.destroy = batch_destroy,
};

struct output *batch_output_new(FILE *out, enum batch_format format, bool raw)
{
	struct batch *b = xcalloc(1, sizeof(*b));
	b->out = out;
	b->format = format;
	b->raw = raw;
	b->first = true;
	struct output *o = xcalloc(1, sizeof(*o));
	o->ops = &batch_ops;
	o->priv = b;
	return o;
}
