/* SPDX-License-Identifier: GPL-2.0-only */
/* simmodel.c - the traffic model of a simulated machine. */
#include "sim/simmodel.h"
#include "sim/simmodel_data.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "base/iniread.h"
#include "base/sysfs.h"
#include "base/util.h"
#include "machine/cpuid.h"
#include "machine/pmu.h"
#include "machine/pcimap.h"

#define merr(m, ...) ini_error(&(m)->in, __VA_ARGS__)

struct rate_names {
	const struct sim_section *sec;
	int upto; /* rates defined so far */
};

static int rate_resolve(void *ctx, const char *name)
{
	struct rate_names *rn = ctx;
	if (!strcmp(name, "t"))
		return SLOT_T;
	if (!strcmp(name, "socket"))
		return SLOT_SOCKET;
	if (!strcmp(name, "index"))
		return SLOT_INDEX;
	if (!strcmp(name, "cpu"))
		return SLOT_CPU;
	if (!strcmp(name, "units"))
		return SLOT_UNITS;
	if (!strcmp(name, "reading"))
		return SLOT_READING;
	for (int i = 0; i < rn->upto; i++)
		if (!strcmp(rn->sec->rates[i].event, name))
			return SLOT_NFIXED + i;
	return -1;
}

static const char *rate_known(void *ctx, int i)
{
	struct rate_names *rn = ctx;
	if (i == 0)
		return "t";
	if (i == 1)
		return "socket";
	if (i == 2)
		return "index";
	if (i == 3)
		return "cpu";
	if (i == 4)
		return "units";
	if (i == 5)
		return "reading";
	return i - SLOT_NFIXED < rn->upto ? rn->sec->rates[i - SLOT_NFIXED].event : NULL;
}

static void add_cell(struct sim_dim *d, struct sim_cell c)
{
	d->cells = xrealloc(d->cells, sizeof(struct sim_cell) * (size_t)(d->ncells + 1));
	d->cells[d->ncells++] = c;
}

/* FIELD[/MASKFIELD]@VALUE=WEIGHT: one value cell */
static bool add_value_cell(struct sim_model *m, struct sim_dim *d, const char *name, char *w, char *at)
{
	char *eq = strchr(at, '=');
	uint64_t v;
	char *end;
	double wgt;
	if (!eq) {
		merr(m, m->in.line, 0, "dim.%s: '%s' is not FIELD@VALUE=WEIGHT", name, w);
		return false;
	}
	*at = *eq = '\0';
	wgt = strtod_c(eq + 1, &end);
	if (!parse_u64(at + 1, &v) || end == eq + 1 || *end || wgt < 0) {
		merr(m, m->in.line, 0, "dim.%s: '%s@%s=%s' wants a number (decimal or 0x) and a non-negative weight", name, w,
		     at + 1, eq + 1);
		return false;
	}
	char *slash = strchr(w, '/');
	if (slash)
		*slash = '\0';
	add_cell(d, (struct sim_cell){ .field = xstrdup(w), .bit = -1, .weight = wgt, .by_value = true, .value = v,
				       .mask_field = slash ? xstrdup(slash + 1) : NULL });
	return true;
}

/* A list of words ("scaled = energy-pkg energy-ram") appended to *words. */
static void add_words(char ***words, int *n, const char *value)
{
	char *copy = xstrdup(value), *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		*words = xrealloc(*words, sizeof(char *) * (size_t)(*n + 1));
		(*words)[(*n)++] = xstrdup(w);
	}
	free(copy);
}

