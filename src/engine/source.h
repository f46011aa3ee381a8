/* SPDX-License-Identifier: GPL-2.0-only */
/* source.h - the one interface every counter source answers: perf (libperf), the
 * simulated machine, BlueField's hwmon counter files, libsensors gauges and the replay of
 * a recording. Several serve one session; each instance is counted by the first source
 * that claims it, and the rest of pmutop cannot tell them apart. The engine owns the
 * interface (it calls through it); each source's constructor is in its own folder's
 * header (sources/sources.h, record/replay.h). */
#ifndef PMUTOP_SOURCE_H
#define PMUTOP_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

struct instance;
struct machine;
struct source;

struct source_ops {
	const char *kind; /* "live", "sim", "hwmon", "sensors", "replay": shown in headers */
	/* Does this source count the instance (its PMU or device)? NULL: every instance. */
	bool (*claims)(struct source *src, const struct instance *inst);
	/* Open every counter of one instance (its counted events x its CPUs) and set each
	 * counter's kind and width where they are not cumulative 64-bit. Returns 0, or a
	 * negative errno with inst->open_error set to a message that says what to do. */
	int (*open)(struct source *src, struct instance *inst);
	/* Say what each counter read (counter_read_count/level/interval/failed in
	 * state.h). now_ns is the sampler's clock; sources that model time use it. */
	int (*read)(struct source *src, struct instance *inst, uint64_t now_ns);
	void (*close)(struct source *src, struct instance *inst);
	void (*destroy)(struct source *src);
	/* Every instance was read this refresh (perf moves back to the CPUs it came from). */
	void (*read_done)(struct source *src);
	/* Its instances' counters of one encoding and CPU may be one (bind/counter_share.c):
	 * it leaves the events instance_shares_event names unopened. */
	bool shares_counters;
};

struct source {
	const struct source_ops *ops;
	const struct machine *machine;
	uint64_t now_ns; /* time of the last read; sources use it as "when counting started" */
	void *priv;
};

static inline void source_destroy(struct source *s)
{
	if (s)
		s->ops->destroy(s);
}

#endif
