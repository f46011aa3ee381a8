/* SPDX-License-Identifier: GPL-2.0-only */
/* exporter.c - Prometheus/OpenMetrics exposition of frames.
 *
 * At the first frame the exporter lays out every series once: a counter per event of
 * each instance (multiplex-scaled cumulative counts, summed over an instance's CPUs;
 * per-CPU groups as their per-socket sums unless --per-cpu), a gauge per metric value
 * in base units (GB/s -> bytes per second, ns -> seconds, % -> ratio), each instance's
 * counting state and coverage, its attributes (hw_clk_freq), pmutop_build_info, and the
 * scrape's own duration. Labels are the PMU name's captures, pmu and name (never
 * "instance": Prometheus sets that). Each frame adds to the counters and copies the
 * published numbers under a lock (a memcpy); the HTTP thread renders from its own copy.
 * libmicrohttpd bounds what clients can cost: connections (total and per address),
 * memory per connection (a 1 MB header is refused), an idle timeout; the guard
 * (httpguard.c) the whole time a request may take to arrive (slowloris). */
#include "outputs/exporter.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "base/util.h"
#include "config.h"
#include "profile/metric_tree.h"
#include "profile/profile.h"
#include "engine/frame.h"
#include "outputs/httpguard.h"
#include "outputs/mhd.h"
#include "engine/output.h"
#include "outputs/prom.h"
#include "outputs/prom_cgroups.h"

enum series_kind { S_COUNTER, S_VALUE, S_COUNTING, S_COVERAGE, S_CONST, S_FILTERS };

struct family {
	char name[192];   /* of the family (OpenMetrics: counters without _total) */
	char sample[200]; /* of its samples */
	const char *type;
	char help[256];
	const char *om_unit;
};

struct series {
	int family;
	char *labels; /* "pmu=\"...\",socket=\"0\"": changed only under the lock */
	enum series_kind kind;
	int idx;      /* value slot, instance */
	int nslots;
	int *slots;   /* counter slots summed */
	double factor;
	/* labels that follow the instance's filters: the event a filter chose (BlueField's
	 * watch counter) or the filters themselves (S_FILTERS); NULL for static labels */
	char *base_labels;
	int instance;
	const char *event_term;  /* the FILTER_EVENT filter naming the event, or NULL */
	const char *default_event;
	const char *seen_filters; /* the interned filter string the labels were made from */
};

struct exporter_limits {
	unsigned clients, per_address, seconds;
};

struct exporter {
	struct exporter_options opt;
	struct exporter_limits lim;
	struct MHD_Daemon *d;
	const struct mhd_api *mhd;
	int port;
	struct http_guard *guard; /* each request's deadline */
	bool any_address; /* listening on every address of the machine */
	char url[96];     /* "http://127.0.0.1:9741/metrics", the port as bound */
	/* Everything below is shared with the HTTP thread and changed under lock, but acc,
	 * which only the refresh side touches. */
	pthread_mutex_t lock;
	bool built;
	int nfam, capfam;
	struct family *fam;
	int nser, capser;
	struct series *ser;
	int *by_family;  /* series indices, family by family (in order within each) ... */
	int *fam_first;  /* ... family fi's from fam_first[fi] to fam_first[fi + 1] */
	double *acc;   /* the refresh side's numbers */
	double *pub;   /* what scrapes see */
	double last_scrape_s;
	struct prom_cgroups cgroups; /* serve --cgroups, -G: summed on the refresh side,
				      * under the lock */
};

static int family(struct exporter *x, const char *name, const char *type, const char *help, const char *om_unit)
{
	for (int i = 0; i < x->nfam; i++)
		if (!strcmp(x->fam[i].sample, name) || !strcmp(x->fam[i].name, name))
			return i;
	grow_array(&x->fam, &x->capfam, x->nfam + 1, sizeof(*x->fam));
	struct family *f = &x->fam[x->nfam];
	memset(f, 0, sizeof(*f));
	bool counter = !strcmp(type, "counter");
	str_copy(f->name, sizeof(f->name), name);
	if (counter && str_has_suffix(f->name, "_total"))
		f->name[strlen(f->name) - 6] = '\0';
	snprintf(f->sample, sizeof(f->sample), "%s%s", f->name, counter ? "_total" : "");
	f->type = type;
	f->om_unit = om_unit;
	for (size_t k = 0; help && help[k] && k + 1 < sizeof(f->help); k++) /* one line, no backslashes */
		f->help[k] = help[k] == '\n' || help[k] == '\\' ? ' ' : help[k];
	return x->nfam++;
}