static void add_dim(struct sim_model *m, struct sim_section *sec, const char *name, const char *value)
{
	struct sim_dim d = { .name = xstrdup(name) };
	char *copy = xstrdup(value), *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (str_has_prefix(w, "when=") && w[5]) {
			free(d.when);
			d.when = xstrdup(w + 5);
			continue;
		}
		if (str_has_prefix(w, "unless=") && w[7]) {
			free(d.unless);
			d.unless = xstrdup(w + 7);
			continue;
		}
		char *at = strchr(w, '@');
		if (at && !strcmp(at, "@devices")) {
			*at = '\0';
			add_cell(&d, (struct sim_cell){ .field = xstrdup(w), .bit = -1, .weight = 1, .by_value = true, .from_pci = true });
			continue;
		}
		if (at) {
			add_value_cell(m, &d, name, w, at);
			continue;
		}
		if (str_has_suffix(w, "=devices")) {
			w[strlen(w) - strlen("=devices")] = '\0';
			add_cell(&d, (struct sim_cell){ .field = xstrdup(w), .bit = -1, .weight = 1, .from_pci = true });
			continue;
		}
		char *eq = strchr(w, '=');
		if (!eq || eq == w) {
			merr(m, m->in.line, 0, "dim.%s: '%s' is not FIELD=WEIGHT[,WEIGHT...] or FIELD@VALUE=WEIGHT", name, w);
			continue;
		}
		*eq = '\0';
		char *list = eq + 1, *save2 = NULL;
		int bit = 0;
		bool many = strchr(list, ',') != NULL;
		for (char *x = strtok_r(list, ",", &save2); x; x = strtok_r(NULL, ",", &save2), bit++) {
			char *end;
			double wgt = strtod_c(x, &end);
			if (end == x || *end || wgt < 0) {
				merr(m, m->in.line, 0, "dim.%s: weight '%s' of %s is not a non-negative number", name, x, w);
				continue;
			}
			add_cell(&d, (struct sim_cell){ .field = xstrdup(w), .bit = many ? bit : -1, .weight = wgt });
		}
	}
	free(copy);
	sec->dims = xrealloc(sec->dims, sizeof(struct sim_dim) * (size_t)(sec->ndims + 1));
	sec->dims[sec->ndims++] = d;
}

/* rate.EVENT = FORMULA in sec, at line (the formula from column col). */
static void add_rate(struct sim_model *m, struct sim_section *sec, const char *event, const char *formula, int line,
		     int col0)
{
	struct sim_rate r = { .event = xstrdup(event), .formula = xstrdup(formula), .line = line };
	struct rate_names rn = { sec, sec->nrates };
	struct expr_names names = { rate_resolve, rate_known, &rn };
	char *err;
	int col;
	r.expr = expr_compile(formula, &names, &err, &col);
	if (!r.expr) {
		merr(m, line, col0 + col - 1, "rate.%s: %s", event, err);
		free(err);
	}
	sec->rates = xrealloc(sec->rates, sizeof(r) * (size_t)(sec->nrates + 1));
	sec->rates[sec->nrates++] = r;
}

/* flows = NAME: the rates of [flows NAME], as if written here. */
static void use_flows(struct sim_model *m, struct sim_section *sec, const char *name)
{
	for (int i = 0; i < m->nflows; i++) {
		if (strcmp(m->flows[i].name, name))
			continue;
		for (int k = 0; k < m->flows[i].nrates; k++) {
			const struct sim_rate *r = &m->flows[i].rates[k];
			add_rate(m, sec, r->event, r->formula, r->line, r->col);
		}
		return;
	}
	merr(m, m->in.line, ini_value_column(&m->in), "flows = %s: no [flows %s] above", name, name);
}

/* [model] width (the cores' issue slots a cycle: the tasks' TopDown) and ghz (their clock
 * while busy: a task's by default, the root cgroup's CPU time from its cycles) */
static void model_number(struct sim_model *m, const char *name, const char *value)
{
	bool width = !strcmp(name, "width");
	double lo = width ? 1 : 0.1, hi = width ? 16 : 10;
	char *end;
	double v = strtod_c(value, &end);
	if (*end || end == value || !(v >= lo && v <= hi))
		merr(m, m->in.line, ini_value_column(&m->in), "%s must be a number from %g to %g", name, lo, hi);
	else
		*(width ? &m->width : &m->ghz) = v;
}

uint64_t sim_model_origin(struct sim_model *m, uint64_t now_ns)
{
	if (!m->origin_set) {
		m->origin_ns = now_ns;
		m->origin_set = true;
	}
	return m->origin_ns;
}

