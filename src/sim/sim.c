/* SPDX-License-Identifier: GPL-2.0-only */
/* source_sim.c - the simulated machine as a counter source.
 *
 * Each counter's attr is decoded back through its PMU's format files (event alias and
 * filter fields), exactly the bits perf_event_open would have been given, and counts
 * integrate the model's rate over the clock the sampler passes in. Deterministic: the
 * only randomness is the model's jitter, drawn from --seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind/counter_share.h"
#include "engine/session.h"
#include "sim/simmodel.h"
#include "sources/sources.h"
#include "sim/sim_counters.h"
#include "sim/sim_perf_names.h"
#include "base/util.h"

/* The counters open on one CPU of one PMU that take a general counter: past the CPU's
 * general counters, each counts for capacity / open of the time (the kernel rotates). */
struct sim_load {
	const struct pmu *pmu;
	int cpu, open;
	struct sim_load *next;
};

struct sim_source {
	struct sim_load *loads;
	struct sim_model *model;
	struct sim_decoder *decoder;
	struct sim_perf_names *perf_names; /* read where a section names events as perf does */
	uint64_t seed;
	uint64_t start_ns;
	bool started;
	const struct pmu *last_pmu; /* the last PMU opened and its model section: each CPU's */
	const struct sim_section *last_sec; /* instance of a core group asks for the same one */
	struct sim_hw_memo hw; /* ... and its row of the hardware's counters */
};

/* Per counter only what differs between an instance's counters (a demo has a thousand:
 * this is most of the source's memory); the section's constants live in the instance. */
struct sim_counter {
	struct sim_point *at; /* where its rate is evaluated: shared by its CPU's counters */
	double selection;
	double acc;        /* exact count so far */
	uint64_t stream;   /* its noise stream's start: the seed and the counter's identity */
	double fixed_rate; /* the rate of an event the model gives none ... */
	int rate;          /* ... or the model's rate for the event (-1: fixed_rate) */
	bool counted;      /* opened under the instance's filters */
	uint64_t last_ns;
	uint64_t reads;
	struct sim_load *load; /* its CPU's, where the model limits general counters, or NULL */
	int capacity;
	double running_ns; /* with a load: the time it counted (its share of each interval) */
};

/* An instance's counters and the places their rates are evaluated at: one per CPU when
 * the model's rates read the CPU, else one for all. */
struct sim_instance {
	struct sim_counter *counters;
	int ncounters;
	const struct sim_section *sec; /* whose rates the counters read (released at close) */
	struct sim_point **points; /* the section's (sim_point_at), or its own without one */
	struct sim_point *own;
	int npoints;
	double jitter, running; /* the section's, kept at open */
	uint64_t open_ns;
};

/* splitmix64: tiny, good enough, and the same on every machine */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static const char *legacy_name(const struct event_attr *a)
{
	uint32_t type;
	const char *name;
	for (int i = 0; (name = encode_legacy_name(i, &type)); i++) {
		struct event_attr l;
		if (encode_legacy_event(name, &l) && l.type == a->type && l.config[0] == a->config[0])
			return name;
	}
	return "unknown";
}

/* What a modified event (":k", ":u") counts of its event: the simulated machine spends 8 %
 * of its time in the kernel, the rest in user space, none in a hypervisor (so :u + :k is
 * the whole, a law a demo keeps) */
static double mode_share(uint8_t exclude)
{
	if (!(exclude & (EXCLUDE_USER | EXCLUDE_KERNEL | EXCLUDE_HV)))
		return 1.0;
	return (exclude & EXCLUDE_USER ? 0.0 : 0.92) + (exclude & EXCLUDE_KERNEL ? 0.0 : 0.08);
}

/* How many places section sec models on a socket: each PMU whose cpumask has one of the
 * socket's CPUs (Intel's one PMU for every socket too), once per such CPU where the
 * cpumask names several (AMD's one L3 PMU, a CPU of each CCX: a socket's traffic is
 * shared by its CCXs); a PMU without a cpumask (a core's) once. */