/* The series of family fam with these labels, or NULL. */
static const struct series *same_series(const struct exporter *x, int fam, const char *labels)
{
	for (int i = 0; i < x->nser; i++)
		if (x->ser[i].family == fam && !strcmp(x->ser[i].base_labels ? x->ser[i].base_labels : x->ser[i].labels, labels))
			return &x->ser[i];
	return NULL;
}

static struct series *add_series(struct exporter *x, int fam, const char *labels, enum series_kind kind, int idx,
				 double factor)
{
	if (same_series(x, fam, labels)) /* one sample per name and label set */
		return NULL;
	grow_array(&x->ser, &x->capser, x->nser + 1, sizeof(*x->ser));
	x->ser[x->nser++] = (struct series){ .family = fam, .labels = xstrdup(labels), .kind = kind, .idx = idx,
					     .factor = factor, .instance = -1 };
	return &x->ser[x->nser - 1];
}

static void add_slot(struct series *se, int slot)
{
	se->slots = xrealloc(se->slots, sizeof(int) * (size_t)(se->nslots + 1));
	se->slots[se->nslots++] = slot;
}

static bool per_cpu_instance(const struct instance_info *ii)
{
	if (ii->nmembers)
		return false;
	for (int k = 0; k < ii->nlabels; k++)
		if (!strcmp(ii->labels[k].key, "cpu"))
			return true;
	return false;
}

static void instance_labels(const struct instance_info *ii, char *buf, size_t len)
{
	buf[0] = '\0';
	if (ii->pmu && !ii->sum_kind) /* a socket row counting its CPUs (bind_cpu_sums.c) is a sum's series */
		prom_label(buf, len, "pmu", ii->pmu);
	for (int k = 0; k < ii->nlabels; k++) /* "instance" is Prometheus's own */
		prom_label(buf, len, strcmp(ii->labels[k].key, "instance") ? ii->labels[k].key : "pmu_instance",
			   ii->labels[k].value);
	prom_label(buf, len, "name", ii->name);
}

/* The FILTER_EVENT filter that chooses what event e of g counts, or NULL. */
static const struct prof_filter *event_chooser(const struct prof_group *g, int e)
{
	for (int k = 0; k < g->nfilters; k++)
		if (g->filters[k].type == FILTER_EVENT && filter_applies(g, &g->filters[k], e))
			return &g->filters[k];
	return NULL;
}

/* The first counter slot of instance i (or of its members) counting event e, or -1. */
static int first_slot(const struct frame *f, int i, int e)
{
	const struct instance_info *ii = &f->iinfo[i];
	for (int m = 0; m < (ii->nmembers ? ii->nmembers : 1); m++) {
		const struct instance_info *src = ii->nmembers ? &f->iinfo[ii->members[m]] : ii;
		for (int c = 0; c < src->ncounters; c++)
			if (f->cinfo[src->first_counter + c].event == e)
				return src->first_counter + c;
	}
	return -1;
}

/* A series whose labels follow instance i's filters: its event (a chosen event's name
 * is a label, not part of the series' name, so a change starts a new series and a rate
 * never spans two events) or, for S_FILTERS, the filters themselves. */
static void follow_filters(struct series *se, int i, const char *term, const char *default_event)
{
	se->base_labels = se->labels;
	se->labels = NULL;
	se->instance = i;
	se->event_term = term;
	se->default_event = default_event;
}

/* The counter series of instance i: one per event, its counters summed. Gauges (sensor
 * and clock readings) are served as their metrics' gauges, in units, not here. */
