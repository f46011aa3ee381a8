/* session.c - bind profiles to a machine: instances, their events and filters.
 *
 * Every event of an instance is encoded from a perf event string built here
 * ("pmu/alias,filter=value/"), through the same encoder as `pmutop encode`, so what
 * pmutop opens is exactly what perf would open for that string. */
#include "engine/session.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/expr.h"
#include "sources/source.h"
#include "base/util.h"

#define MAX_CAPS 8

const char *value_state_name(enum value_state st)
{
	static const char *const names[] = { "ok", "no value", "not counted", "unreadable", "unavailable" };
	return names[st];
}

/* Pattern: literal text, "{name}" captures one or more [A-Za-z0-9], "*" any text. */
static bool match_from(const char *pat, const char *s, char caps[][2][64], int *ncaps)
{
	if (!*pat)
		return !*s;
	if (*pat == '*') {
		for (const char *t = s;; t++) {
			if (match_from(pat + 1, t, caps, ncaps))
				return true;
			if (!*t)
				return false;
		}
	}
	if (*pat == '{') {
		const char *close = strchr(pat, '}');
		if (!close)
			return false;
		int slot = *ncaps;
		if (slot >= MAX_CAPS)
			return false;
		size_t nlen = (size_t)(close - pat - 1);
		if (nlen >= 64)
			return false;
		/* try the longest capture first, then shorter ones */
		size_t maxlen = 0;
		while (isalnum((unsigned char)s[maxlen]))
			maxlen++;
		for (size_t len = maxlen; len >= 1; len--) {
			if (len >= 64)
				continue;
			memcpy(caps[slot][0], pat + 1, nlen);
			caps[slot][0][nlen] = '\0';
			memcpy(caps[slot][1], s, len);
			caps[slot][1][len] = '\0';
			*ncaps = slot + 1;
			if (match_from(close + 1, s + len, caps, ncaps))
				return true;
			*ncaps = slot;
		}
		return false;
	}
	return *pat == *s && match_from(pat + 1, s + 1, caps, ncaps);
}

bool pmu_pattern_match(const char *pattern, const char *name, char caps[][2][64], int *ncaps)
{
	*ncaps = 0;
	return match_from(pattern, name, caps, ncaps);
}

bool profile_matches(const struct profile *p, const struct machine *m)
{
	for (int i = 0; i < p->nrequires; i++)
		for (int j = 0; j < m->npmus; j++)
			if (fnmatch(p->requires[i], m->pmus[j].name, 0) == 0)
				return true;
	return false;
}

/* Substitute {name} in tmpl from caps (and {cpu}, {socket} if given). */
static char *expand_template(const char *tmpl, char caps[][2][64], int ncaps, int cpu)
{
	size_t cap = strlen(tmpl) + 64, len = 0;
	char *out = xmalloc(cap);
	for (const char *p = tmpl; *p;) {
		const char *val = NULL;
		char num[16];
		size_t skip = 1;
		if (*p == '{') {
			const char *close = strchr(p, '}');
			if (close) {
				size_t n = (size_t)(close - p - 1);
				for (int i = 0; i < ncaps && !val; i++)
					if (strlen(caps[i][0]) == n && !strncmp(caps[i][0], p + 1, n))
						val = caps[i][1];
				if (!val && n == 3 && !strncmp(p + 1, "cpu", 3) && cpu >= 0) {
					snprintf(num, sizeof(num), "%d", cpu);
					val = num;
				}
				if (val)
					skip = n + 2;
			}
		}
		size_t add = val ? strlen(val) : 1;
		if (len + add + 1 > cap)
			out = xrealloc(out, cap = (len + add + 1) * 2);
		memcpy(out + len, val ? val : p, add);
		len += add;
		p += skip;
	}
	out[len] = '\0';
	return out;
}

