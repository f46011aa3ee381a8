/* SPDX-License-Identifier: GPL-2.0-only */
/* rules.c - `pmutop rules`: Prometheus recording rules that compute each profile metric
 * from the counters the exporter serves, over any window, in the base units of the
 * exporter's gauge of that metric (the same names: outputs/prom.c). */
#include "outputs/rules.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/expr.h"
#include "base/textbuf.h"
#include "base/util.h"
#include "config.h"
#include "engine/frame.h"
#include "machine/bfperf.h"
#include "machine/facts.h"
#include "machine/generic_events.h"
#include "machine/hwsensors.h"
#include "machine/pmu.h"
#include "outputs/prom.h"
#include "profile/profile.h"

/* Does the PMU read levels (a temperature, a clock's frequency) rather than counts? Its
 * events are served as gauges, whose PromQL is the reading over the window, not rate(). */
static bool reads_levels(const struct pmu *p)
{
	return (p->hw && p->hw->gauge) || (p->sensor && p->sensor->kind != SENSOR_ENERGY);
}

static int metric_index(const struct profile *p, const char *name)
{
	for (int m = 0; m < p->nmetrics; m++)
		if (!strcmp(p->metrics[m].name, name))
			return m;
	return -1;
}

/* A metric's recording rule: its name, and what its record is of the formula's value
 * (the scale a value is shown in, times the base unit's factor: a % is a ratio). */
static double record_name(const struct prof_metric *m, const char *window, char *buf, size_t len)
{
	struct prom_unit u;
	prom_unit_of(m->unit, &u);
	char gauge[192];
	prom_metric_name(gauge, sizeof(gauge), m->name, NULL, u.suffix, false);
	snprintf(buf, len, "pmutop:%s:rate%s", gauge + strlen("pmutop_"), window);
	return m->scale * u.factor;
}

/* What translating one formula needs: its instance (the group's first) and its PMU, the
 * frame, the window, and the metrics of the profile already recorded (a formula reading
 * one by name reads its record). */
struct rule_ctx {
	const struct frame *f;
	const struct instance_info *inst;
	const struct pmu *pmu;
	const char *window;
	const bool *recorded; /* per metric of the profile */
	const double *facts;  /* the machine's literals (#smt_on): constants of its rules */
	const char *why;
	bool level;
	char said[256]; /* the one name a refusal names */
};

static void refuse(struct rule_ctx *c, const char *fmt, const char *name)
{
	snprintf(c->said, sizeof(c->said), fmt, name);
	c->why = c->said;
}

/* The first bound instance of group g of profile p (the exporter serves its events). */
static const struct instance_info *group_instance(const struct frame *f, const struct profile *p,
						  const struct prof_group *g)
{
	for (int i = 0; i < f->ninstances; i++)
		if (f->iinfo[i].profile == p && f->iinfo[i].group == g && f->iinfo[i].pmu)
			return &f->iinfo[i];
	return NULL;
}

/* The unit of an instance's event as its counters say it (the alias's .unit), or NULL. */
static const char *event_unit(const struct frame *f, const struct instance_info *inst, int e)
{
	for (int k = inst->first_counter; k < inst->first_counter + inst->ncounters; k++)
		if (f->cinfo[k].event == e)
			return f->cinfo[k].unit;
	return NULL;
}

/* GROUP.EVENT, another group's counter: its rate, the series of the same instance name
 * (the same labels: PromQL matches them one to one). */
static void import_piece(struct rule_ctx *c, const char *id, char *piece, size_t len)
{
	const struct profile *p = c->inst->profile;
	const char *dot = strchr(id, '.');
	for (int gi = 0; gi < p->ngroups; gi++) {
		const struct prof_group *g = &p->groups[gi];
		if (strncmp(g->name, id, (size_t)(dot - id)) || g->name[dot - id])
			continue;
		const struct instance_info *other = group_instance(c->f, p, g);
		for (int e = 0; other && e < g->nevents; e++)
			if (!strcmp(g->events[e].name, dot + 1) && other->present[e]) {
				char name[192];
				prom_counter_name(name, sizeof(name), g->name, g->events[e].name, event_unit(c->f, other, e), true);
				snprintf(piece, len, "rate(%s[%s])", name, c->window);
				return;
			}
	}
	refuse(c, "it reads %s, which the exporter does not give", id);
}