static int units_on_socket(const struct sim_model *model, const struct machine *m, const struct sim_section *sec,
			   int socket)
{
	int n = 0;
	for (int i = 0; i < m->npmus; i++) {
		const struct pmu *p = &m->pmus[i];
		if (sim_model_section_on(model, m, p) != sec)
			continue;
		int here = 0;
		for (int c = 0; c < p->cpus.n && (p->has_cpumask || !here); c++)
			here += machine_socket_of(m, p->cpus.cpu[c]) == socket;
		n += here;
	}
	return n;
}

static struct sim_instance *sim_instance_new(const struct sim_source *ss, const struct machine *m,
					     const struct instance *inst, const struct sim_section *sec)
{
	if (sim_section_reads_units(sec, inst->socket)) /* once per section and socket */
		sim_section_note_units(sec, inst->socket, units_on_socket(ss->model, m, sec, inst->socket));
	struct sim_instance *si = xcalloc(1, sizeof(*si));
	si->counters = xcalloc((size_t)(inst->ncounters ? inst->ncounters : 1), sizeof(*si->counters));
	si->ncounters = inst->ncounters;
	si->sec = sec;
	for (int k = 0; k < inst->ncounters; k++)
		si->counters[k].rate = -1;
	bool per_cpu = sim_section_reads_cpu(sec) && inst->cpus.n > 1;
	si->npoints = per_cpu ? inst->cpus.n : 1;
	si->points = xcalloc((size_t)si->npoints, sizeof(*si->points));
	int index = sim_place_index(inst->pmu->name);
	if (!sec) { /* no section to keep points: the default rates, a point of its own */
		si->own = xcalloc(1, sizeof(*si->own));
		sim_point_init(si->own, NULL, inst->socket, index, 0);
	}
	for (int i = 0; i < si->npoints; i++)
		si->points[i] = sec ? sim_point_at(sec, inst->socket, index, inst->cpus.n ? inst->cpus.cpu[per_cpu ? i : 0] : 0)
				    : si->own;
	return si;
}

static void sim_instance_free(struct sim_instance *si)
{
	if (!si)
		return;
	for (int k = 0; k < si->ncounters; k++) { /* what no open counter reads is not evaluated */
		if (si->counters[k].rate >= 0)
			sim_rate_release(si->sec, si->counters[k].rate);
		if (si->counters[k].load)
			si->counters[k].load->open--;
	}
	if (si->own)
		sim_point_release(si->own);
	free(si->own);
	free(si->points);
	free(si->counters);
	free(si);
}

/* The load of a PMU's CPU, made when first asked (kept for the source's life). */
static struct sim_load *load_of(struct sim_source *ss, const struct pmu *pmu, int cpu)
{
	for (struct sim_load *l = ss->loads; l; l = l->next)
		if (l->pmu == pmu && l->cpu == cpu)
			return l;
	struct sim_load *l = xcalloc(1, sizeof(*l));
	*l = (struct sim_load){ pmu, cpu, 0, ss->loads };
	ss->loads = l;
	return l;
}

/* The share of an interval a counter counted: all of it, or its turn among its CPU's. */
static double turn(const struct sim_counter *c)
{
	return c->load && c->load->open > c->capacity ? (double)c->capacity / c->load->open : 1.0;
}

