/* SPDX-License-Identifier: GPL-2.0-only */
/* state.h - what a session is made of: its instances, their counters, the frames it
 * publishes. The data the engine's files share; what outputs may call is session.h. */
#ifndef PMUTOP_STATE_H
#define PMUTOP_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpulist.h"
#include "bind/slots.h"
#include "profile/profile.h"
#include "machine/encode.h"
#include "machine/encode_memo.h"
#include "machine/pmu.h"

struct source;
struct clock;
struct cpu_tally;
struct frame;
struct session_event;

/* What a source read for a counter this refresh, the only thing of a source's the sampler
 * sees: a count with its enabled and running times since the counter opened, a gauge's
 * level, or (a replay) the interval itself in the state it was recorded in. */
enum reading_kind {
	READING_FAILED,   /* the read failed */
	READING_COUNT,    /* value, enabled, running: totals since the counter opened */
	READING_LEVEL,    /* level: a gauge's value now */
	READING_INTERVAL, /* value, enabled, running: this interval's, in state */
};

struct counter_reading {
	enum reading_kind kind;
	enum value_state state; /* READING_INTERVAL: as recorded */
	uint64_t value, enabled, running;
	double level;
};

/* The sampler's memory of a counter: the last count (the next interval starts there) and,
 * for one that takes turns, the rate of its last turn and how much of the run it ran. */
struct counter_memory {
	uint64_t value, enabled, running;
	bool primed;
	bool held;
	double held_rate; /* count per ns when it last ran (if held) */
	uint64_t ran_total, enabled_total;
	/* the reading counting began with (session_start's priming read): a whole run's
	 * summary is taken from it; lost where the counter was opened again since */
	uint64_t base_value, base_enabled, base_running;
	bool based;
};

/* One hardware counter: an event of an instance on one CPU. Sources fill the reading;
 * the sampler turns readings into the frame's deltas. */
struct counter {
	struct event_attr attr;
	int event; /* index in the group's events */
	int cpu;
	int slot;  /* index in the frame's counters */
	/* set by the source when it opens the counter (defaults: cumulative, 64 bits) */
	enum counter_kind kind;
	int width;
	bool takes_turns; /* counts in turns with other events on too few hardware counters, its
			  * source rotating them (BlueField's files): between turns the sampler
			  * holds its last turn's rate. perf's multiplexing is not this: the kernel
			  * says it in time running */
	struct counter_reading read; /* the source's, each refresh */
	struct counter_memory mem;   /* the sampler's */
	void *priv; /* the source's */
};

/* How sources say what they read. */
static inline void counter_read_count(struct counter *ct, uint64_t value, uint64_t enabled, uint64_t running)
{
	ct->read = (struct counter_reading){ .kind = READING_COUNT, .value = value, .enabled = enabled, .running = running };
}

static inline void counter_read_level(struct counter *ct, double level)
{
	ct->read = (struct counter_reading){ .kind = READING_LEVEL, .level = level };
}

static inline void counter_read_interval(struct counter *ct, enum value_state state, uint64_t raw, uint64_t enabled,
					 uint64_t running)
{
	ct->read = (struct counter_reading){ .kind = READING_INTERVAL, .value = raw, .enabled = enabled, .running = running,
					     .state = state };
}

static inline void counter_read_failed(struct counter *ct)
{
	ct->read.kind = READING_FAILED;
}

/* The next interval starts at this reading (a counter opened again, a filter changed). */
/* Counting starts again from here: a counter opened anew (a filter changed, a pause
 * ended, a device came back) has no reading of its own from when counting began. */
static inline void counter_reopened(struct counter *ct)
{
	ct->mem.based = false;
}

static inline void counter_prime(struct counter *ct, bool ok)
{
	ct->mem.value = ct->read.value;
	ct->mem.enabled = ct->read.enabled;
	ct->mem.running = ct->read.running;
	ct->mem.primed = ok && ct->read.kind != READING_FAILED;
}

