/* source.h - the one interface every counter source answers: perf (libperf), the
 * simulated machine, BlueField sysfs counters and recordings. The rest of pmutop cannot
 * tell them apart. */
#ifndef PMUTOP_SOURCE_H
#define PMUTOP_SOURCE_H

#include <stdint.h>

struct instance;
struct machine;
struct source;

struct source_ops {
	const char *kind; /* "live", "sim", "replay": shown in the header and batch output */
	/* Open every counter of one instance (its events x its CPUs). Returns 0, or a negative
	 * errno with inst->open_error set to a message that says what to do about it. */
	int (*open)(struct source *src, struct instance *inst);
	/* Fill counter->value/enabled/running (cumulative) of every counter of the instance.
	 * now_ns is the sampler's clock; sources that model time (sim, replay) use it. */
	int (*read)(struct source *src, struct instance *inst, uint64_t now_ns);
	void (*close)(struct source *src, struct instance *inst);
	void (*destroy)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	const struct machine *machine;
	uint64_t now_ns; /* time of the last read; sources use it as "when counting started" */
	void *priv;
};

struct source *source_perf_new(const struct machine *m);
struct sim_options {
	const char *model_path; /* NULL: default rates for whatever the tree shows */
	uint64_t seed;
};
/* Returns NULL with a diagnostic if the model file is bad. */
struct source *source_sim_new(const struct machine *m, const struct sim_options *opt);

static inline void source_destroy(struct source *s)
{
	if (s)
		s->ops->destroy(s);
}

#endif