/* A key of [task NAME]: a number within its range. */
static void task_key(struct sim_model *m, struct sim_task *t, const char *name, const char *value)
{
	static const struct {
		const char *key;
		double lo, hi;
	} keys[] = { { "pid", 1, 4194304 }, { "user", 0, 0 }, { "threads", 1, 100000 }, { "cpus", 0, 4096 },
		     { "ghz", 0.1, 10 }, { "ipc", 0, 16 }, { "cache_mpki", 0, 1000 }, { "branch_mpki", 0, 1000 },
		     { "retiring", 0, 1 }, { "bad_speculation", 0, 1 }, { "frontend_bound", 0, 1 }, { "backend_bound", 0, 1 } };
	if (!strcmp(name, "user") || !strcmp(name, "cgroup")) {
		char **text = !strcmp(name, "user") ? &t->user : &t->cgroup;
		free(*text);
		while (*name == 'c' && *value == '/')
			value++; /* a cgroup's path, with or without its leading / */
		*text = xstrdup(value);
		return;
	}
	if (!strcmp(name, "llc_mpki"))
		name = "cache_mpki"; /* its name before it said what it is on every CPU */
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (strcmp(name, keys[k].key))
			continue;
		char *end;
		double v = strtod_c(value, &end);
		if (*end || end == value || !(v >= keys[k].lo && v <= keys[k].hi)) {
			merr(m, m->in.line, ini_value_column(&m->in), "%s must be a number from %.15g to %.15g", name, keys[k].lo,
			     keys[k].hi);
			return;
		}
		double *d[] = { NULL, NULL, NULL, &t->cpus, &t->ghz, &t->ipc, &t->cache_mpki, &t->branch_mpki,
				&t->topdown[0], &t->topdown[1], &t->topdown[2], &t->topdown[3] };
		if (k == 0)
			t->pid = (int)v;
		else if (k == 2)
			t->threads = (int)v;
		else
			*d[k] = v;
		return;
	}
	merr(m, m->in.line, 0, "unknown key '%s' in [task %s] (known: pid, user, cgroup, threads, cpus, ghz, ipc, cache_mpki, branch_mpki, "
	     "retiring, bad_speculation, frontend_bound, backend_bound)",
	     name, t->name);
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct sim_model *m = user;
	(void)section;
	if (m->cur_task >= 0) {
		task_key(m, &m->tasks[m->cur_task], name, value);
		return 1;
	}
	if (m->cur_flows >= 0) {
		struct sim_flows *fl = &m->flows[m->cur_flows];
		if (!str_has_prefix(name, "rate.") || !name[5]) {
			merr(m, m->in.line, 0, "unknown key '%s' in [flows %s] (known: rate.NAME)", name, fl->name);
			return 1;
		}
		fl->rates = xrealloc(fl->rates, sizeof(*fl->rates) * (size_t)(fl->nrates + 1));
		fl->rates[fl->nrates++] = (struct sim_rate){ .event = xstrdup(name + 5), .formula = xstrdup(value),
							     .line = m->in.line, .col = ini_value_column(&m->in) };
		return 1;
	}
	if (m->cur < 0) {
		if (!strcmp(name, "title")) {
			free(m->title);
			m->title = xstrdup(value);
		} else if (!strcmp(name, "jitter")) {
			char *end;
			m->jitter = strtod_c(value, &end);
			if (*end || m->jitter < 0 || m->jitter > 0.5)
				merr(m, m->in.line, 0, "jitter must be a number from 0 to 0.5");
		} else if (!strcmp(name, "metrics")) {
			free(m->metrics);
			m->metrics = xstrdup(value);
		} else if (!strcmp(name, "width") || !strcmp(name, "ghz")) {
			model_number(m, name, value);
		} else {
			merr(m, m->in.line, 0, "unknown key '%s' in [model] (known: title, jitter, metrics, width, ghz)", name);
		}
		return 1;
	}
	struct sim_section *sec = &m->sections[m->cur];
	if (str_has_prefix(name, "rate.") && name[5]) {
		add_rate(m, sec, name + 5, value, m->in.line, ini_value_column(&m->in));
	} else if (!strcmp(name, "flows")) {
		use_flows(m, sec, value);
	} else if (str_has_prefix(name, "dim.") && name[4]) {
		add_dim(m, sec, name + 4, value);
	} else if (!strcmp(name, "scaled")) {
		add_words(&sec->scaled, &sec->nscaled, value);
	} else if (!strcmp(name, "unfiltered")) {
		add_words(&sec->unfiltered, &sec->nunfiltered, value);
	} else if (!strcmp(name, "unsupported")) {
		add_words(&sec->unsupported, &sec->nunsupported, value);
	} else if (!strcmp(name, "counters")) {
		char *end;
		long n = strtol(value, &end, 10);
		if (*end || end == value || n < 1 || n > 64)
			merr(m, m->in.line, 0, "counters must be a CPU's general counters, 1 to 64");
		sec->counters = (int)n;
	} else if (!strcmp(name, "fixed")) {
		add_words(&sec->fixed, &sec->nfixed, value);
	} else if (!strcmp(name, "pmu_name") || !strcmp(name, "midr") || !strcmp(name, "cpuid")) {
		char **to = name[0] == 'p' ? &sec->pmu_names : name[0] == 'm' ? &sec->midrs : &sec->cpuids;
		free(*to);
		*to = xstrdup(value);
	} else if (!strcmp(name, "events")) {
		sec->perf_names = !strcmp(value, "perf");
		if (!sec->perf_names)
			merr(m, m->in.line, ini_value_column(&m->in), "events = %s: the only list a model may name is 'perf'", value);
	} else if (!strcmp(name, "running")) {
		char *end;
		sec->running = strtod_c(value, &end);
		if (*end || !(sec->running > 0 && sec->running <= 1))
			merr(m, m->in.line, 0, "running must be a fraction in (0, 1]");
	} else if (!strcmp(name, "jitter")) { /* a clock without noise: the TSC */
		char *end;
		sec->jitter = strtod_c(value, &end);
		if (*end || !(sec->jitter >= 0 && sec->jitter < 1))
			merr(m, m->in.line, 0, "jitter must be a fraction in [0, 1)");
	} else {
		merr(m, m->in.line, 0, "unknown key '%s' in [pmu %s] (known: rate.EVENT, flows, dim.NAME, unfiltered, scaled, unsupported, counters, fixed, running, jitter, pmu_name, midr, cpuid, events)", name,
		     sec->glob);
	}
	return 1;
}