static int capture_int(char caps[][2][64], int ncaps, const char *name)
{
	for (int i = 0; i < ncaps; i++) {
		uint64_t v;
		if (!strcmp(caps[i][0], name) && parse_u64(caps[i][1], &v) && v < 1u << 20)
			return (int)v;
	}
	return -1;
}

static struct instance *add_instance(struct session *s, int *cap)
{
	grow_array(&s->inst, cap, s->ninstances + 1, sizeof(struct instance));
	struct instance *inst = &s->inst[s->ninstances++];
	memset(inst, 0, sizeof(*inst));
	inst->socket = -1;
	inst->rc = -1;
	return inst;
}

static void alloc_instance_arrays(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	inst->present = xcalloc((size_t)g->nevents, sizeof(bool));
	inst->event_str = xcalloc((size_t)g->nevents, sizeof(char *));
	inst->scale = xcalloc((size_t)g->nevents, sizeof(double));
	inst->filter_set = xcalloc((size_t)g->nfilters + 1, sizeof(bool));
	inst->filter_value = xcalloc((size_t)g->nfilters + 1, sizeof(uint64_t));
	inst->vars = xcalloc((size_t)group_nvars(g), sizeof(double));
	inst->event_state = xcalloc((size_t)g->nevents, sizeof(enum value_state));
	inst->event_coverage = xcalloc((size_t)g->nevents, sizeof(double));
	for (int f = 0; f < g->nfilters; f++) {
		inst->filter_set[f] = g->filters[f].has_default;
		inst->filter_value[f] = g->filters[f].def;
	}
}

char *instance_filter_string(const struct instance *inst)
{
	const struct prof_group *g = inst->group;
	size_t cap = 64, len = 0;
	char *out = xcalloc(1, cap);
	for (int f = 0; f < g->nfilters; f++) {
		if (!inst->filter_set[f] || (inst->pmu && !pmu_find_format(inst->pmu, g->filters[f].term)))
			continue;
		char piece[160];
		int n = snprintf(piece, sizeof(piece), "%s%s=0x%llx", len ? "," : "", g->filters[f].term,
				 (unsigned long long)inst->filter_value[f]);
		if (g->filters[f].enable)
			n += snprintf(piece + n, sizeof(piece) - (size_t)n, ",%s=1", g->filters[f].enable);
		if (len + (size_t)n + 1 > cap)
			out = xrealloc(out, cap = (len + (size_t)n + 1) * 2);
		memcpy(out + len, piece, (size_t)n + 1);
		len += (size_t)n;
	}
	return out;
}

/* Encode every event of the instance with its current filters. On an encoding error
 * returns -1 with *err set, leaving the instance as it was. */
static int encode_instance(const struct machine *m, struct instance *inst, char **err)
{
	const struct prof_group *g = inst->group;
	const struct pmu *p = inst->pmu;
	char *filters = instance_filter_string(inst);
	struct encoded_event *enc = xcalloc((size_t)g->nevents, sizeof(*enc));
	char **strs = xcalloc((size_t)g->nevents, sizeof(char *));
	bool *present = xcalloc((size_t)g->nevents, sizeof(bool));
	int r = 0;
	*err = NULL;
	for (int e = 0; e < g->nevents && r == 0; e++) {
		const char *terms = g->events[e].terms;
		bool is_terms = strchr(terms, '=') != NULL || pmu_find_alias(p, terms) != NULL;
		struct event_attr legacy_attr;
		if (!is_terms && encode_legacy_event(terms, &legacy_attr)) {
			strs[e] = xstrdup(terms);
		} else if (!is_terms) {
			if (!g->events[e].optional)
				inst->unavailable = xasprintf("PMU %s has no event '%s'", p->name, terms);
			continue;
		} else {
			strs[e] = xasprintf("%s/%s%s%s/", p->name, terms, *filters ? "," : "", filters);
		}
		char *eerr;
		if (encode_event(m, strs[e], &enc[e], &eerr) < 0) {
			*err = eerr;
			r = -1;
			break;
		}
		present[e] = true;
	}
	if (r == 0) {
		int ncpu = inst->cpus.n, n = 0;
		for (int e = 0; e < g->nevents; e++)
			n += present[e] ? ncpu : 0;
		if (!inst->counters || n != inst->ncounters) {
			free(inst->counters);
			inst->counters = xcalloc((size_t)(n ? n : 1), sizeof(struct counter));
			inst->ncounters = n;
		}
		int k = 0;
		for (int e = 0; e < g->nevents; e++) {
			free(inst->event_str[e]);
			inst->event_str[e] = strs[e];
			strs[e] = NULL;
			inst->present[e] = present[e];
			inst->scale[e] = present[e] ? enc[e].scale : 1.0;
			if (!present[e])
				continue;
			for (int c = 0; c < ncpu; c++, k++) {
				struct counter *ct = &inst->counters[k];
				ct->attr = enc[e].attr;
				ct->event = e;
				ct->cpu = inst->cpus.cpu[c];
				ct->width = 64;
				ct->primed = false;
			}
		}
	}
	for (int e = 0; e < g->nevents; e++)
		free(strs[e]);
	free(strs);
	free(present);
	free(enc);
	free(filters);
	return r;
}