static void counter_series(struct exporter *x, const struct frame *f, int i, const char *labels)
{
	const struct instance_info *ii = &f->iinfo[i];
	const struct prof_group *g = ii->group;
	for (int e = 0; e < g->nevents; e++) {
		int first = first_slot(f, i, e);
		if (first < 0 || f->cinfo[first].kind == COUNTER_GAUGE)
			continue;
		const struct counter_info *ci = &f->cinfo[first];
		const struct prof_filter *chooser = event_chooser(g, e);
		char name[192], help[256];
		prom_counter_name(name, sizeof(name), g->name, g->events[e].name, ci->unit, true);
		snprintf(help, sizeof(help), "%s: %s count, multiplex-scaled (%s)%s", g->title ? g->title : g->name,
			 g->events[e].name, chooser ? "the event label" : g->events[e].terms,
			 chooser ? "; the event is chosen by a filter" : "");
		struct series *se = add_series(x, family(x, name, "counter", help, NULL), labels, S_COUNTER, i, 1);
		if (!se)
			continue;
		if (chooser)
			follow_filters(se, i, chooser->term, ci->event_name);
		for (int m = 0; m < (ii->nmembers ? ii->nmembers : 1); m++) {
			const struct instance_info *src = ii->nmembers ? &f->iinfo[ii->members[m]] : ii;
			for (int c = 0; c < src->ncounters; c++)
				if (f->cinfo[src->first_counter + c].event == e)
					add_slot(se, src->first_counter + c);
		}
	}
}

static void instance_series(struct exporter *x, const struct frame *f, int i, int counting, int coverage, int filters)
{
	const struct instance_info *ii = &f->iinfo[i];
	char labels[1024], name[192], help[256];
	instance_labels(ii, labels, sizeof(labels));
	char with_group[1100];
	str_copy(with_group, sizeof(with_group), labels);
	prom_label(with_group, sizeof(with_group), "group", ii->group->name);
	add_series(x, counting, with_group, S_COUNTING, i, 1);
	add_series(x, coverage, with_group, S_COVERAGE, i, 1);
	if (ii->group->nfilters) {
		struct series *se = add_series(x, filters, with_group, S_FILTERS, i, 1);
		if (se)
			follow_filters(se, i, NULL, NULL);
	}
	counter_series(x, f, i, labels);
	for (int a = 0; ii->attrs && a < ii->group->nattrs; a++) { /* constants formulae use (hw_clk_freq) */
		prom_attr_name(name, sizeof(name), ii->group->name, ii->group->attr_ids[a]);
		snprintf(help, sizeof(help), "the PMU's %s attribute", ii->group->attrs[a]);
		add_series(x, family(x, name, "gauge", help, NULL), labels, S_CONST, i, ii->attrs[a]);
	}
}

/* The gauge of metric value k; labelled by the chosen event when its formula reads one,
 * and a node of perf's TopDown tree by its path (node="tma_backend_bound/tma_memory_bound"):
 * a dashboard takes a level, or what lies under a node, by the label. paths: per metric
 * of its profile, the path or NULL. */
static void value_series(struct exporter *x, const struct frame *f, int k, char **paths)
{
	const struct value_info *vi = &f->vinfo[k];
	const struct instance_info *ii = &f->iinfo[vi->instance];
	char labels[1024], name[192], help[256];
	struct prom_unit u;
	prom_unit_of(vi->m->unit, &u);
	prom_metric_name(name, sizeof(name), vi->m->name, NULL, u.suffix, false);
	snprintf(help, sizeof(help), "%s, over pmutop's last interval%s%s", vi->m->title ? vi->m->title : vi->m->name,
		 vi->m->unit && *u.suffix ? ", in base units from " : "", vi->m->unit && *u.suffix ? vi->m->unit : "");
	instance_labels(ii, labels, sizeof(labels));
	if (paths[vi->metric])
		prom_label(labels, sizeof(labels), "node", paths[vi->metric]);
	int fam = family(x, name, "gauge", help, u.om_unit);
	struct series *se = add_series(x, fam, labels, S_VALUE, k, u.factor);
	const struct series *other = se ? NULL : same_series(x, fam, labels);
	if (other && other->kind == S_VALUE && f->vinfo[other->idx].profile != vi->profile) {
		/* two profiles define one metric name (core.ipc): the later one's values told
		 * apart by its profile, not lost */
		prom_label(labels, sizeof(labels), "profile", f->profiles[vi->profile]->name);
		se = add_series(x, fam, labels, S_VALUE, k, u.factor);
	}
	const struct prof_formula *form = &vi->m->forms[vi->form];
	for (int n = 0; se && n < form->ninputs; n++) {
		const struct prof_filter *chooser = event_chooser(ii->group, form->inputs[n]);
		int slot = first_slot(f, vi->instance, form->inputs[n]);
		if (chooser && slot >= 0) {
			follow_filters(se, vi->instance, chooser->term, f->cinfo[slot].event_name);
			break;
		}
	}
}

