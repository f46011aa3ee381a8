/* SPDX-License-Identifier: GPL-2.0-only */
/* simmodel.c - the traffic model of a simulated machine. */
#include "sim/simmodel.h"

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
#include "machine/pcimap.h"

enum { SLOT_T, SLOT_SOCKET, SLOT_INDEX, SLOT_CPU, SLOT_UNITS, SLOT_READING, SLOT_NFIXED };
enum rate_list {
	RATES_ALL_T, RATES_ALL_ONCE,       /* a point of its own */
	RATES_CPU_T, RATES_CPU_ONCE,       /* a CPU's, beside its socket's base point */
	RATES_SHARED_T, RATES_SHARED_ONCE, /* the base point's */
	RATES_NLISTS
};

struct sim_rate {
	char *event;
	char *formula;
	struct expr *expr;
	int line, col; /* col: a [flows] rate's formula column (where a section uses it) */
};

struct sim_cell {
	char *field;
	int bit; /* -1: the field as a flag (any bit set) */
	double weight;
	/* value cells (FIELD@VALUE, FIELD/MASKFIELD@VALUE): traffic of one device (a BDF) or
	 * address; selected when the field equals the value, or matches it under the mask
	 * field as the driver compares (value & mask) == (field & mask) */
	bool by_value;
	uint64_t value;
	char *mask_field;
	/* FIELD=devices, FIELD@devices: one cell per device the PCI map puts behind the PMU's
	 * root complex (its root port's bit, or its BDF), the weight shared among them; a
	 * root complex with no device carries nothing */
	bool from_pci;
};

struct sim_dim {
	char *name;
	char *when; /* value dimensions: the enable field that turns the filter on */
	char *unless; /* "F1,F2": fields any of which, set, turns the dimension off (a mode) */
	int ncells;
	struct sim_cell *cells;
};

struct sim_section {
	char *glob;
	int nrates;
	struct sim_rate *rates;
	int ndims;
	struct sim_dim *dims;
	char **unfiltered;
	int nunfiltered;
	char **scaled;  /* events whose rates are in the alias's scaled units */
	int nscaled;
	char **unsupported; /* events the simulated driver refuses (ENOENT), as the kernel
			     * refuses a generic event a PMU has no mapping for */
	int nunsupported;
	int counters;   /* a CPU's general counters for this PMU (0: as many as asked) ... */
	char **fixed;   /* ... and the events that take none (a cycle counter) */
	int nfixed;
	double running;
	double jitter;  /* this section's noise, or NAN for the model's */
	struct sim_point last; /* sim_rate()'s: the last place asked */
	int *by_name; /* the rates' indices in strcmp order of their events: found by halving */
	int *lists[RATES_NLISTS]; /* the rates by what they vary with (sort_rates) */
	int nlist[RATES_NLISTS];
	bool lists_stale; /* rates newly needed: filled at the next evaluation, not per rate */
	struct sim_point **bases; /* the shared rates, one point per (socket, index) */
	int nbases;
	struct sim_point **places; /* every rate, one point per (socket, index, CPU): the
				    * groups of one PMU on one CPU share it (sim_point_at) */
	int nplaces;
	int nunits;
	int *units; /* per socket: the PMUs this section models there (the rate 'units') */
	bool uses[SLOT_NFIXED]; /* which of t, socket, index, cpu its rates read: the rest
				  * is left out of the cache key (TopDown's 144 CPUs share one) */
	unsigned gen; /* moves when a rate is first needed: points compare it (sim_point) */
	uint8_t *reads; /* per rate: READS_CPU | READS_T (rate_reads) */
	int *readers; /* per rate: the open counters that read it (sim_rate_index) */
	bool *needed; /* per rate: a counter reads it, or a rate that one reads: points
		       * evaluate only these (a model of perf's whole catalogue names a hundred
		       * rates a CPU, of which a demo's panes read a few) */
};