static void read_attr_values(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	for (int a = 0; a < g->nattrs; a++) {
		const char *v = inst->pmu ? pmu_attr(inst->pmu, g->attrs[a]) : NULL;
		char *end = NULL;
		double d = v ? strtod(v, &end) : NAN;
		if (v && (end == v || (*end && !isspace((unsigned char)*end)))) {
			diag_warn("%s/%s: '%s' is not a number; formulae using it have no value", inst->pmu->dir,
				  g->attrs[a], v);
			d = NAN;
		}
		inst->vars[group_attr_slot(g, a)] = d;
	}
}

static void bind_pmu_instance(struct session *s, int *cap, struct profile *prof, const struct prof_group *g,
			      const struct pmu *p, char caps[][2][64], int ncaps, int cpu)
{
	struct instance *inst = add_instance(s, cap);
	inst->profile = prof;
	inst->group = g;
	inst->pmu = p;
	if (cpu >= 0) {
		cpulist_add(&inst->cpus, cpu);
		inst->name = expand_template(g->instance ? g->instance : "cpu{cpu}", caps, ncaps, cpu);
		inst->socket = machine_socket_of(s->machine, cpu);
	} else {
		cpulist_copy(&inst->cpus, &p->cpus);
		inst->name = g->instance ? expand_template(g->instance, caps, ncaps, -1) : xstrdup(p->name);
		inst->socket = capture_int(caps, ncaps, "socket");
		inst->rc = capture_int(caps, ncaps, "rc");
		if (inst->socket < 0 && p->cpus.n)
			inst->socket = machine_socket_of(s->machine, p->cpus.cpu[0]);
	}
	alloc_instance_arrays(inst);
	read_attr_values(inst);
	char *err;
	if (encode_instance(s->machine, inst, &err) < 0) {
		diag_warn("%s: group %s, instance %s: %s", prof->path, g->name, inst->name, err);
		inst->unavailable = err;
	}
	if (!inst->cpus.n && !inst->unavailable)
		inst->unavailable = xasprintf("PMU %s has no CPU to count on (empty cpumask)", p->name);
}