/* The exposition writes a family's series together: a counting sort by family, once,
 * so a render walks each series once (scanning every series for each family grew as
 * their product). */
static void group_by_family(struct exporter *x)
{
	x->fam_first = xcalloc((size_t)x->nfam + 1, sizeof(int));
	x->by_family = xcalloc((size_t)(x->nser ? x->nser : 1), sizeof(int));
	for (int i = 0; i < x->nser; i++)
		x->fam_first[x->ser[i].family + 1]++;
	for (int fi = 0; fi < x->nfam; fi++)
		x->fam_first[fi + 1] += x->fam_first[fi];
	int *next = xmalloc(sizeof(int) * (size_t)(x->nfam ? x->nfam : 1));
	memcpy(next, x->fam_first, sizeof(int) * (size_t)x->nfam);
	for (int i = 0; i < x->nser; i++)
		x->by_family[next[x->ser[i].family]++] = i;
	free(next);
}

static void build(struct exporter *x, const struct frame *f)
{
	char labels[1024];
	snprintf(labels, sizeof(labels), "version=\"%s\"", PACKAGE_VERSION);
	add_series(x, family(x, "pmutop_build_info", "gauge", "pmutop's version (always 1)", NULL), labels, S_CONST, 0, 1);
	int counting = family(x, "pmutop_instance_counting", "gauge", "1 when the instance counts, 0 when it cannot (see error)", NULL);
	int coverage = family(x, "pmutop_instance_coverage_ratio", "gauge",
			      "share of the last interval its counters ran (multiplexing, turns)", "ratio");
	int filters = family(x, "pmutop_filter_info", "gauge",
			     "the filters an instance counts under (always 1; absent when none is set): a rate across a "
			     "change of filters mixes two selections", NULL);
	for (int i = 0; i < f->ninstances; i++)
		if (!per_cpu_instance(&f->iinfo[i]) || x->opt.per_cpu)
			instance_series(x, f, i, counting, coverage, filters);
	for (int pi = 0; pi < f->nprofiles; pi++) { /* profile by profile: the tree's paths once */
		const struct profile *p = f->profiles[pi];
		int *parents = metric_tree_parents(p);
		char **paths = xcalloc((size_t)(p->nmetrics + 1), sizeof(char *));
		for (int m = 0; m < p->nmetrics; m++)
			paths[m] = metric_tree_path(p, parents, m);
		for (int k = 0; k < f->nvalues; k++)
			if (f->vinfo[k].profile == pi && !f->vinfo[k].m->quiet &&
			    (!per_cpu_instance(&f->iinfo[f->vinfo[k].instance]) || x->opt.per_cpu))
				value_series(x, f, k, paths);
		for (int m = 0; m < p->nmetrics; m++)
			free(paths[m]);
		free(paths);
		free(parents);
	}
	add_series(x, family(x, "pmutop_scrape_duration_seconds", "gauge", "time this exposition took to render", "seconds"), "",
		   S_CONST, -1, 0);
	x->acc = xcalloc((size_t)(x->nser ? x->nser : 1), sizeof(double));
	x->pub = xcalloc((size_t)(x->nser ? x->nser : 1), sizeof(double));
	for (int i = 0; i < x->nser; i++)
		x->acc[i] = x->ser[i].kind == S_CONST ? x->ser[i].factor : x->ser[i].kind == S_VALUE ? NAN : 0;
	group_by_family(x);
}

