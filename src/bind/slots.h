/* SPDX-License-Identifier: GPL-2.0-only */
/* slots.h - what each instance, value and counter slot of a session is: the static halves
 * of frames, made once by binding and the same in every frame (engine/frame.h carries
 * them beside each refresh's own values). */
#ifndef PMUTOP_SLOTS_H
#define PMUTOP_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

struct profile;
struct prof_group;
struct prof_metric;

/* What a value means, in order of precedence when several inputs combine. */
enum value_state {
	VS_OK,
	VS_NO_VALUE,    /* division by zero, or the first interval after a change: shown "-" */
	VS_NOT_COUNTED, /* time running was 0 */
	VS_UNREADABLE,  /* read failed, or the counter went backwards: shown "?" */
	VS_UNAVAILABLE, /* the instance lacks an event or could not be opened */
};

enum counter_kind {
	COUNTER_CUMULATIVE, /* a count since some start: the interval's value is a delta */
	COUNTER_GAUGE,      /* a level (temperature, power): the value is the reading */
};

/* A label of an instance: a capture of its PMU name (socket, rc, sicl, ...). */
struct label {
	char key[32];
	char value[64];
};

struct instance_info {
	const char *name; /* "socket0", "socket0/rc3", "cpu5", "all" */
	const struct profile *profile;
	const struct prof_group *group;
	const char *pmu;  /* the PMU (or device) name; NULL for aggregates */
	int socket;       /* -1 where unknown */
	char sum_kind;    /* a sum's: 'a' the machine's, 's' a socket's, 'c' a core's, 'n' a
			   * NUMA node's (--per-core, --per-node); 0 for no sum */
	int nlabels;
	const struct label *labels;
	int nmembers;     /* aggregates: the instances they sum */
	const int *members;
	int nparts;       /* a blend of other groups' sums (a hybrid's "all": P- and E-cores);
			   * no counters, its values weigh its parts' */
	const int *parts;
	int first_counter, ncounters; /* its counters in frame->counters */
	int cpus_counted; /* a socket row counting its CPUs (bind_cpu_sums.c): how many, each
			   * what a CPU's row would be; 0 otherwise */
	const char *display; /* how a row names it: "S0 RC3 (0004:00)"; the name if no label */
	int parent;          /* a root port's instance: its root complex's instance; -1 */
	int ndetails;        /* what Enter shows under it (root ports, devices behind them); */
	const char *const *details; /* a line starting with a blank is a child of the one above */
	const bool *present; /* per group event: the PMU has it */
	const char *notes;   /* the PMU's note attributes ("peer: ..."), "" if none */
	const double *attrs; /* the group's attrs' values (hw_clk_freq), in its order */
};

struct value_info {
	int profile, metric, instance;
	int form; /* which of the metric's formulae (the one for the instance's group) */
	const struct prof_metric *m;
	bool detail; /* of a member of a sum (a CPU, a channel): evaluated only when asked */
	int *partners; /* per import of its formula (GROUP.EVENT, prof_import), the instance of
			* the same name in that group; NULL if it imports nothing */
	int *parts;  /* a blend's: the value slot of each of its instance's parts, or NULL */
	int *refs;   /* the value slots, on the same instance, of the metrics its formula reads
		      * by name (prof_formula.refs), or NULL */
	int perf_slot; /* a hand metric that is perf's (metric_delegate.h): the slot of perf's
			* value it shows, plus one; 0 for a value of its own formula */
	int nthresh; /* perf's MetricThreshold: the metrics it reads, as pairs (the profile's
		      * metric index, its value slot on the same instance); NULL where the
		      * metric has none or one of them has no value here */
	int *thresh;
};

struct counter_info {
	int instance;
	int event; /* index in the group's events */
	int cpu;
	const char *event_name; /* the sysfs alias where there is one, else the profile's name */
	const char *unit;       /* the alias's .unit ("Joules": the delta is in it), or NULL */
	enum counter_kind kind;
	int width;
	bool takes_turns; /* counts in turns on too few hardware counters (its value is held between) */
	/* config, config1, config2 as opened now, with the filters of the frame being published
	 * (outputs read it at publish): one copy, not one per frame buffer */
	const uint64_t *config;
	uint8_t exclude; /* EXCLUDE_* bits of its modifiers (":k"): fixed for the session */
};

#endif