static void add_aggregate(struct session *s, int *cap, struct profile *prof, const struct prof_group *g, int first,
			  int last, int socket, const char *name)
{
	int n = 0;
	for (int i = first; i < last; i++)
		n += socket < 0 || s->inst[i].socket == socket;
	if (!n)
		return;
	struct instance *inst = add_instance(s, cap);
	inst->profile = prof;
	inst->group = g;
	inst->name = xstrdup(name);
	inst->socket = socket;
	inst->members = xmalloc(sizeof(int) * (size_t)n);
	for (int i = first; i < last; i++) {
		if (socket < 0 || s->inst[i].socket == socket) {
			inst->members[inst->nmembers++] = i;
			for (int c = 0; c < s->inst[i].cpus.n; c++)
				cpulist_add(&inst->cpus, s->inst[i].cpus.cpu[c]);
		}
	}
	alloc_instance_arrays(inst);
	for (int e = 0; e < g->nevents; e++)
		inst->present[e] = s->inst[inst->members[0]].present[e];
	/* attributes come from the first member's PMU */
	for (int a = 0; a < g->nattrs; a++)
		inst->vars[group_attr_slot(g, a)] = s->inst[inst->members[0]].vars[group_attr_slot(g, a)];
}

/* Does p match one of the group's patterns (space-separated alternatives)? */
static bool group_matches(const struct prof_group *g, const struct pmu *p, char caps[][2][64], int *ncaps)
{
	char *copy = xstrdup(g->pmu_pattern), *save = NULL;
	bool ok = false;
	for (char *pat = strtok_r(copy, " \t", &save); pat && !ok; pat = strtok_r(NULL, " \t", &save))
		ok = pmu_pattern_match(pat, p->name, caps, ncaps);
	free(copy);
	for (int i = 0; ok && i < g->nneeds; i++)
		ok = pmu_find_alias(p, g->needs[i]) != NULL;
	return ok;
}

static void bind_group(struct session *s, int *cap, struct profile *prof, const struct prof_group *g)
{
	int first = s->ninstances;
	for (int i = 0; i < s->machine->npmus; i++) {
		const struct pmu *p = &s->machine->pmus[i];
		char caps[MAX_CAPS][2][64];
		int ncaps;
		if (!group_matches(g, p, caps, &ncaps))
			continue;
		if (g->split == SPLIT_CPU) {
			for (int c = 0; c < p->cpus.n; c++)
				bind_pmu_instance(s, cap, prof, g, p, caps, ncaps, p->cpus.cpu[c]);
		} else {
			bind_pmu_instance(s, cap, prof, g, p, caps, ncaps, -1);
		}
	}
	int last = s->ninstances;
	if (g->split != SPLIT_CPU || last == first)
		return;
	if (g->aggregate_socket) {
		int maxsock = -1;
		for (int i = first; i < last; i++)
			if (s->inst[i].socket > maxsock)
				maxsock = s->inst[i].socket;
		for (int sk = 0; sk <= maxsock; sk++) {
			char name[96];
			snprintf(name, sizeof(name), "socket%d%s", sk, g->aggregate_suffix ? g->aggregate_suffix : "");
			add_aggregate(s, cap, prof, g, first, last, sk, name);
		}
	}
	if (g->aggregate_all) {
		char name[96];
		snprintf(name, sizeof(name), "all%s", g->aggregate_suffix ? g->aggregate_suffix : "");
		add_aggregate(s, cap, prof, g, first, last, -1, name);
	}
}

/* A metric's value slot exists for an instance unless the formula needs an event the
 * instance's PMU does not have (e.g. C2C write latency with a CPU peer). */
static bool has_inputs(const struct instance *inst, const struct prof_formula *f)
{
	for (int i = 0; i < f->ninputs; i++)
		if (!inst->present[f->inputs[i]])
			return false;
	return true;
}

