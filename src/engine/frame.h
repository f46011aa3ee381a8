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

#include "bind/slots.h"

/* What a value_state is called in outputs ("no value", "unavailable"). */
const char *value_state_name(enum value_state st);

struct frame_instance {
	bool counting;       /* opened (or an aggregate of members that are) */
	const char *error;   /* why it does not count, or NULL */
	bool absent;         /* error says what this machine's PMU lacks (perf: <not supported>):
			      * not a failure, nothing to fix */
	const char *filters; /* active filters, "src_rp_mask=0x3,src_loc_cpu=1"; "" if none */
	uint64_t filters_seq; /* the frame seq from which these filters count (0: from start) */
	float coverage;      /* smallest coverage of its counters this interval */
};

struct frame_value {
	double value; /* NAN unless state is VS_OK (it may be ±inf then) */
	const char *why; /* unavailable: the reason for this value ("mode port not supported
			  * by this event"), or NULL */
	float coverage;
	uint8_t state;  /* enum value_state */
	bool multiplexed;
	bool absent; /* unavailable because an event it reads is not there at all (a replay's
		      * event the recording lacks): left out as an absent instance's values are */
	int8_t past; /* perf's MetricThreshold on this instance: 1 past it (perf colours it
		      * red), 0 not, -1 no threshold or no value it reads */
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

struct cache_misses_name;

/* One of the top tasks (engine/tasks.h), as frames carry them. */
#define TASK_ROW_COUNTS 10
#define TASK_TOPDOWN 4 /* level 1: retiring, bad speculation, frontend bound, backend bound */
struct task_row {
	int pid;            /* a thread's row (frame.tasks_threads): its TID */
	int tgid;           /* the process it is of */
	const char *comm, *user;
	int threads;
	double cpu_pct;     /* of one CPU over the interval (top's %CPU): its task-clock where
			     * counted, else /proc's ticks */
	double ipc, branch_mpki; /* NAN: not counted (yet, or not here) */
	double cycles_share; /* % of the cycles the machine's CPUs ran (the session's own count
			      * of them on every CPU); NAN where not known */
	double cache_mpki;  /* perf's cache-misses: the level the frame's cache_misses names */
	/* TopDown level 1 (TASK_TOPDOWN, in that order), % of the slots: each metric's count
	 * over the four's sum, perf's rule for level 1 on perf metrics; NAN: not counted
	 * (no perf metrics on this CPU) */
	double topdown[TASK_TOPDOWN];
	const char *why;    /* its counters could not be opened, or NULL */
	const char *cgroup; /* a task's cgroup (the hierarchy perf counts by), or NULL */
	/* what its counters counted over the interval, in engine/tasks.h's order: task-clock
	 * ns, cycles, instructions, cache misses, branch misses, slots and the four TopDown
	 * metrics' slots (the exporter's counters);
	 * NAN: not counted */
	double counted[TASK_ROW_COUNTS];
};

struct frame {
	uint64_t seq;         /* 1 for the first interval; 0 for the priming read */
	uint64_t time_ns;     /* the clock at the end of the interval */
	uint64_t wall_ns;     /* wall-clock time stamp of the end */
	uint64_t interval_ns; /* its length */
	/* the whole run's (session_sample_whole): its interval is from the first reading */
	bool whole_run;
	/* who the core events count: NULL for the machine, else "'make' (pid 42)"; and how
	 * the command ended, NULL while it runs */
	const char *who, *who_end;
	/* the top tasks by CPU time with their core figures, where an output asked for them
	 * (engine/tasks.h: the Tasks view, batch --tasks), and the descriptors that costs */
	int ntasks;
	const struct task_row *tasks;
	int task_fds;
	const char *tasks_note; /* what the table says as a whole ("no core PMU: ..."), or NULL */
	bool tasks_threads;     /* its rows are threads (htop's H, --per-thread) */
	/* what perf's cache-misses counts on this CPU, which the rows' cache_mpki are: the
	 * names its column and key take (machine/generic_events.h) */
	const struct cache_misses_name *cache_misses;
	/* the cgroups perf stat -G counts (the Cgroups view, -G, --cgroups), rows as the
	 * tasks': comm the cgroup's path, threads the processes in it, user "" */
	int ncgroups;
	const struct task_row *cgroups;
	int cgroup_fds;
	const char *cgroups_note; /* the hierarchy counted by, and what the table says */
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