/* A metric read by name: its record over its scale (the formula reads the value
 * unscaled), where it has one. */
static void ref_piece(struct rule_ctx *c, int mi, char *piece, size_t len)
{
	const struct prof_metric *m = &c->inst->profile->metrics[mi];
	if (!c->recorded[mi]) {
		refuse(c, "it reads the metric %s, which has no rule", m->name);
		return;
	}
	char rec[256];
	double f = record_name(m, c->window, rec, sizeof(rec));
	if (f == 1)
		snprintf(piece, len, "%s", rec);
	else
		snprintf(piece, len, "(%s / %.17g)", rec, f);
}

static char *translate(struct rule_ctx *c, const char *p, const char *end);

static int fact_index(const char *name)
{
	for (int f = 0; f < FACT_COUNT; f++)
		if (!strcasecmp(machine_fact_name(f), name))
			return f;
	return -1;
}

static int resolve_fact(void *ctx, const char *name)
{
	(void)ctx;
	return fact_index(name);
}

static const char *known_fact(void *ctx, int i)
{
	(void)ctx;
	return i < FACT_COUNT ? machine_fact_name(i) : NULL;
}

/* Where [p, end) is perf's "A if C else B" at its top level, and C a constant of the
 * machine (#smt_on): the branch it takes, translated; else NULL, *handled false. */
static char *choose_branch(struct rule_ctx *c, const char *p, const char *end, bool *handled)
{
	const char *at_if = NULL, *at_else = NULL;
	int depth = 0;
	for (const char *q = p; q < end && !at_else; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		bool word = depth == 0 && (q == p || !(isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '.'));
		if (word && !at_if && !strncmp(q, "if", 2) && q + 2 < end && !isalnum((unsigned char)q[2]) && q[2] != '_')
			at_if = q;
		else if (word && at_if && !strncmp(q, "else", 4) && q + 4 < end && !isalnum((unsigned char)q[4]) && q[4] != '_')
			at_else = q;
	}
	*handled = at_else != NULL;
	if (!at_else)
		return NULL;
	char *cond = xstrndup(at_if + 2, (size_t)(at_else - at_if - 2)), *err = NULL;
	struct expr_names names = { resolve_fact, known_fact, NULL };
	int col;
	struct expr *e = expr_compile(cond, &names, &err, &col);
	double v = e ? expr_eval(e, c->facts) : NAN;
	expr_free(e);
	free(err);
	free(cond);
	if (isnan(v)) {
		c->why = "perf's if/else on what the exporter does not give";
		return NULL;
	}
	return v != 0 ? translate(c, p, at_if) : translate(c, at_else + 4, end);
}

/* The arguments of the call whose '(' is at open, translated: how many (at most two),
 * *after set past its ')'. */
static int call_args(struct rule_ctx *c, const char *open, const char *end, char *args[2], const char **after)
{
	int depth = 0, n = 0;
	const char *from = open + 1;
	for (const char *q = open; q < end; q++) {
		depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		if ((*q == ',' && depth == 1) || (*q == ')' && depth == 0)) {
			if (n == 2) {
				c->why = "a function of more than two values has no PromQL counterpart";
				return n;
			}
			if (!(args[n++] = translate(c, from, q)))
				return n;
			from = q + 1;
			if (*q == ')') {
				*after = q + 1;
				return n;
			}
		}
	}
	c->why = "unbalanced parentheses";
	return n;
}

static bool is_number(const char *t)
{
	char *e;
	strtod(t, &e);
	return e != t && !*e;
}

/* perf's max(a, b), min(a, b) and d_ratio(a, b) in PromQL: a bound is clamp_min/max; two
 * series, the one kept by a comparison or the other; d_ratio 0 where b is 0. */