struct session *session_new(const struct machine *m, struct profile **profiles, int nprofiles)
{
	struct session *s = xcalloc(1, sizeof(*s));
	s->machine = m;
	s->nprofiles = nprofiles;
	s->profiles = profiles;
	int cap = 0;
	for (int pi = 0; pi < nprofiles; pi++) {
		for (int g = 0; g < profiles[pi]->ngroups; g++) {
			int before = s->ninstances;
			bind_group(s, &cap, profiles[pi], &profiles[pi]->groups[g]);
			if (s->ninstances == before && !profiles[pi]->groups[g].alternative) {
				s->missing = xrealloc(s->missing, sizeof(*s->missing) * (size_t)(s->nmissing + 1));
				s->missing[s->nmissing++] = &profiles[pi]->groups[g];
			}
		}
	}
	int vcap = 0;
	for (int pi = 0; pi < nprofiles; pi++) {
		const struct profile *p = profiles[pi];
		for (int mi = 0; mi < p->nmetrics; mi++) {
			for (int ii = 0; ii < s->ninstances; ii++) {
				const struct instance *inst = &s->inst[ii];
				if (inst->profile != p)
					continue;
				int fi = metric_form_index(&p->metrics[mi], (int)(inst->group - p->groups));
				if (fi < 0)
					continue;
				if (!inst->unavailable && !has_inputs(inst, &p->metrics[mi].forms[fi]))
					continue;
				grow_array(&s->values, &vcap, s->nvalues + 1, sizeof(struct metric_value));
				s->values[s->nvalues++] = (struct metric_value){
					.profile = pi, .metric = mi, .instance = ii, .form = fi, .value = NAN,
					.state = VS_NO_VALUE, .coverage = 1.0 };
			}
		}
	}
	return s;
}

static void free_instance(struct instance *inst)
{
	const struct prof_group *g = inst->group;
	free(inst->name);
	cpulist_free(&inst->cpus);
	free(inst->members);
	for (int e = 0; e < g->nevents; e++)
		free(inst->event_str[e]);
	free(inst->event_str);
	free(inst->present);
	free(inst->scale);
	free(inst->counters);
	free(inst->filter_set);
	free(inst->filter_value);
	free(inst->open_error);
	free(inst->unavailable);
	free(inst->vars);
	free(inst->event_state);
	free(inst->event_coverage);
}

void session_free(struct session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ninstances; i++) {
		if (s->source && s->inst[i].opened)
			s->source->ops->close(s->source, &s->inst[i]);
		free_instance(&s->inst[i]);
	}
	free(s->inst);
	free(s->values);
	free(s->missing);
	free(s);
}

static void open_instance(struct session *s, struct instance *inst)
{
	if (inst->unavailable || inst->nmembers || !inst->ncounters)
		return;
	free(inst->open_error);
	inst->open_error = NULL;
	inst->open_errno = 0;
	int r = s->source->ops->open(s->source, inst);
	inst->opened = r == 0;
	if (r < 0) {
		inst->open_errno = -r;
		if (!inst->open_error)
			inst->open_error = xasprintf("cannot open: %s", strerror(-r));
	}
}

void session_start(struct session *s, struct source *src, uint64_t now_ns)
{
	s->source = src;
	src->now_ns = now_ns;
	for (int i = 0; i < s->ninstances; i++)
		open_instance(s, &s->inst[i]);
	s->last_ns = now_ns;
	session_sample(s, now_ns); /* primes every counter; the frame shows no values yet */
	s->nsamples = 0;
}

static int find_filter(const struct prof_group *g, const char *term)
{
	for (int f = 0; f < g->nfilters; f++)
		if (!strcmp(g->filters[f].term, term))
			return f;
	return -1;
}