/* [flows NAME]: rates several sections share (a socket's traffic, which its memory
 * controllers, links and caches each see a part of), copied into each section that says
 * flows = NAME, where it says it, and compiled there. */
struct sim_flows {
	char *name;
	int nrates;
	struct sim_rate *rates; /* event, formula, line: not compiled here */
};

struct sim_model {
	char *path;
	char *title;
	char *metrics; /* [model] metrics =: perf's catalogue metrics the demo counts too */
	double jitter;
	int nsections;
	struct sim_section *sections;
	struct ini_reader in; /* the file being read, its line and the errors so far */
	int cur; /* current section, -1 for [model] or [flows] */
	int nflows;
	struct sim_flows *flows;
	int cur_flows; /* the [flows] being read, or -1 */
	int refs; /* the sources sharing it: one parse per session */
};

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

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct sim_model *m = user;
	(void)section;
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
		} else {
			merr(m, m->in.line, 0, "unknown key '%s' in [model] (known: title, jitter, metrics)", name);
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
		merr(m, m->in.line, 0, "unknown key '%s' in [pmu %s] (known: rate.EVENT, flows, dim.NAME, unfiltered, scaled, unsupported, counters, fixed, running, jitter)", name,
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
	if (!strcmp(s, "model")) {
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
		merr(m, m->in.line, 0, "unknown section [%s] (want [model], [flows NAME] or [pmu GLOB])", s);
		m->cur = -1;
	}
}

static void mark_use(void *ctx, int slot)
{
	if (slot < SLOT_NFIXED)
		((struct sim_section *)ctx)->uses[slot] = true;
}

/* What a rate reads, through the rates above it it reads. */
struct rate_reads {
	const uint8_t *reads; /* per rate: READS_CPU | READS_T */
	uint8_t mask;
};
enum { READS_CPU = 1, READS_T = 2 };

static void mark_reads(void *ctx, int slot)
{
	struct rate_reads *c = ctx;
	if (slot == SLOT_CPU)
		c->mask |= READS_CPU;
	else if (slot == SLOT_T)
		c->mask |= READS_T;
	else if (slot >= SLOT_NFIXED)
		c->mask |= c->reads[slot - SLOT_NFIXED];
}

/* What each rate varies with (a rate reads only the slots and the rates above it, so one
 * pass in order settles it), kept for fill_lists(). */
static void rate_reads(struct sim_section *sec)
{
	sec->reads = xcalloc((size_t)sec->nrates + 1, 1);
	for (int list = 0; list < RATES_NLISTS; list++)
		sec->lists[list] = xcalloc((size_t)sec->nrates + 1, sizeof(int));
	for (int r = 0; r < sec->nrates; r++) {
		struct rate_reads c = { sec->reads, 0 };
		if (sec->rates[r].expr)
			expr_foreach_var(sec->rates[r].expr, mark_reads, &c);
		sec->reads[r] = c.mask;
	}
}

/* The section's needed rates in lists by what they vary with: those that read the CPU
 * are a CPU's own, the rest its socket's; those that do not read t are evaluated once.
 * In place: points hold the lists and their lengths by address. */
static void fill_lists(struct sim_section *sec)
{
	memset(sec->nlist, 0, sizeof(sec->nlist));
	for (int r = 0; r < sec->nrates; r++) {
		if (!sec->needed[r])
			continue;
		bool by_t = sec->reads[r] & READS_T, by_cpu = sec->reads[r] & READS_CPU;
		enum rate_list all = by_t ? RATES_ALL_T : RATES_ALL_ONCE;
		enum rate_list own = by_cpu ? (by_t ? RATES_CPU_T : RATES_CPU_ONCE) : (by_t ? RATES_SHARED_T : RATES_SHARED_ONCE);
		sec->lists[all][sec->nlist[all]++] = r;
		sec->lists[own][sec->nlist[own]++] = r;
	}
}

static void point_init_whole(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu);

static int by_event(const void *a, const void *b, void *section)
{
	const struct sim_section *sec = section;
	int x = *(const int *)a, y = *(const int *)b;
	int c = strcmp(sec->rates[x].event, sec->rates[y].event);
	return c ? c : x - y; /* the first of a name, as a scan finds it */
}

static void index_rates(struct sim_section *sec)
{
	sec->by_name = xmalloc(sizeof(int) * (size_t)(sec->nrates + 1));
	for (int r = 0; r < sec->nrates; r++)
		sec->by_name[r] = r;
	qsort_r(sec->by_name, (size_t)sec->nrates, sizeof(int), by_event, sec);
}

static void finish(struct sim_model *m)
{
	for (int i = 0; i < m->nsections; i++) {
		struct sim_section *sec = &m->sections[i];
		sec->needed = xcalloc((size_t)sec->nrates + 1, sizeof(bool));
		sec->readers = xcalloc((size_t)sec->nrates + 1, sizeof(int));
		for (int r = 0; r < sec->nrates; r++)
			if (sec->rates[r].expr)
				expr_foreach_var(sec->rates[r].expr, mark_use, sec);
		rate_reads(sec);
		index_rates(sec);
		point_init_whole(&sec->last, sec, 0, 0, 0); /* sim_rate() moves it: every rate */
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
		sim_point_release(&s->last);
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

const struct sim_section *sim_model_section(const struct sim_model *m, const char *pmu_name)
{
	for (int i = 0; i < m->nsections; i++)
		if (section_matches(m->sections[i].glob, pmu_name))
			return &m->sections[i];
	return NULL;
}

/* Plausible, stable rates for events the model does not name. */
double sim_default_rate(const char *event)
{
	uint32_t h = 2166136261u;
	for (const char *p = event; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	if (strstr(event, "cycles"))
		return 1e9 + (double)(h % 1000) * 1e6;
	return 1e6 * (double)(1 + h % 1000);
}

static void need_rate(struct sim_section *sec, int r);

static void need_read(void *ctx, int slot)
{
	if (slot >= SLOT_NFIXED)
		need_rate(ctx, slot - SLOT_NFIXED);
}

/* Rate r is read from now on, and what it reads: the section's points evaluate it at
 * their next read (once-evaluated ones again, to have it). */
static void need_rate(struct sim_section *sec, int r)
{
	if (sec->needed[r])
		return;
	sec->needed[r] = true;
	if (sec->rates[r].expr)
		expr_foreach_var(sec->rates[r].expr, need_read, sec);
	sec->lists_stale = true; /* opening a catalogue's counters asks for rates one by one */
	sec->gen++; /* every point of the section evaluates again */
}

int sim_rate_index(const struct sim_section *sec, const char *event)
{
	if (!sec || !event)
		return -1;
	int lo = 0, hi = sec->nrates; /* the first rate whose event is not below */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (strcmp(sec->rates[sec->by_name[mid]].event, event) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= sec->nrates || strcmp(sec->rates[sec->by_name[lo]].event, event))
		return -1;
	struct sim_section *shared = (struct sim_section *)sec; /* the model's: found is read */
	shared->readers[sec->by_name[lo]]++;
	need_rate(shared, sec->by_name[lo]);
	return sec->by_name[lo];
}

/* A counter that read rate closes; when none reads it, the needed rates are those the
 * others read (a hidden pane's counters leave the points' work with them). */
void sim_rate_release(const struct sim_section *csec, int rate)
{
	struct sim_section *sec = (struct sim_section *)csec;
	if (!sec || rate < 0 || rate >= sec->nrates || sec->readers[rate] <= 0 || --sec->readers[rate])
		return;
	memset(sec->needed, 0, sizeof(bool) * (size_t)sec->nrates);
	for (int r = 0; r < sec->nrates; r++)
		if (sec->readers[r])
			need_rate(sec, r);
	sec->lists_stale = true;
	sec->gen++;
}

/* A point evaluates the list of rates that vary with t each time, the next list once. */
static void point_lists(struct sim_point *pt, enum rate_list each)
{
	pt->each = pt->sec->lists[each];
	pt->neach = &pt->sec->nlist[each];
	pt->once = pt->sec->lists[each + 1];
	pt->nonce = &pt->sec->nlist[each + 1];
}

/* How many PMUs the section models on a socket (sim_section_note_units), 1 if not said. */
static double section_units(const struct sim_section *sec, int socket)
{
	return socket >= 0 && socket < sec->nunits && sec->units[socket] > 0 ? sec->units[socket] : 1;
}

void sim_section_note_units(const struct sim_section *csec, int socket, int n)
{
	struct sim_section *sec = (struct sim_section *)csec; /* the model's, shared: set once */
	if (!sec || socket < 0)
		return;
	if (socket >= sec->nunits) {
		sec->units = xrealloc(sec->units, sizeof(int) * (size_t)(socket + 1));
		memset(sec->units + sec->nunits, 0, sizeof(int) * (size_t)(socket + 1 - sec->nunits));
		sec->nunits = socket + 1;
	}
	sec->units[socket] = n;
}

bool sim_section_reads_units(const struct sim_section *sec, int socket)
{
	return sec && sec->uses[SLOT_UNITS] && !(socket >= 0 && socket < sec->nunits && sec->units[socket] > 0);
}

static double *new_slots(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu)
{
	pt->moves = sec->uses[SLOT_T];
	pt->gen = &sec->gen;
	pt->seen = sec->gen;
	double *slots = xcalloc((size_t)(SLOT_NFIXED + sec->nrates), sizeof(double));
	slots[SLOT_UNITS] = section_units(sec, socket);
	slots[SLOT_SOCKET] = socket;
	slots[SLOT_INDEX] = index;
	slots[SLOT_CPU] = cpu;
	pt->rates = slots + SLOT_NFIXED;
	return slots;
}

/* The section's point for the rates that do not read the CPU at (socket, index). */
static struct sim_point *base_point(struct sim_section *sec, int socket, int index)
{
	for (int b = 0; b < sec->nbases; b++) {
		const double *slots = sec->bases[b]->slots;
		if (slots[SLOT_SOCKET] == socket && slots[SLOT_INDEX] == index)
			return sec->bases[b];
	}
	struct sim_point *base = xcalloc(1, sizeof(*base));
	*base = (struct sim_point){ .sec = sec };
	base->slots = new_slots(base, sec, socket, index, -1);
	point_lists(base, RATES_SHARED_T);
	sec->bases = xrealloc(sec->bases, sizeof(*sec->bases) * (size_t)(sec->nbases + 1));
	sec->bases[sec->nbases++] = base;
	return base;
}

static void point_init_whole(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu)
{
	*pt = (struct sim_point){ .sec = sec };
	pt->slots = new_slots(pt, sec, socket, index, cpu);
	point_lists(pt, RATES_ALL_T);
}

void sim_point_init(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu)
{
	static const unsigned never;
	*pt = (struct sim_point){ .sec = sec, .gen = &never };
	if (!sec)
		return;
	pt->slots = new_slots(pt, sec, socket, index, cpu);
	bool cpu_own = false, shared = false; /* of all its rates: which are read comes later */
	for (int r = 0; r < sec->nrates; r++)
		*(sec->reads[r] & READS_CPU ? &cpu_own : &shared) = true;
	if (cpu_own && shared) { /* the model's CPUs share what does not vary with them */
		pt->shared = base_point((struct sim_section *)sec, socket, index);
		point_lists(pt, RATES_CPU_T);
	} else {
		point_lists(pt, RATES_ALL_T);
	}
}

struct sim_point *sim_point_at(const struct sim_section *sec, int socket, int index, int cpu)
{
	struct sim_section *s = (struct sim_section *)sec; /* its cache of places, as bases */
	for (int i = 0; i < s->nplaces; i++) {
		const double *slots = s->places[i]->slots;
		if (slots[SLOT_SOCKET] == socket && slots[SLOT_INDEX] == index && slots[SLOT_CPU] == cpu)
			return s->places[i];
	}
	struct sim_point *pt = xcalloc(1, sizeof(*pt));
	sim_point_init(pt, sec, socket, index, cpu);
	s->places = xrealloc(s->places, sizeof(*s->places) * (size_t)(s->nplaces + 1));
	s->places[s->nplaces++] = pt;
	return pt;
}

void sim_point_release(struct sim_point *pt)
{
	free(pt->slots);
	pt->slots = NULL;
}

bool sim_section_reads_cpu(const struct sim_section *sec)
{
	return sec && sec->uses[SLOT_CPU];
}

void sim_point_evaluate(struct sim_point *pt, double t)
{
	const struct sim_section *sec = pt->sec;
	double *slots = pt->slots;
	if (sec->lists_stale) {
		fill_lists((struct sim_section *)sec); /* the model's, as need_rate's */
		((struct sim_section *)sec)->lists_stale = false;
	}
	if (*pt->gen != pt->seen) { /* a rate newly needed: evaluate all again, once-only too */
		pt->valid = false;
		pt->seen = *pt->gen;
	}
	if (pt->valid && (!pt->moves || pt->t == t))
		return;
	pt->t = slots[SLOT_T] = t;
	if (pt->shared) {
		sim_point_evaluate(pt->shared, t);
		for (int list = RATES_SHARED_T; list <= RATES_SHARED_ONCE; list++)
			for (int i = 0; i < sec->nlist[list]; i++) {
				int r = SLOT_NFIXED + sec->lists[list][i];
				slots[r] = pt->shared->slots[r];
			}
	}
	for (int i = 0; !pt->valid && i < *pt->nonce; i++) {
		int r = pt->once[i];
		slots[SLOT_NFIXED + r] = expr_eval(sec->rates[r].expr, slots);
	}
	for (int i = 0; i < *pt->neach; i++) {
		int r = pt->each[i];
		slots[SLOT_NFIXED + r] = expr_eval(sec->rates[r].expr, slots);
	}
	pt->valid = true;
}

double sim_rate_of_reading(const struct sim_section *sec, int rate, const char *event, double t, int socket,
			   double reading)
{
	struct sim_point *pt = sec ? &((struct sim_section *)sec)->last : NULL; /* the section's last place */
	if (pt && sec->uses[SLOT_READING] && pt->slots[SLOT_READING] != reading) {
		pt->slots[SLOT_READING] = reading;
		pt->valid = false;
	}
	return sim_rate(sec, rate, event, t, socket, 0, 0);
}

double sim_rate(const struct sim_section *sec, int rate, const char *event, double t, int socket, int index, int cpu)
{
	if (!sec || rate < 0)
		return sim_default_rate(event);
	/* callers that keep no point of their own: the section's last place, kept while the
	 * place it is asked for does not change */
	struct sim_point *pt = &((struct sim_section *)sec)->last;
	double *slots = pt->slots;
	if ((sec->uses[SLOT_SOCKET] && slots[SLOT_SOCKET] != socket) ||
	    (sec->uses[SLOT_INDEX] && slots[SLOT_INDEX] != index) || (sec->uses[SLOT_CPU] && slots[SLOT_CPU] != cpu)) {
		slots[SLOT_SOCKET] = socket;
		slots[SLOT_INDEX] = index;
		slots[SLOT_CPU] = cpu;
		slots[SLOT_UNITS] = section_units(sec, socket);
		pt->valid = false;
	}
	return sim_point_rate(pt, rate, t);
}

/* Is cell (or, from the PCI map, the device at bit/bdf) selected by attr's fields? */
static bool cell_on(const struct sim_cell *cell, const struct pmu *p, const struct event_attr *attr, int bit,
		    uint64_t value)
{
	const struct format_field *ff = pmu_find_format(p, cell->field);
	if (!ff)
		return false;
	uint64_t v = format_extract(ff, attr->config);
	if (cell->by_value) {
		const struct format_field *mf = cell->mask_field ? pmu_find_format(p, cell->mask_field) : NULL;
		uint64_t mask = mf ? format_extract(mf, attr->config) : ~0ull;
		return (v & mask) == (value & mask);
	}
	return bit < 0 ? v != 0 : (v >> bit) & 1;
}

/* The devices behind the root complex at (socket, rc): their root port and BDF. */
static int rc_devices(const struct sim_place *at, int *rps, uint64_t *bdfs, int cap)
{
	int n = 0;
	for (int i = 0; at->pci && i < at->pci->n; i++) {
		const struct pci_port *pp = &at->pci->ports[i];
		if (pp->socket != at->socket || pp->rc != at->index)
			continue;
		for (int d = 0; d < pp->ndevices && n < cap; d++) {
			unsigned seg, bus, dev, fn;
			if (sscanf(pp->devices[d], "%x:%x:%x.%x", &seg, &bus, &dev, &fn) != 4)
				continue;
			rps[n] = pp->rp;
			bdfs[n++] = ((uint64_t)bus << 8) | ((uint64_t)dev << 3) | fn;
		}
	}
	return n;
}

/* Does the PCI map know this socket's root complexes? (Not root, no config space: the
 * model cannot say where traffic comes from, and counts all of it.) */
static bool pci_known(const struct sim_place *at)
{
	for (int i = 0; at && at->pci && i < at->pci->n; i++)
		if (at->pci->ports[i].socket == at->socket)
			return true;
	return false;
}

/* Adds a cell's weight to *all and, if attr selects it, to *sel; *any once the filter
 * is set at all (a mask naming only root ports without devices selects nothing, not
 * everything). */
static void weigh_cell(const struct sim_cell *cell, const struct pmu *p, const struct event_attr *attr,
		       const struct sim_place *at, double *all, double *sel, bool *any)
{
	const struct format_field *ff = cell->by_value ? NULL : pmu_find_format(p, cell->field);
	if (ff && format_extract(ff, attr->config))
		*any = true;
	if (!cell->from_pci) {
		*all += cell->weight;
		if (cell_on(cell, p, attr, cell->bit, cell->value)) {
			*sel += cell->weight;
			*any = true;
		}
		return;
	}
	if (!pci_known(at)) { /* unknown topology: every device, as the unfiltered count */
		*all += cell->weight;
		*sel += cell->weight;
		return;
	}
	int rps[64];
	uint64_t bdfs[64];
	int n = rc_devices(at, rps, bdfs, 64);
	for (int k = 0; k < n; k++) {
		double w = cell->weight / n;
		*all += w;
		if (cell_on(cell, p, attr, rps[k], bdfs[k])) {
			*sel += w;
			*any = true;
		}
	}
}

/* Is the dimension off because another mode's field (unless=) is set? */
static bool dim_off(const struct sim_dim *dim, const struct pmu *p, const struct event_attr *attr)
{
	bool off = false;
	char fld[64];
	for (const char *q = dim->unless; q && *q && !off;) {
		size_t n = strcspn(q, ",");
		if (n && n < sizeof(fld)) {
			memcpy(fld, q, n);
			fld[n] = '\0';
			const struct format_field *uf = pmu_find_format(p, fld);
			off = uf && format_extract(uf, attr->config) != 0;
		}
		q += n + (q[n] == ',');
	}
	return off;
}

double sim_selection(const struct sim_section *sec, const struct pmu *p, const char *event,
		     const struct event_attr *attr, const struct sim_place *at)
{
	if (!sec || !event)
		return 1.0;
	for (int i = 0; i < sec->nunfiltered; i++)
		if (!strcmp(sec->unfiltered[i], event))
			return 1.0;
	double f = 1.0;
	for (int d = 0; d < sec->ndims; d++) {
		const struct sim_dim *dim = &sec->dims[d];
		double all = 0, sel = 0;
		bool any = false;
		if (dim_off(dim, p, attr))
			continue;
		if (dim->when) { /* a value filter counts only while its enable field is set */
			const struct format_field *en = pmu_find_format(p, dim->when);
			if (!en || !format_extract(en, attr->config))
				continue;
			any = true; /* on: only the matching cells count, none is nothing */
		}
		for (int c = 0; c < dim->ncells; c++)
			weigh_cell(&dim->cells[c], p, attr, at, &all, &sel, &any);
		f *= any ? sel : all;
	}
	return f;
}

bool sim_event_unsupported(const struct sim_section *sec, const char *event)
{
	for (int i = 0; sec && event && i < sec->nunsupported; i++)
		if (!strcmp(sec->unsupported[i], event))
			return true;
	return false;
}

bool sim_rate_is_scaled(const struct sim_section *sec, const char *event)
{
	for (int i = 0; sec && event && i < sec->nscaled; i++)
		if (!strcmp(sec->scaled[i], event))
			return true;
	return false;
}

int sim_general_counters(const struct sim_section *sec, const char *event)
{
	if (!sec || !sec->counters)
		return 0;
	for (int i = 0; event && i < sec->nfixed; i++)
		if (!strcmp(sec->fixed[i], event))
			return 0;
	return sec->counters;
}

double sim_running_fraction(const struct sim_section *sec)
{
	return sec ? sec->running : 1.0;
}

/* Bits the alias's own terms set in each word: a field's bits, or a whole word for config=. */
static void alias_masks(const struct pmu *p, const char *terms, uint64_t mask[CONFIG_WORDS])
{
	memset(mask, 0, sizeof(uint64_t) * CONFIG_WORDS);
	char *copy = xstrdup(terms), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		if (eq)
			*eq = '\0';
		t = trim(t);
		const struct format_field *f = pmu_find_format(p, t);
		if (f && f->word >= 0 && f->word < CONFIG_WORDS)
			mask[f->word] |= f->bits;
		else if (!f && str_has_prefix(t, "config") && (!t[6] || (t[6] >= '0' && t[6] - '0' < CONFIG_WORDS && !t[7])))
			mask[t[6] ? t[6] - '0' : 0] = ~0ull;
	}
	free(copy);
}

/* x86's event select and unit mask name an event together: an alias that sets the event
 * and not the mask is mask 0 (instructions is INST_RETIRED.ANY, not .NOP). */
static void event_needs_umask(const struct pmu *p, uint64_t mask[CONFIG_WORDS])
{
	const struct format_field *ev = pmu_find_format(p, "event"), *um = pmu_find_format(p, "umask");
	if (ev && um && ev->word == um->word && ev->word >= 0 && ev->word < CONFIG_WORDS && (mask[ev->word] & ev->bits))
		mask[um->word] |= um->bits;
}

/* Each PMU's aliases, encoded once: the value and the bits each sets in each word. */
struct decoded_alias {
	const char *name;
	uint64_t value[CONFIG_WORDS], mask[CONFIG_WORDS];
	int bits;
};

/* A PMU's last answers: every CPU's instance opens the same few encodings, and a scan of
 * a core PMU's aliases costs two thousand instructions. */
#define DECODE_RECENT 16

struct decoded_answer {
	uint64_t config[CONFIG_WORDS];
	const char *name;
};

struct decoded_pmu {
	const struct pmu *p;
	int n;
	struct decoded_alias *a;
	struct decoded_answer recent[DECODE_RECENT];
	int nrecent, next;
};

struct sim_decoder {
	const struct machine *m;
	int npmus;
	struct decoded_pmu *pmus;
};

struct sim_decoder *sim_decoder_new(const struct machine *m)
{
	struct sim_decoder *d = xcalloc(1, sizeof(*d));
	d->m = m;
	return d;
}

void sim_decoder_free(struct sim_decoder *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->npmus; i++)
		free(d->pmus[i].a);
	free(d->pmus);
	free(d);
}

/* Whether p and q encode alike: the same format fields and the same aliases (a socket's
 * and a root complex's PMUs of one kind). */
static bool same_events(const struct pmu *p, const struct pmu *q)
{
	if (p->nformats != q->nformats || p->naliases != q->naliases)
		return false;
	for (int i = 0; i < p->nformats; i++)
		if (p->formats[i].word != q->formats[i].word || p->formats[i].bits != q->formats[i].bits ||
		    strcmp(p->formats[i].name, q->formats[i].name))
			return false;
	for (int i = 0; i < p->naliases; i++)
		if (strcmp(p->aliases[i].name, q->aliases[i].name) || strcmp(p->aliases[i].terms, q->aliases[i].terms))
			return false;
	return true;
}

/* A PMU decoded already that encodes as p does, or -1: its table is p's. */
static int twin_of(const struct sim_decoder *d, const struct pmu *p)
{
	for (int i = 0; i < d->npmus; i++)
		if (same_events(d->pmus[i].p, p))
			return i;
	return -1;
}

static struct decoded_pmu *decoded(struct sim_decoder *d, const struct pmu *p)
{
	for (int i = 0; i < d->npmus; i++)
		if (d->pmus[i].p == p)
			return &d->pmus[i];
	int twin = twin_of(d, p);
	d->pmus = xrealloc(d->pmus, sizeof(*d->pmus) * (size_t)(d->npmus + 1));
	struct decoded_pmu *dp = &d->pmus[d->npmus++];
	memset(dp, 0, sizeof(*dp));
	dp->p = p;
	if (twin >= 0) {
		dp->n = d->pmus[twin].n;
		dp->a = xmalloc(sizeof(*dp->a) * (size_t)(dp->n ? dp->n : 1));
		memcpy(dp->a, d->pmus[twin].a, sizeof(*dp->a) * (size_t)dp->n);
		return dp;
	}
	dp->a = xcalloc((size_t)(p->naliases ? p->naliases : 1), sizeof(*dp->a));
	for (int i = 0; i < p->naliases; i++) {
		const struct pmu_alias *a = &p->aliases[i];
		char *s = xasprintf("%s/%s/", p->name, a->terms);
		struct encoded_event enc;
		char *err;
		int r = encode_event(d->m, s, &enc, &err);
		free(s);
		if (r < 0) {
			free(err);
			continue;
		}
		struct decoded_alias *da = &dp->a[dp->n++];
		da->name = a->name;
		da->bits = 0;
		alias_masks(p, a->terms, da->mask);
		for (int w = 0; w < CONFIG_WORDS; w++) /* the most specific wins: what it names */
			da->bits += __builtin_popcountll(da->mask[w]);
		event_needs_umask(p, da->mask);
		for (int w = 0; w < CONFIG_WORDS; w++)
			da->value[w] = enc.attr.config[w] & da->mask[w];
	}
	return dp;
}

static const char *decode_scan(const struct decoded_pmu *dp, const struct event_attr *attr)
{
	const char *best = NULL;
	int bestbits = -1;
	for (int i = 0; i < dp->n; i++) {
		const struct decoded_alias *a = &dp->a[i];
		bool match = true;
		for (int w = 0; w < CONFIG_WORDS && match; w++)
			match = (attr->config[w] & a->mask[w]) == a->value[w];
		if (match && a->bits > bestbits) {
			best = a->name;
			bestbits = a->bits;
		}
	}
	return best;
}

const char *sim_decode_event(struct sim_decoder *d, const struct pmu *p, const struct event_attr *attr)
{
	struct decoded_pmu *dp = decoded(d, p);
	for (int i = 0; i < dp->nrecent; i++)
		if (!memcmp(dp->recent[i].config, attr->config, sizeof(attr->config)))
			return dp->recent[i].name;
	struct decoded_answer *r = &dp->recent[dp->next];
	dp->next = (dp->next + 1) % DECODE_RECENT;
	if (dp->nrecent < DECODE_RECENT)
		dp->nrecent++;
	memcpy(r->config, attr->config, sizeof(r->config));
	return r->name = decode_scan(dp, attr);
}