static char *call_piece(struct rule_ctx *c, const char *fn, const char *open, const char *end, const char **after)
{
	char *a[2] = { NULL, NULL }, *out = NULL;
	int n = call_args(c, open, end, a, after);
	bool mx = !strcmp(fn, "max");
	if (!c->why && n == 1 && (!strcmp(fn, "abs") || !strcmp(fn, "sqrt") || !strcmp(fn, "floor")))
		out = xasprintf("%s(%s)", fn, a[0]);
	else if (!c->why && n == 2 && !strcmp(fn, "d_ratio"))
		out = xasprintf("((%s) / ((%s) != 0) or (%s) * 0)", a[0], a[1], a[0]);
	else if (!c->why && n == 2 && (mx || !strcmp(fn, "min")) && (is_number(a[0]) || is_number(a[1])))
		out = xasprintf("clamp_%s(%s, %s)", mx ? "min" : "max", is_number(a[0]) ? a[1] : a[0],
				is_number(a[0]) ? a[0] : a[1]);
	else if (!c->why && n == 2 && (mx || !strcmp(fn, "min")))
		out = xasprintf("((%s) %s (%s) or (%s))", a[0], mx ? ">=" : "<=", a[1], a[1]);
	else if (!c->why)
		refuse(c, "%s() has no PromQL counterpart here", fn);
	free(a[0]);
	free(a[1]);
	return out;
}

/* An identifier of a formula in PromQL, into piece (or a refusal in c->why). */
static void name_piece(struct rule_ctx *c, const char *id, char *piece, size_t len)
{
	const struct prof_group *g = c->inst->group;
	int e = -1, a = -1, mi = metric_index(c->inst->profile, id);
	for (int k = 0; k < g->nevents && e < 0; k++)
		if (!strcmp(g->events[k].name, id))
			e = k;
	for (int k = 0; k < g->nattrs && a < 0; k++)
		if (!strcmp(g->attr_ids[k], id))
			a = k;
	char name[192];
	if (e >= 0 && !c->inst->present[e]) {
		c->why = "its PMU lacks an event it reads";
	} else if (e >= 0 && c->pmu && reads_levels(c->pmu)) {
		c->level = true;
	} else if (e >= 0) {
		prom_counter_name(name, sizeof(name), g->name, g->events[e].name, event_unit(c->f, c->inst, e), true);
		snprintf(piece, len, "rate(%s[%s])", name, c->window);
	} else if (a >= 0) {
		prom_attr_name(name, sizeof(name), g->name, g->attr_ids[a]);
		str_copy(piece, len, name);
	} else if (!strcmp(id, "elapsed_ns")) {
		snprintf(piece, len, "1e9"); /* rates are per second */
	} else if (!strcmp(id, "elapsed_s") || !strcmp(id, "duration_time")) {
		snprintf(piece, len, "1");
	} else if (id[0] == '#' && fact_index(id) >= 0 && !isnan(c->facts[fact_index(id)])) {
		snprintf(piece, len, "%.17g", c->facts[fact_index(id)]); /* the machine's, a constant */
	} else if (mi >= 0) {
		ref_piece(c, mi, piece, len);
	} else if (strchr(id, '.')) {
		import_piece(c, id, piece, len);
	} else {
		refuse(c, !strcmp(id, "if") || !strcmp(id, "else") ? "perf's %s/else has no PromQL counterpart"
			  : "it uses %s, which the exporter does not give", id);
	}
}

/* text[p, end) of a formula in PromQL over the instance's exported series, or NULL (with
 * c->why) when it uses what the exporter does not give (ncpus, a machine's literal). A
 * formula that reads levels (a temperature) sets c->level: the exporter serves those only
 * as the metric's own gauge, whose PromQL is its average over the window. */
