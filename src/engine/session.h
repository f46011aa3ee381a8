/* session.h - profiles bound to one machine: instances, counters, and the frame of metric
 * values the views read. */
#ifndef PMUTOP_SESSION_H
#define PMUTOP_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpulist.h"
#include "machine/encode.h"
#include "machine/pmu.h"
#include "engine/profile.h"

struct source;

/* What a value means, in order of precedence when several inputs combine. */
enum value_state {
	VS_OK,
	VS_NO_VALUE,    /* division by zero, or the first interval after a change: shown "-" */
	VS_NOT_COUNTED, /* time running was 0 */
	VS_UNREADABLE,  /* read failed, or the counter went backwards: shown "?" */
	VS_UNAVAILABLE, /* the instance lacks an event or could not be opened */
};

struct counter {
	struct event_attr attr;
	int event; /* index in the group's events */
	int cpu;
	int width; /* counter bits, 64 unless the source says otherwise */
	/* cumulative, set by the source on read */
	uint64_t value, enabled, running;
	bool read_ok;
	/* the sampler's memory of the previous read */
	uint64_t prev_value, prev_enabled, prev_running;
	bool primed;
	/* this interval */
	double delta; /* scaled for multiplexing and by the alias's .scale */
	uint64_t d_enabled, d_running; /* this interval's times, for --raw */
	enum value_state state;
	double coverage; /* running / enabled, 1 when not multiplexed */
	void *priv;      /* the source's */
};

struct instance {
	const struct profile *profile;
	const struct prof_group *group;
	const struct pmu *pmu; /* NULL for aggregates */
	char *name;            /* "socket0", "socket0/rc3", "cpu5", "all" */
	int socket;            /* -1 where unknown */
	int rc;                /* the {rc} capture of the PMU name (PCIe root complex), or -1 */
	struct cpulist cpus;
	/* aggregates ("all", "socketN" over per-CPU instances) sum their members */
	int nmembers;
	int *members;
	/* per group event */
	bool *present;      /* the PMU has it */
	char **event_str;   /* the perf event string it was encoded from */
	double *scale;      /* alias .scale */
	int ncounters;
	struct counter *counters;
	/* per group filter */
	bool *filter_set;
	uint64_t *filter_value;
	/* open state */
	bool opened;
	int open_errno;
	char *open_error;
	char *unavailable; /* why the instance cannot count at all (missing required event) */
	bool skip_next;    /* the first interval after a (re)open is partial: shown as no value */
	uint64_t filter_changed_at; /* session->nsamples when a filter last changed (0: never) */
	/* this interval: formula variables (group_nvars slots) and per-event state */
	double *vars;
	enum value_state *event_state;
	double *event_coverage;
	void *priv; /* the source's */
};

struct metric_value {
	int profile, metric, instance;
	int form; /* which of the metric's formulae (the one for the instance's group) */
	double value;
	enum value_state state;
	bool multiplexed;
	double coverage;
};

struct session {
	const struct machine *machine;
	struct source *source;
	int nprofiles;
	struct profile **profiles;
	int ninstances;
	struct instance *inst;
	int nvalues;
	struct metric_value *values; /* the frame */
	int nmissing;
	const struct prof_group **missing; /* groups no PMU of the machine matches */
	uint64_t last_ns;            /* clock at the previous sample */
	uint64_t interval_ns;        /* length of the last interval */
	uint64_t nsamples;
};

/* Bind profiles to the machine: find instances, encode their events with the current
 * filters. Problems become per-instance states, never a failure of the whole session. */
struct session *session_new(const struct machine *m, struct profile **profiles, int nprofiles);
void session_free(struct session *s);

/* Open every instance on src and take the first reading at now_ns. */
void session_start(struct session *s, struct source *src, uint64_t now_ns);
/* Read all counters and compute the frame for the interval ending at now_ns. */
void session_sample(struct session *s, uint64_t now_ns);

/* Set filter TERM of one instance; value NULL clears it (the driver's default). Checks
 * the value and the group's constraints, re-encodes and reopens that instance only.
 * Returns 0, or -1 with *err set. */
int session_set_filter(struct session *s, struct instance *inst, const char *term, const char *value, char **err);
/* "src_rp_mask=0x3,dst_loc_cmem=1" of the instance's set filters, into a malloc'd string. */
char *instance_filter_string(const struct instance *inst);

/* The order a perf group opens the instance's present events in: the profile's leader
 * first (TopDown needs 'slots' to lead), then the others. Returns how many. */
int instance_open_order(const struct instance *inst, int *order);

const struct prof_metric *session_metric(const struct session *s, const struct metric_value *v);
const char *value_state_name(enum value_state st);

/* Does the profile's 'requires' match a PMU of the machine? */
bool profile_matches(const struct profile *p, const struct machine *m);
/* Match a PMU name against a group pattern with {captures} and * globs. */
bool pmu_pattern_match(const char *pattern, const char *name, char caps[][2][64], int *ncaps);

#endif
