/* batch.c - batch output of frames: text for people, CSV, JSON lines.
 * Every interval is flushed, so pipes see it at once. */
#include "outputs/batch.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "machine/hwsensors.h"
#include "machine/procstat.h"
#include "sources/source.h"

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

static void iso8601(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000ull);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%03uZ", (unsigned)(ns / 1000000ull % 1000));
}

void format_metric_value(const struct metric_value *v, char *buf, size_t len)
{
	switch (v->state) {
	case VS_OK: {
		double a = fabs(v->value);
		int prec = a >= 100 ? 1 : a >= 10 ? 2 : 3;
		if (a >= 1e6)
			snprintf(buf, len, "%.4g", v->value);
		else
			snprintf(buf, len, "%.*f", prec, v->value);
		break;
	}
	case VS_NO_VALUE: snprintf(buf, len, "-"); break;
	case VS_NOT_COUNTED: snprintf(buf, len, "not counted"); break;
	case VS_UNREADABLE: snprintf(buf, len, "?"); break;
	case VS_UNAVAILABLE: snprintf(buf, len, "n/a"); break;
	}
}

/* JSON string body: our names are plain, but escape anyway. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
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

static const char *counter_event_name(const struct instance *inst, const struct counter *ct)
{
	const struct prof_event *e = &inst->group->events[ct->event];
	/* the sysfs alias where the profile names one, else the profile's own name */
	if (inst->pmu && pmu_find_alias(inst->pmu, e->terms))
		return pmu_find_alias(inst->pmu, e->terms)->name;
	return e->name;
}

static void write_json(struct batch *b, const struct session *s, const char *when)
{
	FILE *f = b->out;
	fprintf(f, "{\"time\":\"%s\",\"interval_ns\":%llu,\"source\":", when, (unsigned long long)s->interval_ns);
	json_string(f, s->source->ops->kind);
	fputs(",\"metrics\":[", f);
	for (int k = 0; k < s->nvalues; k++) {
		const struct metric_value *v = &s->values[k];
		const struct prof_metric *m = session_metric(s, v);
		fputs(k ? ",{\"profile\":" : "{\"profile\":", f);
		json_string(f, s->profiles[v->profile]->name);
		fputs(",\"metric\":", f);
		json_string(f, m->name);
		fputs(",\"instance\":", f);
		json_string(f, s->inst[v->instance].name);
		if (v->state == VS_OK && isfinite(v->value))
			fprintf(f, ",\"value\":%.10g", v->value);
		else
			fputs(",\"value\":null", f);
		fputs(",\"unit\":", f);
		json_string(f, m->unit);
		if (v->state != VS_OK) {
			fputs(",\"state\":", f);
			json_string(f, value_state_name(v->state));
		}
		if (v->multiplexed)
			fprintf(f, ",\"coverage\":%.3f", v->coverage);
		fputc('}', f);
	}
	fputc(']', f);
	if (b->raw) {
		fputs(",\"counters\":[", f);
		bool first = true;
		for (int i = 0; i < s->ninstances; i++) {
			const struct instance *inst = &s->inst[i];
			if (!inst->opened)
				continue;
			for (int c = 0; c < inst->ncounters; c++) {
				const struct counter *ct = &inst->counters[c];
				fputs(first ? "{\"pmu\":" : ",{\"pmu\":", f);
				first = false;
				json_string(f, inst->pmu->name);
				fputs(",\"event\":", f);
				json_string(f, counter_event_name(inst, ct));
				fprintf(f, ",\"instance\":");
				json_string(f, inst->name);
				fprintf(f, ",\"config\":\"0x%llx\",\"config1\":\"0x%llx\",\"config2\":\"0x%llx\",\"cpu\":%d,",
					(unsigned long long)ct->attr.config[0], (unsigned long long)ct->attr.config[1],
					(unsigned long long)ct->attr.config[2], ct->cpu);
				if (ct->state == VS_OK)
					fprintf(f, "\"delta\":%.0f", ct->delta);
				else
					fputs("\"delta\":null", f);
				fprintf(f, ",\"enabled_ns\":%llu,\"running_ns\":%llu}", (unsigned long long)ct->d_enabled,
					(unsigned long long)ct->d_running);
			}
		}
		fputc(']', f);
	}
	fputs("}\n", f);
}

static void write_csv(struct batch *b, const struct session *s, const char *when)
{
	FILE *f = b->out;
	if (!b->header_done) {
		fputs("time,source,profile,metric,instance,value,unit,state\n", f);
		b->header_done = true;
	}
	for (int k = 0; k < s->nvalues; k++) {
		const struct metric_value *v = &s->values[k];
		const struct prof_metric *m = session_metric(s, v);
		fprintf(f, "%s,%s,", when, s->source->ops->kind);
		csv_field(f, s->profiles[v->profile]->name);
		fputc(',', f);
		csv_field(f, m->name);
		fputc(',', f);
		csv_field(f, s->inst[v->instance].name);
		if (v->state == VS_OK)
			fprintf(f, ",%.10g,", v->value);
		else
			fputs(",,", f);
		csv_field(f, m->unit);
		fprintf(f, ",%s\n", v->multiplexed && v->state == VS_OK ? "multiplexed" : value_state_name(v->state));
	}
}

static void write_text(struct batch *b, const struct session *s, const char *when)
{
	FILE *f = b->out;
	fprintf(f, "%s  interval %.3f s  source %s", when, (double)s->interval_ns / 1e9, s->source->ops->kind);
	if (b->cpu && !isnan(b->cpu->util_all))
		fprintf(f, "  cpu %.1f%%", b->cpu->util_all);
	if (b->temps && b->temps->have)
		fprintf(f, "  %.0f°C (%s)", b->temps->cpu_c, b->temps->chip);
	fputc('\n', f);
	const struct prof_metric *last = NULL;
	for (int k = 0; k < s->nvalues; k++) {
		const struct metric_value *v = &s->values[k];
		const struct prof_metric *m = session_metric(s, v);
		char val[32];
		format_metric_value(v, val, sizeof(val));
		fprintf(f, "  %-28s %-16s %12s %-6s%s\n", m == last ? "" : m->name, s->inst[v->instance].name, val,
			v->state == VS_OK ? m->unit : "", v->multiplexed ? "  (multiplexed)" : "");
		last = m;
	}
	for (int i = 0; i < s->ninstances && !b->header_done; i++) {
		const struct instance *inst = &s->inst[i];
		if (inst->open_error || inst->unavailable)
			fprintf(f, "  ! %s %s: %s\n", inst->group->name, inst->name,
				inst->unavailable ? inst->unavailable : inst->open_error);
	}
	for (int i = 0; i < s->nmissing && !b->header_done; i++)
		fprintf(f, "  ! %s: no PMU matches '%s'\n", s->missing[i]->name, s->missing[i]->pmu_pattern);
	b->header_done = true;
	fputc('\n', f);
}

void batch_write(struct batch *b, const struct session *s, uint64_t realtime_ns)
{
	char when[40];
	iso8601(realtime_ns, when, sizeof(when));
	switch (b->format) {
	case BATCH_JSON: write_json(b, s, when); break;
	case BATCH_CSV: write_csv(b, s, when); break;
	case BATCH_TEXT: write_text(b, s, when); break;
	}
	fflush(b->out);
}