/* The point of a counter's CPU (the instance's CPUs are ascending). */
static struct sim_point *point_of(struct sim_instance *si, const struct instance *inst, int cpu)
{
	int lo = 0, hi = si->npoints - 1;
	while (si->npoints > 1 && lo < hi) {
		int mid = (lo + hi) / 2;
		if (inst->cpus.cpu[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return si->points[lo];
}

/* "r10ad", as perf writes a raw event, without snprintf (a counter each at start-up) */
static void raw_name(char out[24], uint64_t config)
{
	char digits[16];
	int n = 0;
	do {
		digits[n++] = "0123456789abcdef"[config & 15];
		config >>= 4;
	} while (config);
	out[0] = 'r';
	for (int i = 0; i < n; i++)
		out[1 + i] = digits[n - 1 - i];
	out[1 + n] = '\0';
}

/* The model's rate for an encoding as perf writes it raw, or -1: with config1 (an offcore
 * response, a frontend filter) "r12a+10003c0001" first, then its event's "r12a". raw is
 * left the plain name. */
static int raw_rate_of(const struct sim_section *sec, const struct event_attr *attr, char raw[24])
{
	raw_name(raw, attr->config[0]);
	if (attr->config[1]) {
		char c1[24], both[48];
		raw_name(c1, attr->config[1]);
		snprintf(both, sizeof(both), "%s+%s", raw, c1 + 1);
		int r = sim_rate_index(sec, both);
		if (r >= 0)
			return r;
	}
	return sim_rate_index(sec, raw);
}

/* The general counters one CPU of the PMU has: the model section's where it says
 * (counters =), else the hardware's (sim_counters.c); 0 for no limit. */
static int pmu_counters(struct sim_source *ss, const struct machine *m, const struct pmu *pmu,
			const struct sim_section *sec)
{
	int n = sim_general_counters(sec, NULL);
	return n > 0 ? n : sim_hw_counters_of(&ss->hw, m, pmu);
}

/* The same for one event: 0 where it takes none (a fixed counter) */
static int event_counters(struct sim_source *ss, const struct machine *m, const struct pmu *pmu,
			  const struct sim_section *sec, const struct event_attr *attr, const char *event, bool legacy)
{
	if (sim_general_counters(sec, NULL) > 0)
		return sim_general_counters(sec, event);
	return sim_hw_general_counters(&ss->hw, m, pmu, attr, legacy ? event : NULL);
}

/* The kernel's check of a perf group (x86's and arm64's validate_group): its events
 * that need a general counter must fit the CPU's. The first group that does not, or -1. */
static int refused_group(struct sim_source *ss, const struct machine *m, const struct instance *inst,
			 const struct sim_section *sec, const struct sim_counter *sc)
{
	const struct prof_group *g = inst->group;
	int capacity = pmu_counters(ss, m, inst->pmu, sec);
	if ((!g->perf_group && !g->sets) || !capacity || g->nevents <= capacity || !inst->cpus.n)
		return -1; /* no group, or none that could be too large */
	int general[g->nevents + 1];
	memset(general, 0, sizeof(general));
	for (int k = 0; k < inst->ncounters; k++) { /* on its first CPU: the others alike */
		int set = group_event_set(g, inst->counters[k].event);
		if (sc[k].counted && sc[k].capacity > 0 && inst->counters[k].cpu == inst->cpus.cpu[0] && set >= 0 &&
		    !(inst->refused && inst->refused[set]))
			general[set]++;
	}
	for (int set = 0; set < g->nevents; set++)
		if (general[set] > capacity)
			return set;
	return -1;
}

static int sim_open(struct source *src, struct instance *inst)
{
	struct sim_source *ss = src->priv;
	if (!ss->started) {
		ss->start_ns = sim_model_origin(ss->model, src->now_ns);
		ss->started = true;
	}
	if (ss->last_pmu != inst->pmu) {
		ss->last_sec = sim_model_section_on(ss->model, src->machine, inst->pmu); /* one PMU */
		ss->last_pmu = inst->pmu;
	}
	const struct sim_section *sec = ss->last_sec;
	struct sim_instance *si = sim_instance_new(ss, src->machine, inst, sec);
	si->jitter = sim_model_jitter(ss->model, sec);
	si->running = sim_running_fraction(sec);
	si->open_ns = src->now_ns;
	struct sim_counter *sc = si->counters;
	int index = sim_place_index(inst->pmu->name);
	for (int k = 0; k < inst->ncounters; k++) {
		const struct counter *ct = &inst->counters[k];
		if (!instance_counts_event(inst, ct->event) || instance_shares_event(inst, ct->event))
			continue; /* not opened under the current filters, or another group's counter read */
		bool legacy = inst->pmu->type < 0 || ct->attr.type != (uint32_t)inst->pmu->type;
		/* a model may name an encoding as perf writes raw events (perf's JSON events no
		 * alias names): that exact encoding wins over an alias it merely contains (the
		 * any-thread CPU_CLK_UNHALTED.THREAD_ANY is not the alias cpu-cycles) */
		char raw[24] = "";
		const char *event; /* decoded alias (points into the machine), a legacy name, or raw */
		int raw_rate = legacy ? -1 : raw_rate_of(sec, &ct->attr, raw);
		/* ... then as perf's JSON names it, where the section names events so */
		const char *perf = !legacy && raw_rate < 0 && sim_section_perf_names(sec)
					   ? sim_perf_name(ss->perf_names, inst->pmu, &ct->attr, sec) : NULL;
		if (perf) {
			raw_rate = sim_rate_index(sec, perf);
			event = perf;
		} else if (raw_rate >= 0) {
			event = raw;
		} else {
			event = legacy ? legacy_name(&ct->attr) : sim_decode_event(ss->decoder, inst->pmu, &ct->attr);
		}
		if (!event && ct->attr.type <= 1) /* the 'software' PMU: fixed event numbers */
			event = legacy_name(&ct->attr);
		/* a PMU counts any encoding its format takes, as the hardware does: one no alias
		 * or model rate names (perf's JSON events, core or uncore) counts at a default
		 * rate of its own */
		if (!event && !legacy)
			event = raw;
		if (!event) {
			sim_instance_free(si);
			inst->open_error = xasprintf("%s: the simulated driver knows no event with config 0x%llx (ENOENT)",
						     inst->pmu->name, (unsigned long long)ct->attr.config[0]);
			return -2;
		}
		if (sim_event_unsupported(sec, event)) {
			sim_instance_free(si);
			inst->open_error = xasprintf("%s: %s is not supported by this PMU (ENOENT)", inst->pmu->name, event);
			return -2;
		}
		struct sim_place at = { src->machine->pci, inst->socket, index };
		sc[k].counted = true;
		sc[k].selection = legacy ? 1.0 : sim_selection(sec, inst->pmu, event, &ct->attr, &at);
		sc[k].selection *= mode_share(ct->attr.exclude);
		if (sim_rate_is_scaled(sec, event) && inst->scale[ct->event] > 0)
			sc[k].selection /= inst->scale[ct->event]; /* the model speaks in scaled units */
		sc[k].last_ns = src->now_ns;
		sc[k].stream = mix(ss->seed ^ mix(str_hash(inst->event_str[ct->event]) ^ mix((uint64_t)ct->cpu)));
		sc[k].rate = raw_rate >= 0 ? raw_rate : sim_rate_index(sec, event); /* raw's or perf's */
		/* an offcore response, a frontend or latency filter: a rate of its own, not its event's */
		double own = event == raw && ct->attr.config[1] ? 1.0 + (double)(mix(ct->attr.config[1]) % 89) / 100.0 : 1.0;
		if (sc[k].rate < 0 && (sc[k].rate = sim_rate_index(sec, "*")) >= 0)
			/* the section's rate for what it does not name (rate.* = cycles * 1e-4):
			 * each such event a stable share of it, half to one and a half times */
			sc[k].selection *= (0.5 + (double)(str_hash(event) % 1000) / 1000.0) * own;
		sc[k].at = point_of(si, inst, ct->cpu);
		if ((sc[k].capacity = event_counters(ss, src->machine, inst->pmu, sec, &ct->attr, event, legacy)) > 0) {
			sc[k].load = load_of(ss, inst->pmu, ct->cpu);
			sc[k].load->open++;
		}
		if (sc[k].rate < 0)
			sc[k].fixed_rate = sim_default_rate(event) * own;
	}
	if ((inst->open_refused_set = refused_group(ss, src->machine, inst, sec, sc)) >= 0) {
		sim_instance_free(si);
		inst->open_error = xasprintf("%s: a perf group of more events than the CPU's %d general counters (EINVAL)",
					     inst->pmu->name, pmu_counters(ss, src->machine, inst->pmu, sec));
		return -22;
	}
	inst->priv = si;
	return 0;
}

/* Counts are never negative: round half up without a libm call (this runs per counter
 * per refresh). */
static inline uint64_t round_count(double x)
{
	return x > 0 ? (uint64_t)(x + 0.5) : 0;
}

static int sim_read(struct source *src, struct instance *inst, uint64_t now_ns)
{
	struct sim_source *ss = src->priv;
	const struct sim_instance *si = inst->priv;
	struct sim_counter *sc = si->counters;
	uint64_t since = 0; /* the counters' last read: the same but after a filter change */
	bool timed = false;
	double dt = 0, tmid = 0;
	for (int k = 0; k < inst->ncounters; k++) {
		struct counter *ct = &inst->counters[k];
		struct sim_counter *c = &sc[k];
		if (!c->counted)
			continue;
		if (now_ns > c->last_ns) {
			if (!timed || c->last_ns != since) {
				timed = true;
				since = c->last_ns;
				dt = (double)(now_ns - since) / 1e9;
				tmid = ((double)(since + now_ns) / 2 - (double)ss->start_ns) / 1e9;
			}
			double rate = c->rate >= 0 ? sim_point_rate(c->at, c->rate, tmid) : c->fixed_rate;
			double noise = 1.0;
			if (si->jitter > 0) {
				/* splitmix64's own sequence: the n-th draw mixes start + n x gamma */
				uint64_t r = mix(c->stream + c->reads * 0x9e3779b97f4a7c15ull);
				noise += si->jitter * (((double)(r >> 11) / 9007199254740992.0) * 2 - 1);
			}
			double share = 1.0;
			if (c->load) { /* a CPU whose general counters the model counts */
				share = turn(c);
				c->running_ns += (double)(now_ns - c->last_ns) * si->running * share;
			}
			c->acc += rate * c->selection * dt * noise * si->running * share;
			c->last_ns = now_ns;
			c->reads++;
		}
		double enabled = (double)(now_ns - si->open_ns);
		double running = c->load ? c->running_ns : enabled * si->running;
		counter_read_count(ct, round_count(c->acc), (uint64_t)enabled, round_count(running));
	}
	return 0;
}

static bool sim_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && !inst->pmu->hw && !inst->pmu->sensor; /* perf PMUs; bfperf, sensors have theirs */
}

static void sim_close(struct source *src, struct instance *inst)
{
	(void)src;
	sim_instance_free(inst->priv);
	inst->priv = NULL;
}

static void sim_destroy(struct source *src)
{
	struct sim_source *ss = src->priv;
	sim_model_free(ss->model);
	sim_decoder_free(ss->decoder);
	sim_perf_names_free(ss->perf_names);
	while (ss->loads) {
		struct sim_load *next = ss->loads->next;
		free(ss->loads);
		ss->loads = next;
	}
	free(ss);
	free(src);
}

static const struct source_ops sim_ops = {
	.kind = "sim",
	.shares_counters = true,
	.claims = sim_claims,
	.open = sim_open,
	.read = sim_read,
	.close = sim_close,
	.destroy = sim_destroy,
};

struct source *source_sim_new(const struct machine *m, const struct sim_options *opt)
{
	struct sim_model *model = opt->model ? sim_model_ref(opt->model)
				 : opt->model_path ? sim_model_load(opt->model_path) : sim_model_default();
	if (!model)
		return NULL;
	struct source *s = xcalloc(1, sizeof(*s));
	struct sim_source *ss = xcalloc(1, sizeof(*ss));
	ss->model = model;
	ss->decoder = sim_decoder_new(m);
	ss->perf_names = sim_perf_names_new(m);
	ss->seed = mix(opt->seed);
	s->ops = &sim_ops;
	s->machine = m;
	s->priv = ss;
	return s;
}