/* A section header, seen before inih parses its line. */
static void start_section(void *ctx, char *header)
{
	struct sim_model *m = ctx;
	char *end = strchr(header, ']');
	if (!end)
		return; /* inih reports it */
	*end = '\0';
	char *s = trim(header + 1);
	m->cur_flows = -1;
	m->cur_task = -1;
	if (str_has_prefix(s, "task ") && *trim(s + 5)) {
		m->tasks = xrealloc(m->tasks, sizeof(*m->tasks) * (size_t)(m->ntasks + 1));
		m->tasks[m->ntasks] = (struct sim_task){ .name = xstrdup(trim(s + 5)), .pid = 1000 + m->ntasks, .threads = 1,
							 .ghz = m->ghz > 0 ? m->ghz : 2.5, .ipc = 1 };
		m->cur_task = m->ntasks++;
		m->cur = -1;
	} else if (!strcmp(s, "model")) {
		m->cur = -1;
	} else if (str_has_prefix(s, "flows ") && *trim(s + 6)) {
		m->flows = xrealloc(m->flows, sizeof(*m->flows) * (size_t)(m->nflows + 1));
		m->flows[m->nflows] = (struct sim_flows){ .name = xstrdup(trim(s + 6)) };
		m->cur_flows = m->nflows++;
		m->cur = -1;
	} else if (str_has_prefix(s, "pmu ") || str_has_prefix(s, "pmu\t")) {
		m->sections = xrealloc(m->sections, sizeof(struct sim_section) * (size_t)(m->nsections + 1));
		m->sections[m->nsections] = (struct sim_section){ .glob = xstrdup(trim(s + 4)), .running = 1.0, .jitter = NAN };
		m->cur = m->nsections++;
	} else {
		merr(m, m->in.line, 0, "unknown section [%s] (want [model], [flows NAME], [pmu GLOB] or [task NAME])", s);
		m->cur = -1;
	}
}



static void finish(struct sim_model *m)
{
	for (int i = 0; i < m->nsections; i++) {
		struct sim_section *sec = &m->sections[i];
		sec->needed = xcalloc((size_t)sec->nrates + 1, sizeof(bool));
		sec->readers = xcalloc((size_t)sec->nrates + 1, sizeof(int));
		sim_section_ready(sec);
	}
	if (!m->title)
		m->title = xstrdup("simulated machine");
}

struct sim_model *sim_model_load(const char *path)
{
	struct sim_model *m = xcalloc(1, sizeof(*m));
	m->refs = 1;
	m->path = xstrdup(path);
	m->cur = -1;
	m->cur_flows = -1;
	m->cur_task = -1;
	const char *why;
	FILE *f = open_user_file(path, &why);
	if (!f) {
		diag_error("%s: cannot open model: %s", path, why);
		sim_model_free(m);
		return NULL;
	}
	m->in = (struct ini_reader){ .path = m->path, .f = f, .section = start_section, .ctx = m };
	ini_read(&m->in, handler, m);
	fclose(f);
	ini_reader_free(&m->in);
	if (m->in.nerrors) {
		sim_model_free(m);
		return NULL;
	}
	finish(m);
	return m;
}

struct sim_model *sim_model_default(void)
{
	struct sim_model *m = xcalloc(1, sizeof(*m));
	m->refs = 1;
	m->path = xstrdup("(default model)");
	finish(m);
	return m;
}

struct sim_model *sim_model_ref(struct sim_model *m)
{
	m->refs++;
	return m;
}