/* The value of term in "a=1,term=X,b=2" (copied to buf), or NULL. */
static const char *filter_value(const char *filters, const char *term, char *buf, size_t len)
{
	size_t n = strlen(term);
	for (const char *p = filters; p && *p;) {
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p);
		if (l > n && !strncmp(p, term, n) && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)(l - n - 1), p + n + 1);
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* A series that follows its instance's filters, after they changed (or at the first
 * frame): new labels; a counter whose event changed starts again from 0, as a new
 * series in Prometheus. Called under the lock. */
static void relabel(struct exporter *x, int i, const char *filters)
{
	struct series *se = &x->ser[i];
	char labels[1400], event[128];
	str_copy(labels, sizeof(labels), se->base_labels);
	if (se->kind == S_FILTERS) {
		prom_label(labels, sizeof(labels), "filters", filters ? filters : "");
	} else {
		const char *ev = filter_value(filters, se->event_term, event, sizeof(event));
		prom_label(labels, sizeof(labels), "event", ev ? ev : se->default_event);
	}
	if (se->labels && strcmp(se->labels, labels) && se->kind == S_COUNTER)
		x->acc[i] = 0;
	free(se->labels);
	se->labels = xstrdup(labels);
	se->seen_filters = filters;
}

static void follow_all_filters(struct exporter *x, const struct frame *f)
{
	bool locked = false;
	for (int i = 0; i < x->nser; i++) {
		struct series *se = &x->ser[i];
		if (!se->base_labels || (se->labels && se->seen_filters == f->inst[se->instance].filters))
			continue;
		if (!locked)
			pthread_mutex_lock(&x->lock);
		locked = true;
		relabel(x, i, f->inst[se->instance].filters);
	}
	if (locked)
		pthread_mutex_unlock(&x->lock);
}