static char *translate(struct rule_ctx *c, const char *p, const char *end)
{
	bool branched;
	char *branch = choose_branch(c, p, end, &branched);
	if (branched)
		return branch;
	struct textbuf out = { 0 };
	while (p < end && !c->why) {
		char piece[512] = "";
		if (isalpha((unsigned char)*p) || *p == '_' || *p == '#') {
			const char *s = p++;
			while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'))
				p++;
			char id[128];
			snprintf(id, sizeof(id), "%.*s", (int)(p - s), s);
			const char *q = p;
			while (q < end && *q == ' ')
				q++;
			char *call = q < end && *q == '(' ? call_piece(c, id, q, end, &p) : NULL;
			if (call) {
				textbuf_put(&out, call);
				free(call);
				continue;
			}
			if (q >= end || *q != '(')
				name_piece(c, id, piece, sizeof(piece));
		} else if (isdigit((unsigned char)*p) || *p == '.') {
			const char *s = p;
			while (p < end && (isalnum((unsigned char)*p) || *p == '.' ||
					   ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E'))))
				p++;
			snprintf(piece, sizeof(piece), "%.*s", (int)(p - s), s);
		} else if (*p == '(') { /* what it holds, on its own (perf's if/else inside) */
			const char *close = p;
			for (int depth = 0; close < end; close++)
				if ((depth += *close == '(' ? 1 : *close == ')' ? -1 : 0) == 0)
					break;
			char *inner = close < end ? translate(c, p + 1, close) : NULL;
			if (!inner && !c->why)
				c->why = "unbalanced parentheses";
			if (inner)
				textbuf_printf(&out, "(%s)", inner);
			free(inner);
			p = close + 1;
			continue;
		} else if (strchr("+-*/ \t", *p)) {
			snprintf(piece, sizeof(piece), "%c", *p == '\t' ? ' ' : *p);
			p++;
		} else {
			c->why = "an operator PromQL does not have";
		}
		textbuf_put(&out, piece);
	}
	if (c->why) {
		textbuf_free(&out);
		return NULL;
	}
	return out.data ? out.data : xstrdup("");
}

/* Metric m's rule expression: its formulae (one per group: sensors' power from power or
 * energy files) joined with 'or', as a record name must mean one thing; NULL with *why,
 * or NULL and no *why where no group of it is bound. */
static char *metric_rule(const struct frame *f, const struct machine *mach, const struct profile *p,
			 const struct prof_metric *m, const char *window, const bool *recorded, const double *facts,
			 char *why, size_t whylen)
{
	struct textbuf joined = { 0 };
	char rec[256];
	double factor = record_name(m, window, rec, sizeof(rec));
	int nforms = 0;
	for (int fi = 0; fi < m->nforms; fi++) {
		const struct instance_info *inst = group_instance(f, p, &p->groups[m->forms[fi].group]);
		if (!inst || !m->forms[fi].text)
			continue; /* not bound here; perf's metric alone where the catalogue lacks it */
		struct rule_ctx c = { .f = f, .inst = inst, .pmu = machine_find_pmu(mach, inst->pmu), .window = window,
				      .recorded = recorded, .facts = facts };
		const char *text = m->forms[fi].text;
		char *expr = translate(&c, text, text + strlen(text));
		if (!expr) {
			snprintf(why, whylen, "%s", c.why);
			textbuf_free(&joined);
			return NULL;
		}
		if (c.level) { /* the gauge is in base units already */
			free(expr);
			struct prom_unit u;
			prom_unit_of(m->unit, &u);
			char gauge[192];
			prom_metric_name(gauge, sizeof(gauge), m->name, NULL, u.suffix, false);
			expr = xasprintf("avg_over_time(%s[%s])", gauge, window);
		} else if (factor != 1) { /* as shown (perf's ScaleUnit), in the base unit */
			char *scaled = xasprintf("(%s) * %.17g", expr, factor);
			free(expr);
			expr = scaled;
		}
		textbuf_printf(&joined, "%s(%s)", nforms++ ? " or " : "", expr);
		free(expr);
	}
	return joined.data;
}

/* serve --cgroups' and -G's: each cgroup's rates from its counters (outputs/prom_cgroups.h) */
static void cgroup_rules(const char *w, bool topdown)
{
	printf("  - name: pmutop-cgroups\n    rules:\n"
	       "      - record: pmutop:cgroup_cpu_seconds:rate%s\n"
	       "        expr: rate(pmutop_cgroup_cpu_seconds_total[%s])\n"
	       "      - record: pmutop:cgroup_ipc:rate%s\n"
	       "        expr: rate(pmutop_cgroup_instructions_total[%s]) / rate(pmutop_cgroup_cycles_total[%s])\n"
	       "      - record: pmutop:cgroup_cache_mpki:rate%s\n"
	       "        expr: 1000 * rate(pmutop_cgroup_cache_misses_total[%s]) / rate(pmutop_cgroup_instructions_total[%s])\n"
	       "      - record: pmutop:cgroup_branch_mpki:rate%s\n"
	       "        expr: 1000 * rate(pmutop_cgroup_branch_misses_total[%s]) / rate(pmutop_cgroup_instructions_total[%s])\n",
	       w, w, w, w, w, w, w, w, w, w, w);
	/* TopDown level 1 where the CPU has perf metrics (the series are served only there):
	 * each over the four's sum, perf's rule */
	static const char *const level1[] = { "retiring", "bad_speculation", "frontend_bound", "backend_bound" };
	for (int l = 0; topdown && l < 4; l++) {
		printf("      - record: pmutop:cgroup_%s:rate%s\n        expr: rate(pmutop_cgroup_topdown_%s_slots_total[%s]) / (",
		       level1[l], w, level1[l], w);
		for (int k = 0; k < 4; k++)
			printf("%srate(pmutop_cgroup_topdown_%s_slots_total[%s])", k ? " + " : "", level1[k], w);
		printf(")\n");
	}
}

int print_rules(const struct frame *f, const struct machine *mach, const char *window, bool cgroups)
{
	printf("# Prometheus recording rules from pmutop %s: each metric of the profiles computed\n"
	       "# from the counters pmutop serve exports, over %s, in the base units of the gauge\n"
	       "# pmutop exports for it (a metric read by name: its rule, before). Check with:\n"
	       "# promtool check rules FILE\n"
	       "groups:\n", PACKAGE_VERSION, window);
	double facts[FACT_COUNT];
	machine_facts_read(mach, facts);
	for (int pi = 0; pi < f->nprofiles; pi++) {
		const struct profile *p = f->profiles[pi];
		bool header = false, *recorded = xcalloc((size_t)(p->nmetrics + 1), sizeof(bool));
		/* each metric after those it reads: a rule group evaluates in order, and a rule
		 * reads the records of those before it at the same time */
		for (int k = 0; k < p->nmetrics; k++) {
			int mi = p->metric_order ? p->metric_order[k] : k;
			const struct prof_metric *m = &p->metrics[mi];
			if (p->selecting && !m->selected)
				continue; /* -M (or a demo's catalogue) chose others: nothing counts it */
			char why[300] = "", rec[256];
			char *expr = NULL;
			if (m->perf_profile) { /* perf's metric (metric_delegate.h): its record, in its group */
				char own[256];
				record_name(&m->perf_profile->metrics[m->perf_metric], window, rec, sizeof(rec));
				record_name(m, window, own, sizeof(own));
				if (!strcmp(rec, own))
					continue; /* perf's of the same name (xeon.ini's): recorded there once */
				expr = xstrdup(rec);
			} else {
				expr = metric_rule(f, mach, p, m, window, recorded, facts, why, sizeof(why));
			}
			if (!expr && !*why)
				continue; /* none of its groups is bound here */
			if (!header) {
				printf("  - name: pmutop-%s\n    rules:\n", p->name);
				header = true;
			}
			record_name(m, window, rec, sizeof(rec));
			if (expr)
				printf("      - record: %s\n        expr: %s\n", rec, expr);
			else
				printf("      # %s: not translated: %s\n", m->name, why);
			recorded[mi] = expr != NULL;
			free(expr);
		}
		free(recorded);
	}
	if (cgroups)
		cgroup_rules(window, machine_perf_metrics_pmu(mach) != NULL);
	return 0;
}