void sim_model_free(struct sim_model *m)
{
	if (!m || --m->refs > 0)
		return;
	for (int i = 0; i < m->ntasks; i++) {
		free(m->tasks[i].name);
		free(m->tasks[i].user);
		free(m->tasks[i].cgroup);
	}
	free(m->tasks);
	for (int i = 0; i < m->nsections; i++) {
		struct sim_section *s = &m->sections[i];
		for (int j = 0; j < s->nrates; j++) {
			free(s->rates[j].event);
			free(s->rates[j].formula);
			expr_free(s->rates[j].expr);
		}
		free(s->rates);
		for (int j = 0; j < s->ndims; j++) {
			for (int k = 0; k < s->dims[j].ncells; k++) {
				free(s->dims[j].cells[k].field);
				free(s->dims[j].cells[k].mask_field);
			}
			free(s->dims[j].cells);
			free(s->dims[j].name);
			free(s->dims[j].when);
			free(s->dims[j].unless);
		}
		for (int j = 0; j < s->nscaled; j++)
			free(s->scaled[j]);
		free(s->scaled);
		for (int j = 0; j < s->nunsupported; j++)
			free(s->unsupported[j]);
		free(s->unsupported);
		for (int j = 0; j < s->nfixed; j++)
			free(s->fixed[j]);
		free(s->fixed);
		free(s->dims);
		for (int j = 0; j < s->nunfiltered; j++)
			free(s->unfiltered[j]);
		free(s->unfiltered);
		if (s->last)
			sim_point_release(s->last);
		free(s->last);
		free(s->by_name);
		free(s->needed);
		free(s->readers);
		free(s->reads);
		for (int list = 0; list < RATES_NLISTS; list++)
			free(s->lists[list]);
		for (int b = 0; b < s->nplaces; b++) {
			sim_point_release(s->places[b]);
			free(s->places[b]);
		}
		free(s->places);
		for (int b = 0; b < s->nbases; b++) {
			sim_point_release(s->bases[b]);
			free(s->bases[b]);
		}
		free(s->bases);
		free(s->glob);
		free(s->pmu_names);
		free(s->midrs);
		free(s->cpuids);
		free(s->units);
	}
	free(m->sections);
	for (int i = 0; i < m->nflows; i++) {
		for (int k = 0; k < m->flows[i].nrates; k++) {
			free(m->flows[i].rates[k].event);
			free(m->flows[i].rates[k].formula);
		}
		free(m->flows[i].rates);
		free(m->flows[i].name);
	}
	free(m->flows);
	free(m->title);
	free(m->metrics);
	free(m->path);
	free(m);
}

double sim_model_jitter(const struct sim_model *m, const struct sim_section *sec)
{
	return sec && !isnan(sec->jitter) ? sec->jitter : m->jitter;
}

const char *sim_model_title(const struct sim_model *m)
{
	return m->title;
}

const char *sim_model_metrics(const struct sim_model *m)
{
	return m->metrics;
}

/* [pmu GLOB GLOB...]: any of the blank-separated globs */
static bool section_matches(const char *globs, const char *pmu_name)
{
	char pat[256];
	for (const char *p = globs; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t");
		if (n && n < sizeof(pat)) {
			memcpy(pat, p, n);
			pat[n] = '\0';
			if (fnmatch(pat, pmu_name, 0) == 0)
				return true;
		}
		p += n;
	}
	return false;
}

/* Does one of the globs name the machine's cpuid (perf's rule: with or without its stepping)? */
static bool cpuid_named(const char *globs, const char *cpuid)
{
	bool found = false;
	char *copy = xstrdup(globs), *save = NULL;
	for (char *g = strtok_r(copy, " \t", &save); g && cpuid && !found; g = strtok_r(NULL, " \t", &save))
		found = cpuid_glob_matches(g, cpuid);
	free(copy);
	return found;
}

/* A PMU attribute a section's globs must match, where it says them. */
static bool attr_named(const char *globs, const struct pmu *p, const char *attr)
{
	const char *v = globs ? pmu_attr(p, attr) : NULL;
	return !globs || (v && section_matches(globs, v));
}

const struct sim_section *sim_model_section_on(const struct sim_model *m, const struct machine *machine,
					       const struct pmu *p)
{
	for (int i = 0; i < m->nsections; i++) {
		const struct sim_section *sec = &m->sections[i];
		if (section_matches(sec->glob, p->name) && attr_named(sec->pmu_names, p, "caps/pmu_name") &&
		    attr_named(sec->midrs, p, "midr_el1") &&
		    (!sec->cpuids || (machine && cpuid_named(sec->cpuids, machine->cpuid))))
			return sec;
	}
	return NULL;
}

const struct sim_section *sim_model_section(const struct sim_model *m, const struct pmu *p)
{
	return sim_model_section_on(m, NULL, p);
}

bool sim_section_perf_names(const struct sim_section *sec)
{
	return sec && sec->perf_names;
}
