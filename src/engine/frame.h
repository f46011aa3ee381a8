/* SPDX-License-Identifier: GPL-2.0-only */
/* frame.h - one refresh, as every output sees it.
 *
 * The sampler publishes one frame per refresh and never changes it afterwards: outputs
 * (batch, history, the monitor, and the recorder and exporter to come) read frames and
 * nothing else of the engine. A frame stays valid until two more frames have been
 * published (the session double-buffers them); strings it points to (names, filters,
 * errors) live as long as the session.
 *
 * Each array has a static half, the same in every frame of a session (what a slot is:
 * *_info, owned by the session), and the refresh's own half. */
#ifndef PMUTOP_FRAME_H
#define PMUTOP_FRAME_H

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
const char *value_state_name(enum value_state st);

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
	int nlabels;
	const struct label *labels;
	int nmembers;     /* aggregates: the instances they sum */
	const int *members;
	int nparts;       /* a blend of other groups' sums (a hybrid's "all": P- and E-cores);
			   * no counters, its values weigh its parts' */
	const int *parts;
	int first_counter, ncounters; /* its counters in frame->counters */
	const char *display; /* how a row names it: "S0 RC3 (0004:00)"; the name if no label */
	int parent;          /* a root port's instance: its root complex's instance; -1 */
	int ndetails;        /* what Enter shows under it (root ports, devices behind them); */
	const char *const *details; /* a line starting with a blank is a child of the one above */
	const bool *present; /* per group event: the PMU has it */
	const char *notes;   /* the PMU's note attributes ("peer: ..."), "" if none */
	const double *attrs; /* the group's attrs' values (hw_clk_freq), in its order */
};

struct frame_instance {
	bool counting;       /* opened (or an aggregate of members that are) */
	const char *error;   /* why it does not count, or NULL */
	bool absent;         /* error says what this machine's PMU lacks (perf: <not supported>):
			      * not a failure, nothing to fix */
	const char *filters; /* active filters, "src_rp_mask=0x3,src_loc_cpu=1"; "" if none */
	uint64_t filters_seq; /* the frame seq from which these filters count (0: from start) */
	float coverage;      /* smallest coverage of its counters this interval */
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

struct frame_value {
	double value; /* NAN unless state is VS_OK (it may be ±inf then) */
	const char *why; /* unavailable: the reason for this value ("mode port not supported
			  * by this event"), or NULL */
	float coverage;
	uint8_t state;  /* enum value_state */
	bool multiplexed;
	int8_t past; /* perf's MetricThreshold on this instance: 1 past it (perf colours it
		      * red), 0 not, -1 no threshold or no value it reads */
};

struct counter_info {
	int instance;
	int event; /* index in the group's events */
	int cpu;
	const char *event_name; /* the sysfs alias where there is one, else the profile's name */
	const char *unit;       /* the alias's .unit ("Joules": the delta is in it), or NULL */
	enum counter_kind kind;
	int width;
	bool rotating; /* takes turns on too few hardware counters (its value is held between) */
	/* config, config1, config2 as opened now, with the filters of the frame being published
	 * (outputs read it at publish): one copy, not one per frame buffer */
	const uint64_t *config;
	uint8_t exclude; /* EXCLUDE_* bits of its modifiers (":k"): fixed for the session */
};

struct frame_counter {
	double delta;       /* cumulative: scaled for multiplexing and .scale; gauge: the reading */
	uint64_t raw;       /* the interval's raw count; a gauge: its reading's bits (recordings) */
	uint64_t enabled, running; /* this interval's times */
	float coverage;
	uint8_t state;
	uint8_t raw_state; /* the state of the raw count, before scaling (what a recording keeps) */
};

/* What happened in the session between two frames: recordings keep these. */
enum session_event_kind { SEV_FILTER, SEV_PAUSE, SEV_RESUME };
struct session_event {
	enum session_event_kind kind;
	uint64_t seq;      /* the frame it comes before; 0: before counting started (-f) */
	int instance;      /* SEV_FILTER: the instance changed (an aggregate: all its members) */
	const char *term;  /* the filter, interned */
	const char *value; /* as given, interned; NULL: back to the default */
};

struct frame {
	uint64_t seq;         /* 1 for the first interval; 0 for the priming read */
	uint64_t time_ns;     /* the clock at the end of the interval */
	uint64_t wall_ns;     /* wall-clock time stamp of the end */
	uint64_t interval_ns; /* its length */
	const char *source;   /* the sources counting, "sim", "live", "live+hwmon" */
	/* the host's own meters, where the session reads them (live machines) */
	double cpu_util;      /* percent busy over the interval (/proc/stat), NAN if unknown */
	bool have_temp;
	double cpu_temp_c;    /* hottest CPU temperature sensor */
	const char *temp_chip;
	int nprofiles;
	struct profile *const *profiles;
	int nmissing;
	const struct prof_group *const *missing; /* groups no PMU matched */
	const char *const *missing_why; /* for each: why, where not "no PMU matches" (the CPU
					 * model), or NULL */
	int ninstances;
	const struct instance_info *iinfo;
	const struct frame_instance *inst;
	int nvalues;
	const struct value_info *vinfo;
	const struct frame_value *values;
	int ncounters;
	const struct counter_info *cinfo;
	const struct frame_counter *counters;
	int nevents;
	const struct session_event *events; /* since the previous frame, in order */
};

static inline const struct prof_metric *frame_metric(const struct frame *f, int k)
{
	return f->vinfo[k].m;
}

/* The label of an instance with this key, or NULL. */
const char *frame_label(const struct frame *f, int instance, const char *key);

/* Whether an instance is not on this machine (perf's <not supported>: its PMU lacks the
 * events), or is a sum of such instances only: a row outputs leave out. */
bool frame_instance_absent(const struct frame *f, int instance);

#endif