static int set_filter_one(struct session *s, struct instance *inst, int f, bool set, uint64_t v, char **err)
{
	const struct prof_group *g = inst->group;
	const struct prof_filter *pf = &g->filters[f];
	const struct format_field *ff = pmu_find_format(inst->pmu, pf->term);
	if (!ff) {
		*err = xasprintf("%s: PMU %s has no '%s' filter (its format/ lacks it)", inst->name, inst->pmu->name, pf->term);
		return -1;
	}
	if (set && v > format_max(ff)) {
		*err = xasprintf("%s: %s=0x%llx is too wide for %s (%s), maximum 0x%llx", inst->name, pf->term,
				 (unsigned long long)v, pf->term, ff->spec, (unsigned long long)format_max(ff));
		return -1;
	}
	for (int x = 0; set && v && x < g->nexclusive; x++) {
		bool mine = false;
		for (char **t = g->exclusive[x]; *t; t++)
			mine |= !strcmp(*t, pf->term);
		if (!mine)
			continue;
		for (char **t = g->exclusive[x]; *t; t++) {
			int o = find_filter(g, *t);
			if (o >= 0 && o != f && inst->filter_set[o] && inst->filter_value[o]) {
				const char *why = g->exclusive_why[x];
				*err = xasprintf("%s: %s and %s are mutually exclusive%s%s%s; clear %s first", inst->name, pf->term,
						 *t, why ? " (" : "", why ? why : "", why ? ")" : "", *t);
				return -1;
			}
		}
	}
	bool old_set = inst->filter_set[f];
	uint64_t old_v = inst->filter_value[f];
	inst->filter_set[f] = set;
	inst->filter_value[f] = v;
	if (encode_instance(s->machine, inst, err) < 0) {
		inst->filter_set[f] = old_set;
		inst->filter_value[f] = old_v;
		return -1;
	}
	if (s->source && inst->opened) {
		s->source->ops->close(s->source, inst);
		inst->opened = false;
		open_instance(s, inst);
		if (s->source && inst->opened)
			s->source->ops->read(s->source, inst, s->last_ns);
	}
	/* the next interval mixes old and new filters: prime again, show no value once */
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		ct->prev_value = ct->value;
		ct->prev_enabled = ct->enabled;
		ct->prev_running = ct->running;
		ct->primed = inst->opened && ct->read_ok;
	}
	inst->skip_next = true;
	inst->filter_changed_at = s->nsamples + 1;
	return 0;
}

int session_set_filter(struct session *s, struct instance *inst, const char *term, const char *value, char **err)
{
	const struct prof_group *g = inst->group;
	*err = NULL;
	int f = find_filter(g, term);
	if (f < 0) {
		size_t cap = 128, len = 0;
		char *list = xcalloc(1, cap);
		for (int i = 0; i < g->nfilters; i++) {
			size_t n = strlen(g->filters[i].term) + 2;
			if (len + n + 1 > cap)
				list = xrealloc(list, cap = (len + n + 1) * 2);
			len += (size_t)sprintf(list + len, "%s%s", i ? ", " : "", g->filters[i].term);
		}
		*err = xasprintf("group %s has no filter '%s' (filters: %s)", g->name, term, g->nfilters ? list : "none");
		free(list);
		return -1;
	}
	uint64_t v = 0;
	bool set = value && strcmp(value, "default") != 0;
	if (set && !filter_parse_value(&g->filters[f], value, &v, err)) {
		char *e = xasprintf("%s=%s: %s", term, value, *err);
		free(*err);
		*err = e;
		return -1;
	}
	if (inst->nmembers) {
		for (int i = 0; i < inst->nmembers; i++)
			if (set_filter_one(s, &s->inst[inst->members[i]], f, set, v, err) < 0)
				return -1;
		inst->filter_set[f] = set;
		inst->filter_value[f] = v;
		inst->skip_next = true;
		inst->filter_changed_at = s->nsamples + 1;
		return 0;
	}
	if (inst->unavailable) {
		*err = xasprintf("%s: %s", inst->name, inst->unavailable);
		return -1;
	}
	return set_filter_one(s, inst, f, set, v, err);
}

const struct prof_metric *session_metric(const struct session *s, const struct metric_value *v)
{
	return &s->profiles[v->profile]->metrics[v->metric];
}

int instance_open_order(const struct instance *inst, int *order)
{
	const struct prof_group *g = inst->group;
	int n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int e = 0; e < g->nevents; e++) {
			bool lead = g->leader && !strcmp(g->events[e].name, g->leader);
			if (inst->present[e] && lead == (pass == 0))
				order[n++] = e;
		}
	return n;
}