struct instance {
	const struct profile *profile;
	const struct prof_group *group;
	const struct pmu *pmu; /* NULL for aggregates */
	bool follows_tasks; /* counts tasks wherever they run (engine/target.h): while they
			     * sleep its counters are neither enabled nor running, and that is a
			     * count of 0 over the clock's interval, not a counter not counted
			     * (live or replayed alike) */
	struct source *source; /* the source counting it (NULL: none claimed it, or aggregate) */
	bool source_shares;    /* ... lets counters of one encoding and CPU be one (source.h) */
	char *name;            /* "socket0", "socket0/rc3", "cpu5", "all" */
	int socket;            /* -1 where unknown */
	char sum_kind;         /* a sum's: 'a', 's', 'c', 'n' (slots.h's instance_info) */
	int nlabels;
	struct label *labels;  /* captures of the PMU name, cpu, socket */
	char *notes;           /* the group's note attributes of the PMU, joined */
	char *display;         /* the group's label, expanded (and the RC's PCI segment) */
	int parent;            /* a per-root-port instance: its root complex's; -1 otherwise */
	bool *wanted;          /* per group event, or NULL for all: the events it counts */
	int locked_filter;     /* a filter fixed by what the instance is (its root port), or -1 */
	int nrps;
	int rps[16];           /* the root ports of a root complex, from the PCI map */
	int ndetails;
	char **details;
	struct cpulist cpus;
	/* aggregates ("all", "socketN" over per-CPU instances) sum their members */
	int nmembers;
	int *members;
	/* a blend (bind_blend.c): the sums of other groups it weighs together; no counters */
	int nparts;
	int *parts;
	double weight; /* a sum of a group with a weight: this interval's (NAN: none) */
	/* per group event */
	bool *present;      /* the PMU has it */
	char **event_str;   /* the perf event string it was encoded from */
	char **event_na;    /* why a present event is not counted under the current filters, or NULL */
	bool *event_absent; /* per event, or NULL for none: its event_na says it is not there at
			     * all (a replay's event the recording lacks): values reading it are
			     * left out as perf's <not supported>, not failures */
	double *scale;      /* alias .scale */
	int ncounters;
	struct counter *counters;
	/* per group filter */
	bool *filter_set;
	uint64_t *filter_value;
	const char *filters; /* interned "term=value,..." of the set filters */
	/* open state */
	bool opened;
	int open_errno;
	int open_refused_set; /* a source's: the perf group whose member the PMU refused (EINVAL:
			       * more events than counters), or -1 */
	bool *refused;        /* per perf group (group_event_set): the PMU refused it, so it opens
			       * ungrouped, as perf's weak groups do; NULL: none refused */
	char *open_error;
	char *unavailable; /* why the instance cannot count at all (missing required event) */
	bool absent;       /* ... because its PMU lacks the events: not on this machine (perf's
			    * <not supported>), not a failure */
	bool skip_next;    /* the first interval after a (re)open is partial: shown as no value */
	const char *error_interned; /* the last error frames showed, kept for the session */
	bool off;          /* this interval its counters were not even enabled (their CPU went
			    * offline): left out of its aggregates, not summed as zeros */
	bool gone;         /* its device stopped answering: closed, tried again at retry_ns */
	bool paused;       /* closed: no output shows what it counts (engine/pause.c) */
	bool *closed;      /* per group event: not opened, no value shown reads it (the
			    * others are: engine/pause.c); NULL: none closed */
	uint64_t paused_at; /* the session's sample count then: two frames later both frame
			     * buffers hold its closed state, and sampling passes it by */
	int read_errno;    /* this refresh's read failed whole (a source may say so as late
			    * as its read_done); ENODEV: the device is gone */
	uint64_t retry_ns;
	uint64_t filters_seq; /* frame seq from which the current filters count */
	/* this interval: formula variables (group_nvars slots) and per-event state */
	double *vars;
	enum value_state *event_state;
	double *event_coverage;
	int nlive;
	int *live; /* the events it may count (those -M or its root port want), in order */
	struct cpu_tally *tally; /* a socket row counting its CPUs (bind_cpu_sums.c): the
				  * sampler's per CPU, as their own rows would have been */
	/* events it may read from another group's counter of the same encoding on the same
	 * CPUs (bind/counter_share.c), in order of preference; NULL: none */
	int nshares;
	struct event_share *shares;
	void *priv; /* the source's */
};

/* The event's counters are opened: present, the current filters apply to it, and some
 * value shown reads it. */
static inline bool instance_counts_event(const struct instance *inst, int e)
{
	return inst->present[e] && !inst->event_na[e] && !(inst->closed && inst->closed[e]);
}

/* An event of an instance that may read a counter of another: its candidates are the
 * session's share_refs[first .. first+ncand-1] (those of its encoding's run before it),
 * so the candidates of a run of N are stored once, not N*N/2 times. */
struct event_share {
	int event;           /* this instance's */
	int first, ncand;
	int partner, partner_event; /* the instance (index) and event it reads now (or would,
				     * planned); -1: its own */
	int *map;            /* while active: per counter of the instance, the partner's it reads (-1: none) */
};

/* An instance's event in a run of one encoding (bind/counter_share.c). */
struct share_ref {
	int index, event;
};

