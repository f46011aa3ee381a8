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

#include "engine/session.h"
#include "sources/simmodel.h"
#include "sources/sources.h"
#include "base/util.h"

struct sim_source {
	struct sim_model *model;
	struct sim_decoder *decoder;
	uint64_t seed;
	uint64_t start_ns;
	bool started;
};

struct sim_counter {
	const char *event; /* decoded alias (points into the machine), a legacy name, or raw */
	char raw[24];      /* "r10ad": an encoding no alias names, as perf writes raw events */
	const struct sim_section *sec;
	double selection;
	double acc;        /* exact count so far */
	uint64_t id;       /* stable identity for the noise stream */
	int index;         /* the PMU name's last number */
	int rate;          /* the model's rate for the event, -1 for a default one */
	uint64_t open_ns, last_ns;
	uint64_t reads;
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

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static int last_number(const char *name)
{
	const char *end = name + strlen(name), *p = end;
	while (p > name && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < end ? atoi(p) : 0;
}

static int sim_open(struct source *src, struct instance *inst)
{
	struct sim_source *ss = src->priv;
	if (!ss->started) {
		ss->start_ns = src->now_ns;
		ss->started = true;
	}
	struct sim_counter *sc = xcalloc((size_t)(inst->ncounters ? inst->ncounters : 1), sizeof(*sc));
	const struct sim_section *sec = sim_model_section(ss->model, inst->pmu->name); /* one PMU */
	for (int k = 0; k < inst->ncounters; k++) {
		const struct counter *ct = &inst->counters[k];
		if (!instance_counts_event(inst, ct->event))
			continue; /* not opened under the current filters */
		bool legacy = inst->pmu->type < 0 || ct->attr.type != (uint32_t)inst->pmu->type;
		sc[k].sec = sec;
		/* a model may name an encoding as perf writes raw events (perf's JSON events no
		 * alias names): that exact encoding wins over an alias it merely contains (the
		 * any-thread CPU_CLK_UNHALTED.THREAD_ANY is not the alias cpu-cycles) */
		snprintf(sc[k].raw, sizeof(sc[k].raw), "r%llx", (unsigned long long)ct->attr.config[0]);
		if (!legacy && sim_rate_index(sec, sc[k].raw) >= 0)
			sc[k].event = sc[k].raw;
		else
			sc[k].event = legacy ? legacy_name(&ct->attr) : sim_decode_event(ss->decoder, inst->pmu, &ct->attr);
		if (!sc[k].event && ct->attr.type <= 1) /* the 'software' PMU: fixed event numbers */
			sc[k].event = legacy_name(&ct->attr);
		struct sim_place at = { src->machine->pci, inst->socket, last_number(inst->pmu->name) };
		sc[k].selection = legacy ? 1.0 : sim_selection(sc[k].sec, inst->pmu, sc[k].event, &ct->attr, &at);
		if (sim_rate_is_scaled(sc[k].sec, sc[k].event) && inst->scale[ct->event] > 0)
			sc[k].selection /= inst->scale[ct->event]; /* the model speaks in scaled units */
		sc[k].open_ns = sc[k].last_ns = src->now_ns;
		sc[k].id = hash_str(inst->event_str[ct->event]) ^ mix((uint64_t)ct->cpu);
		sc[k].index = last_number(inst->pmu->name);
		sc[k].rate = sim_rate_index(sc[k].sec, sc[k].event);
		if (!sc[k].event) {
			free(sc);
			inst->open_error = xasprintf("%s: the simulated driver knows no event with config 0x%llx (ENOENT)",
						     inst->pmu->name, (unsigned long long)ct->attr.config[0]);
			return -2;
		}
	}
	inst->priv = sc;
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
	struct sim_counter *sc = inst->priv;
	for (int k = 0; k < inst->ncounters; k++) {
		struct counter *ct = &inst->counters[k];
		struct sim_counter *c = &sc[k];
		if (!c->event)
			continue;
		if (now_ns > c->last_ns) {
			double dt = (double)(now_ns - c->last_ns) / 1e9;
			double tmid = ((double)(c->last_ns + now_ns) / 2 - (double)ss->start_ns) / 1e9;
			double rate = sim_rate(c->sec, c->rate, c->event, tmid, inst->socket, c->index, ct->cpu);
			double jitter = sim_model_jitter(ss->model, c->sec);
			double noise = 1.0;
			if (jitter > 0) {
				uint64_t r = mix(ss->seed ^ mix(c->id ^ mix(c->reads)));
				noise += jitter * (((double)(r >> 11) / 9007199254740992.0) * 2 - 1);
			}
			c->acc += rate * c->selection * dt * noise * sim_running_fraction(c->sec);
			c->last_ns = now_ns;
			c->reads++;
		}
		double enabled = (double)(now_ns - c->open_ns);
		counter_read_count(ct, round_count(c->acc), (uint64_t)enabled, round_count(enabled * sim_running_fraction(c->sec)));
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
	free(inst->priv);
	inst->priv = NULL;
}

static void sim_destroy(struct source *src)
{
	struct sim_source *ss = src->priv;
	sim_model_free(ss->model);
	sim_decoder_free(ss->decoder);
	free(ss);
	free(src);
}

static const struct source_ops sim_ops = {
	.kind = "sim",
	.claims = sim_claims,
	.open = sim_open,
	.read = sim_read,
	.close = sim_close,
	.destroy = sim_destroy,
};

struct source *source_sim_new(const struct machine *m, const struct sim_options *opt)
{
	struct sim_model *model = opt->model_path ? sim_model_load(opt->model_path) : sim_model_default();
	if (!model)
		return NULL;
	struct source *s = xcalloc(1, sizeof(*s));
	struct sim_source *ss = xcalloc(1, sizeof(*ss));
	ss->model = model;
	ss->decoder = sim_decoder_new(m);
	ss->seed = mix(opt->seed);
	s->ops = &sim_ops;
	s->machine = m;
	s->priv = ss;
	return s;
}
