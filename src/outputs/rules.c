/* rules.c - `pmutop rules`: Prometheus recording rules that compute each profile metric
 * from the counters the exporter serves, over any window, in the base units of the
 * exporter's gauge of that metric (the same names: outputs/prom.c). */
#include "outputs/rules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "config.h"
#include "engine/bind.h"
#include "engine/session.h"
#include "machine/bfperf.h"
#include "machine/hwsensors.h"
#include "outputs/prom.h"

/* Does the PMU read levels (a temperature, a clock's frequency) rather than counts? Its
 * events are served as gauges, whose PromQL is the reading over the window, not rate(). */
static bool reads_levels(const struct pmu *p)
{
	return (p->hw && p->hw->gauge) || (p->sensor && p->sensor->kind != SENSOR_ENERGY);
}

static bool is_metric(const struct profile *p, const char *name)
{
	for (int m = 0; m < p->nmetrics; m++)
		if (!strcmp(p->metrics[m].name, name))
			return true;
	return false;
}

/* A formula's text in PromQL over the instance's exported series, or NULL (with *why)
 * when it uses what the exporter does not give (ncpus, min, max). A formula that reads
 * levels (a temperature) is *level: the exporter serves those only as the metric's own
 * gauge, whose PromQL is its average over the window. */
static char *translate(const struct instance *inst, const char *formula, const char *window, const char **why,
		       bool *level)
{
	const struct prof_group *g = inst->group;
	size_t cap = 256, len = 0;
	char *out = xcalloc(1, cap);
	*why = NULL;
	for (const char *p = formula; *p;) {
		char piece[512];
		piece[0] = '\0';
		if (isalpha((unsigned char)*p) || *p == '_') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
				p++;
			char id[128];
			snprintf(id, sizeof(id), "%.*s", (int)(p - s), s);
			const char *q = p;
			while (*q == ' ')
				q++;
			int e = -1, a = -1;
			for (int k = 0; k < g->nevents && e < 0; k++)
				if (!strcmp(g->events[k].name, id))
					e = k;
			for (int k = 0; k < g->nattrs && a < 0; k++)
				if (!strcmp(g->attr_ids[k], id))
					a = k;
			char name[192];
			if (*q == '(' && (!strcmp(id, "abs") || !strcmp(id, "sqrt") || !strcmp(id, "floor"))) {
				str_copy(piece, sizeof(piece), id);
			} else if (*q == '(') {
				*why = "min/max of two values has no PromQL counterpart";
			} else if (e >= 0 && !inst->present[e]) {
				*why = "its PMU lacks an event it reads";
			} else if (e >= 0 && reads_levels(inst->pmu)) {
				*level = true;
			} else if (e >= 0) {
				prom_counter_name(name, sizeof(name), g->name, g->events[e].name, instance_event_unit(inst, e), true);
				snprintf(piece, sizeof(piece), "rate(%s[%s])", name, window);
			} else if (a >= 0) {
				prom_attr_name(name, sizeof(name), g->name, g->attr_ids[a]);
				str_copy(piece, sizeof(piece), name);
			} else if (!strcmp(id, "elapsed_ns")) {
				snprintf(piece, sizeof(piece), "1e9"); /* rates are per second */
			} else if (!strcmp(id, "elapsed_s")) {
				snprintf(piece, sizeof(piece), "1");
			} else {
				static char said[256]; /* the one id named, while its rule is printed */
				snprintf(said, sizeof(said),
					 strchr(id, '.') ? "it reads %s, another group's event, which these rules do not join yet"
					 : is_metric(inst->profile, id)
						 ? "it reads the metric %s by name, which these rules do not follow yet"
						 : "it uses %s, which the exporter does not give",
					 id);
				*why = said;
			}
		} else if (isdigit((unsigned char)*p) || *p == '.') {
			const char *s = p;
			while (isalnum((unsigned char)*p) || *p == '.' || ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E')))
				p++;
			snprintf(piece, sizeof(piece), "%.*s", (int)(p - s), s);
		} else if (strchr("+-*/() \t", *p)) {
			snprintf(piece, sizeof(piece), "%c", *p == '\t' ? ' ' : *p);
			p++;
		} else {
			*why = "an operator PromQL does not have";
			p++;
		}
		if (*why) {
			free(out);
			return NULL;
		}
		size_t n = strlen(piece);
		if (len + n + 1 > cap)
			out = xrealloc(out, cap = (len + n + 1) * 2);
		memcpy(out + len, piece, n + 1);
		len += n;
	}
	return out;
}

int print_rules(struct session *s, const char *window, bool per_cpu)
{
	(void)per_cpu;
	printf("# Prometheus recording rules from pmutop %s: each metric of the profiles computed\n"
	       "# from the counters pmutop serve exports, over %s, in the base units of the gauge\n"
	       "# pmutop exports for it. Check with: promtool check rules FILE\n"
	       "groups:\n", PACKAGE_VERSION, window);
	for (int pi = 0; pi < s->nprofiles; pi++) {
		const struct profile *p = s->profiles[pi];
		bool header = false;
		for (int mi = 0; mi < p->nmetrics; mi++) {
			const struct prof_metric *m = &p->metrics[mi];
			if (p->selecting && !m->selected)
				continue; /* -M (or a demo's catalogue) chose others: nothing counts it */
			struct prom_unit u;
			prom_unit_of(m->unit, &u);
			char gauge[192];
			prom_metric_name(gauge, sizeof(gauge), m->name, NULL, u.suffix, false);
			/* one rule per metric: its formulae (one per group: sensors' power from power
			 * or energy files) are joined with 'or', as a record name must mean one thing */
			size_t cap = 256, len = 0;
			char *joined = xcalloc(1, cap);
			const char *why = NULL;
			int nforms = 0;
			for (int fi = 0; fi < m->nforms && !why; fi++) {
				const struct instance *inst = NULL; /* the group's first bound instance */
				for (int i = 0; i < s->ninstances && !inst; i++)
					if (s->inst[i].profile == p && s->inst[i].group == &p->groups[m->forms[fi].group] && s->inst[i].pmu)
						inst = &s->inst[i];
				if (!inst)
					continue;
				bool level = false;
				char *expr = translate(inst, m->forms[fi].text, window, &why, &level);
				if (!expr)
					break;
				if (level) { /* the gauge is in base units already */
					free(expr);
					expr = xasprintf("avg_over_time(%s[%s])", gauge, window);
				} else if (u.factor != 1) {
					char *scaled = xasprintf("(%s) * %.17g", expr, u.factor);
					free(expr);
					expr = scaled;
				}
				size_t n = strlen(expr) + 8;
				if (len + n + 1 > cap)
					joined = xrealloc(joined, cap = (len + n + 1) * 2);
				len += (size_t)snprintf(joined + len, cap - len, "%s(%s)", nforms++ ? " or " : "", expr);
				free(expr);
			}
			if (nforms || why) {
				if (!header) {
					printf("  - name: pmutop-%s\n    rules:\n", p->name);
					header = true;
				}
				if (why)
					printf("      # %s: not translated: %s\n", m->name, why);
				else
					printf("      - record: pmutop:%s:rate%s\n        expr: %s\n", gauge + strlen("pmutop_"), window,
					       joined);
			}
			free(joined);
		}
	}
	return 0;
}