static int ex_frame(struct output *o, const struct frame *f)
{
	struct exporter *x = o->priv;
	if (!x->built) {
		pthread_mutex_lock(&x->lock);
		build(x, f);
		pthread_mutex_unlock(&x->lock);
	}
	follow_all_filters(x, f);
	if (x->guard)
		http_guard_reap(x->guard);
	for (int i = 0; i < x->nser; i++) {
		struct series *se = &x->ser[i];
		double sum = 0;
		switch (se->kind) {
		case S_COUNTER: /* cumulative: what each interval counted, scaled */
			for (int k = 0; k < se->nslots; k++)
				if (f->counters[se->slots[k]].state == VS_OK)
					sum += f->counters[se->slots[k]].delta;
			x->acc[i] += sum;
			break;
		case S_VALUE:
			x->acc[i] = f->values[se->idx].state == VS_OK ? f->values[se->idx].value * se->factor : NAN;
			break;
		case S_COUNTING:
			x->acc[i] = f->inst[se->idx].counting && !f->inst[se->idx].error;
			break;
		case S_COVERAGE:
			x->acc[i] = f->inst[se->idx].coverage;
			break;
		case S_FILTERS:
			x->acc[i] = f->inst[se->idx].filters && *f->inst[se->idx].filters ? 1 : NAN;
			break;
		case S_CONST:
			break;
		}
	}
	pthread_mutex_lock(&x->lock);
	memcpy(x->pub, x->acc, sizeof(double) * (size_t)x->nser);
	if (x->opt.cgroups)
		prom_cgroups_feed(&x->cgroups, f);
	x->built = true;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

struct text {
	char *p;
	size_t len, cap;
};

static void put(struct text *t, const char *s)
{
	size_t n = strlen(s);
	if (t->len + n + 1 > t->cap)
		t->p = xrealloc(t->p, t->cap = (t->len + n + 1) * 2 + 4096);
	memcpy(t->p + t->len, s, n + 1);
	t->len += n;
}

static void put_text(void *ctx, const char *s)
{
	put(ctx, s);
}

/* A sample line, "NAME{LABELS} VALUE\n", put piece by piece (printf was a third of a
 * render). */
static void put_sample(struct text *t, const char *name, const char *labels, const char *value)
{
	put(t, name);
	if (*labels) {
		put(t, "{");
		put(t, labels);
		put(t, "}");
	}
	put(t, " ");
	put(t, value);
	put(t, "\n");
}

/* Rendered under the lock: labels change when filters do, and the refresh side then
 * waits for one render (milliseconds) at most. */
char *exporter_render(struct output *o, bool openmetrics, size_t *len)
{
	struct exporter *x = o->priv;
	uint64_t t0 = clock_monotonic_ns();
	struct text t = { 0 };
	put(&t, "");
	char line[1536], num[40];
	pthread_mutex_lock(&x->lock);
	int n = x->built ? x->nser : 0;
	for (int fi = 0; fi < x->nfam && n; fi++) {
		const struct family *f = &x->fam[fi];
		const char *fname = openmetrics ? f->name : f->sample;
		bool header = false;
		for (int k = x->fam_first[fi]; k < x->fam_first[fi + 1]; k++) {
			int i = x->by_family[k];
			const struct series *se = &x->ser[i];
			double val = se->idx < 0 && se->kind == S_CONST ? x->last_scrape_s : x->pub[i];
			if ((se->kind == S_VALUE || se->kind == S_FILTERS) && isnan(val))
				continue; /* no value this interval: absent, not NaN */
			if (!header) {
				snprintf(line, sizeof(line), "# HELP %s %s\n# TYPE %s %s\n", fname, f->help, fname, f->type);
				put(&t, line);
				if (openmetrics && f->om_unit) {
					snprintf(line, sizeof(line), "# UNIT %s %s\n", fname, f->om_unit);
					put(&t, line);
				}
				header = true;
			}
			prom_value(num, sizeof(num), val);
			put_sample(&t, f->sample, se->labels, num);
		}
	}
	if (n)
		prom_cgroups_render(&x->cgroups, openmetrics, put_text, &t);
	if (openmetrics)
		put(&t, "# EOF\n");
	x->last_scrape_s = (double)(clock_monotonic_ns() - t0) / 1e9; /* shown by the next scrape */
	pthread_mutex_unlock(&x->lock);
	*len = t.len;
	return t.p;
}

bool exporter_has_frame(struct output *o)
{
	struct exporter *x = o->priv;
	pthread_mutex_lock(&x->lock);
	bool built = x->built;
	pthread_mutex_unlock(&x->lock);
	return built;
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><title>pmutop exporter</title></head><body>\n"
	"<h1>pmutop</h1>\n<p>PMU counters and metrics of this machine for Prometheus: <a href=\"/metrics\">/metrics</a>.</p>\n"
	"<p>Recording rules for the metrics: <code>pmutop rules</code>. See pmutop(1).</p>\n</body></html>\n";

static enum MHD_Result reply(const struct mhd_api *m, struct MHD_Connection *c, unsigned status, char *body,
			     size_t len, bool must_free, const char *type)
{
	struct MHD_Response *r =
		m->create_response_from_buffer(len, body, must_free ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (must_free)
			free(body);
		return MHD_NO;
	}
	m->add_response_header(r, "Content-Type", type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		m->add_response_header(r, "Allow", "GET, HEAD");
	enum MHD_Result ret = m->queue_response(c, status, r);
	m->destroy_response(r);
	return ret;
}

/* Whether an Accept header asks for OpenMetrics: a media range of it whose q is not 0
 * (RFC 9110: q=0 is "not acceptable"). */
static bool accepts_openmetrics(const char *accept)
{
	static const char type[] = "application/openmetrics-text";
	for (const char *p = accept; *p;) {
		size_t n = strcspn(p, ",");
		const char *s = p + strspn(p, " \t");
		if ((size_t)(s - p) + sizeof(type) - 1 <= n && !strncasecmp(s, type, sizeof(type) - 1)) {
			double q = 1;
			for (const char *k = s; k < p + n && (k = strchr(k, ';')) && k < p + n; k++) {
				const char *v = k + 1 + strspn(k + 1, " \t");
				if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
					q = strtod_c(v + 2, NULL);
			}
			if (q > 0)
				return true;
		}
		p += n + (p[n] == ',');
	}
	return false;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
			      const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
	struct output *o = cls;
	const struct mhd_api *m = ((struct exporter *)o->priv)->mhd;
	(void)version;
	(void)upload_data;
	if (!*con_cls) { /* the headers are in: answer on the next call, after any body */
		*con_cls = (void *)1;
		/* a body (or a transfer coding announcing one) is refused before a byte of it is
		 * read: a trickled gigabyte would hold the connection past every limit */
		static char no_body[] = "no request body here\n";
		const char *te = m->lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding");
		const char *cl = m->lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
		if (te || (cl && strspn(cl, "0") != strlen(cl)))
			return reply(m, c, te && strcasecmp(te, "chunked") ? MHD_HTTP_NOT_IMPLEMENTED : MHD_HTTP_CONTENT_TOO_LARGE,
				     no_body, strlen(no_body), false, "text/plain");
		http_guard_answered(((struct exporter *)o->priv)->guard, c);
		return MHD_YES;
	}
	if (*upload_size) { /* a body nobody asked for: read and dropped */
		*upload_size = 0;
		return MHD_YES;
	}
	static char not_allowed[] = "only GET\n", not_found[] = "not found: try /metrics\n";
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply(m, c, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed, strlen(not_allowed), false, "text/plain");
	if (!strcmp(url, "/"))
		return reply(m, c, MHD_HTTP_OK, (char *)index_page, strlen(index_page), false, "text/html; charset=utf-8");
	if (strcmp(url, "/metrics"))
		return reply(m, c, MHD_HTTP_NOT_FOUND, not_found, strlen(not_found), false, "text/plain");
	static char no_frame[] = "no frame counted yet: try again after the first interval\n";
	if (!exporter_has_frame(o)) /* an empty 200 would make every series stale at each restart */
		return reply(m, c, MHD_HTTP_SERVICE_UNAVAILABLE, no_frame, strlen(no_frame), false, "text/plain");
	const char *accept = m->lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	bool om = accept && accepts_openmetrics(accept);
	size_t len;
	char *body = exporter_render(o, om, &len);
	return reply(m, c, MHD_HTTP_OK, body, len, true,
		     om ? "application/openmetrics-text; version=1.0.0; charset=utf-8" : "text/plain; version=0.0.4; charset=utf-8");
}

static void ex_destroy(struct output *o)
{
	struct exporter *x = o->priv;
	if (x->d)
		x->mhd->stop_daemon(x->d);
	http_guard_free(x->guard);
	for (int i = 0; i < x->nser; i++) {
		free(x->ser[i].labels);
		free(x->ser[i].base_labels);
		free(x->ser[i].slots);
	}
	free(x->ser);
	free(x->by_family);
	free(x->fam_first);
	free(x->fam);
	free(x->acc);
	free(x->pub);
	prom_cgroups_free(&x->cgroups);
	pthread_mutex_destroy(&x->lock);
	free(x);
	free(o);
}

static const struct output_ops exporter_ops = {
	.name = "exporter",
	.frame = ex_frame,
	.destroy = ex_destroy,
};

int exporter_port(struct output *o)
{
	return ((struct exporter *)o->priv)->port;
}

/* "ADDR:PORT", "[V6]:PORT", ":PORT" (every address) */
static bool parse_listen(const char *text, struct sockaddr_storage *ss, socklen_t *slen, char **err)
{
	char host[128] = "";
	const char *colon = strrchr(text, ':');
	char *end;
	long port = colon ? strtol(colon + 1, &end, 10) : -1;
	if (!colon || !colon[1] || *end || port < 0 || port > 65535) {
		*err = xasprintf("--listen %s: want ADDRESS:PORT (127.0.0.1:9741, [::1]:9741, :9741 for every address)", text);
		return false;
	}
	size_t hl = (size_t)(colon - text);
	if (hl >= sizeof(host))
		hl = sizeof(host) - 1;
	memcpy(host, text, hl);
	host[hl] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (host[0] == '[' && host[hl - 1] == ']') {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
		host[hl - 1] = '\0';
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) != 1) {
			*err = xasprintf("--listen %s: '%s' is not an IPv6 address", text, host + 1);
			return false;
		}
		*slen = sizeof(*a6);
		return true;
	}
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	a4->sin_family = AF_INET;
	a4->sin_port = htons((uint16_t)port);
	a4->sin_addr.s_addr = htonl(INADDR_ANY);
	if (!strcmp(host, "localhost")) /* the loopback, not a name lookup */
		a4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (host[0] && inet_pton(AF_INET, host, &a4->sin_addr) != 1) {
		*err = xasprintf("--listen %s: '%s' is not an IPv4 address, [IPv6] or localhost", text, host);
		return false;
	}
	*slen = sizeof(*a4);
	return true;
}

/* "CLIENTS,PER_ADDRESS,SECONDS" */
static bool parse_limits(const char *text, struct exporter_limits *l, char **err)
{
	unsigned a, b, c;
	char extra;
	if (sscanf(text, "%u,%u,%u%c", &a, &b, &c, &extra) != 3 || a < 1 || a > 65536 || b < 1 || b > a || c < 1 ||
	    c > 3600) {
		*err = xasprintf("--http-limits %s: want CLIENTS,PER_ADDRESS,SECONDS (1-65536 clients, at most as many "
				 "from one address, 1-3600 s to send a request; default %s)", text, EXPORTER_DEFAULT_LIMITS);
		return false;
	}
	*l = (struct exporter_limits){ a, b, c };
	return true;
}

int exporter_check_options(const char *listen, const char *limits, char **err)
{
	struct sockaddr_storage ss;
	socklen_t slen;
	struct exporter_limits lim;
	*err = NULL;
	if ((listen && !parse_listen(listen, &ss, &slen, err)) || (limits && !parse_limits(limits, &lim, err)))
		return -1;
	return 0;
}

struct output *exporter_output_new(const struct exporter_options *opt, char **err)
{
	*err = NULL;
	struct sockaddr_storage ss;
	socklen_t slen;
	const char *listen = opt->listen ? opt->listen : EXPORTER_DEFAULT_LISTEN;
	struct exporter_limits lim;
	if (!parse_listen(listen, &ss, &slen, err) || !parse_limits(opt->limits ? opt->limits : EXPORTER_DEFAULT_LIMITS, &lim, err))
		return NULL;
	const struct mhd_api *mhd = mhd_load(err);
	if (!mhd)
		return NULL;
	struct exporter *x = xcalloc(1, sizeof(*x));
	x->mhd = mhd;
	x->opt = *opt;
	x->lim = lim;
	pthread_mutex_init(&x->lock, NULL);
	struct output *o = xcalloc(1, sizeof(*o));
	o->ops = &exporter_ops;
	o->priv = x;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	x->guard = http_guard_new(mhd, (uint64_t)x->lim.seconds * 1000000000ull, x->lim.clients, x->lim.per_address);
	errno = 0;
	/* the guard keeps both limits (httpguard.h: the oldest idle gives way to a newcomer);
	 * the library's only bounds what it must let the guard see */
	x->d = mhd->start_daemon(flags, 0, NULL, NULL, handle, o, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
				MHD_OPTION_CONNECTION_LIMIT, x->lim.clients + GUARD_HEADROOM,
				MHD_OPTION_NOTIFY_COMPLETED, http_guard_completed, x->guard, MHD_OPTION_CONNECTION_TIMEOUT, x->lim.seconds,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)128,
				MHD_OPTION_NOTIFY_CONNECTION, http_guard_notify, x->guard, MHD_OPTION_URI_LOG_CALLBACK,
				http_guard_uri, x->guard, MHD_OPTION_END);
	if (!x->d) {
		*err = xasprintf("--listen %s: cannot listen there (%s)", listen, errno ? strerror(errno) : "address in use?");
		ex_destroy(o);
		return NULL;
	}
	const union MHD_DaemonInfo *info = mhd->get_daemon_info(x->d, MHD_DAEMON_INFO_BIND_PORT);
	x->port = info ? info->port : 0;
	x->any_address = ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_addr.s_addr == htonl(INADDR_ANY)
						  : IN6_IS_ADDR_UNSPECIFIED(&((struct sockaddr_in6 *)&ss)->sin6_addr);
	char host[INET6_ADDRSTRLEN] = "";
	if (ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, host, sizeof(host));
	else
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, host, sizeof(host));
	snprintf(x->url, sizeof(x->url), ss.ss_family == AF_INET6 ? "http://[%s]:%d/metrics" : "http://%s:%d/metrics", host,
		 x->port);
	(void)slen;
	return o;
}

const char *exporter_url(struct output *o, bool *every_address)
{
	struct exporter *x = o->priv;
	*every_address = x->any_address;
	return x->url;
}