struct session {
	const struct machine *machine;
	/* core and software events count tasks (a command, -p, -t), not CPUs: one instance
	 * per group, its counter following the tasks on any CPU (engine/target.h) */
	bool count_tasks;
	/* the top tasks (engine/tasks.h), counted while an output wants them */
	struct task_table *tasks;
	bool tasks_wanted;
	struct task_table *cgroups; /* the same, a row a cgroup */
	bool cgroups_wanted;
	bool cgroups_always;        /* batch's and serve's -G, --cgroups */
	const char *cgroups_why;    /* there are none here, and why (interned) */
	bool cgroups_recorded;      /* a replay's: its recording kept them */
	/* -C: the CPUs core and software events count on (uncore PMUs keep their cpumask) */
	bool some_cpus;
	struct cpulist only_cpus;
	/* --per-core ('c'), --per-node ('n'): sums of per-CPU groups by each CPU's core or
	 * node (per_of_cpu, indexed by CPU) beside the sockets' and the machine's; 0: none */
	char per_kind;
	int *per_of_cpu;
	/* no output shows a CPU's row: a per-CPU group with sums, on more than cpu_rows_max
	 * CPUs, binds a row per socket counting them itself (bind.c's bind_cpu_sums), not a
	 * row per CPU and sums of them */
	bool cpu_sums;
	int cpu_rows_max;
	struct encode_memo *encodings; /* while binding: the texts encoded so far */
	bool skip_details; /* no output reads the members' values this frame (session_want_details) */
	/* the core PMUs' cycles encodings, for the machine's cycles (engine/machine_cycles.c) */
	bool cycles_found;
	int ncycles_attrs;
	const struct pmu **cycles_pmu;
	struct event_attr *cycles_attr;
	struct cpulist cycles_cpus; /* the CPUs of a core PMU: the whole's */
	int ncycles_counters;
	struct counter_ref {
		int instance, counter;
	} *cycles_counters; /* the counters whose encoding is a CPU's cycles */
	int nsources;
	struct source **sources; /* tried in order: the first that claims an instance counts it */
	char *source_kinds;      /* "sim", "live+hwmon": the kinds that count something */
	struct clock *clock;     /* for wall-clock time stamps, or NULL */
	struct procstat *procstat; /* CPU utilisation for frames, or NULL */
	bool sensors;            /* CPU temperature through libsensors (live machines) */
	char temp_chip[32];
	int nprofiles;
	struct profile **profiles;
	int ninstances;
	struct instance *inst;
	char *refusal; /* why the profiles cannot be counted at all (bind/bind_limits.c), or NULL */
	int nmissing;
	const struct prof_group **missing; /* groups no PMU of the machine matches */
	char **missing_why;  /* for each: why, where it is not "no PMU matches" (the CPU model) */
	char **pmu_note;     /* per machine PMU: why no profile counts it ("xeon: not for this
			      * CPU model"), or NULL */
	/* the static halves of every frame */
	struct instance_info *iinfo;
	int nvalues;
	int ncopies; /* the last of them: hand metrics showing perf's values (value_info.perf_slot) */
	int nsharers;
	int *sharers; /* the instances that may read another's counters (bind/counter_share.c) */
	int nshare_refs;
	struct share_ref *share_refs; /* the runs of one encoding, each in order of preference */
	struct value_info *vinfo;
	double *import_vars; /* an instance's values and a partner's imports, for such formulae */
	double *thresh_vals; /* per metric of the widest profile, NAN but while a threshold is
			      * evaluated (metric_threshold_eval's array) */
	int ncounters;
	struct counter_info *cinfo;
	/* two frames (engine/frame.h), published alternately; frames[cur] is the newest */
	struct frame *frames;
	int cur;
	uint64_t last_ns;     /* clock at the previous sample */
	uint64_t start_ns;    /* clock at the priming read */
	/* who the core events count (engine/target.h), for headers: NULL for the machine */
	const char *who, *who_end;
	uint64_t nsamples;
	int ngone; /* instances whose device went away (attach.c tries them again) */
	int nstrings, capstrings;
	char **strings;       /* interned filter and error strings frames point to */
	/* events since the last frame, and each frame buffer's own */
	int npending, cappending;
	struct session_event *pending;
	int nframe_events[2], capframe_events[2];
	struct session_event *frame_events[2];
	bool started, priming;
	/* a replay fills the host meters of each frame itself */
	void (*meters)(void *ctx, struct frame *f);
	void *meters_ctx;
	void (*task_rows)(void *ctx, struct frame *f, bool cgroups); /* a replay's recorded tasks and cgroups */
	void *task_rows_ctx;
};

#endif
