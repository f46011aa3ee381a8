/* SPDX-License-Identifier: GPL-2.0-only */
/* session.h - profiles bound to one machine: instances, their counters and filters, the
 * sources that count them, and the frames the sampler publishes. The room engine/ runs a
 * session; it reads bind/ and knows nothing of the ui, outputs or recordings, which it
 * reaches through output.h, nor of sources, which it reaches through source.h.
 *
 * Outputs read frames (frame.h); they call into the session only to change a filter. */
#ifndef PMUTOP_SESSION_H
#define PMUTOP_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/attach.h"
#include "engine/frame.h"
#include "bind/bind.h"
#include "engine/hostmeters.h"
#include "bind/state.h"

/* Note an event for the next frame (filter changes note themselves). */
void session_note_event(struct session *s, enum session_event_kind kind, int instance, const char *term,
			const char *value);
/* A replay: frames say the recorded sources ("sim", "live+hwmon") and host meters. */
void session_set_source_label(struct session *s, const char *label);
void session_use_meters(struct session *s, void (*meters)(void *ctx, struct frame *f), void *ctx);
/* ... and the top tasks as recorded, or with cgroups the cgroups': while an output wants
 * them, rows puts them in the frame (its rows stay until the call after next: frames are
 * published alternately). has_cgroups: the recording kept cgroups (the view offers them). */
void session_use_task_rows(struct session *s, void (*rows)(void *ctx, struct frame *f, bool cgroups), void *ctx,
			   bool has_cgroups);
/* Will the next frame's readers read the values of sums' members (per-CPU rows, a
 * socket's channels)? When none does, those are not evaluated (state "no value"); the
 * sums are, from the members' counts. Default: yes. */
void session_want_details(struct session *s, bool want);
/* The value slots outputs show (per slot; NULL: all of them): the instances none of them
 * needs (its instance, imports, the metrics it reads, a sum's members) are closed until
 * one is shown again (engine/pause.c). */
void session_need_values(struct session *s, const bool *shown);
/* Per value slot, what a run without a screen counts (metrics_leave_hidden: not what only
 * 'hidden = yes' panes list), malloc'd; NULL where that is every value. */
bool *session_default_values(const struct session *s);

/* Bind profiles to the machine: find instances, encode their events with the current
 * filters. Problems become per-instance states, never a failure of the whole session. */
struct session *session_new(const struct machine *m, struct profile **profiles, int nprofiles);
/* What core and software events count (perf stat's targets); uncore PMUs count the
 * machine, on their cpumask, whatever it says. */
struct session_scope {
	bool tasks;                 /* a command's or the -p/-t tasks (engine/target.h): each
				     * group one instance ("all") following them on any CPU */
	const struct cpulist *cpus; /* -C: only these CPUs; NULL: every one */
	char per;                   /* 'c' --per-core, 'n' --per-node: those sums too; 0 */
	/* no output shows a CPU's row: a per-CPU group of more than cpu_rows_max CPUs counts
	 * them in its socket rows, with no row per CPU (memory as sockets, not CPUs); false:
	 * each CPU a row, its sums summing them (-A, recordings) */
	bool cpu_sums;
	int cpu_rows_max;
};
struct session *session_new_scoped(const struct machine *m, struct profile **profiles, int nprofiles,
				   const struct session_scope *scope);
/* Why the session cannot count at all (its profiles ask more of a CPU than pmutop opens:
 * bind/bind_limits.h), or NULL. */
const char *session_refusal(const struct session *s);
/* Frees the sources too. */
void session_free(struct session *s);

/* Wall-clock time stamps of frames come from this clock (else they are the clock's ns). */
void session_use_clock(struct session *s, struct clock *c);
/* Open every instance on the source that claims it; take the priming read at now_ns. */
void session_start(struct session *s, uint64_t now_ns);
/* Read all counters and publish the frame of the interval ending at now_ns. */
const struct frame *session_sample(struct session *s, uint64_t now_ns);
/* The last frame: the whole run, from the priming read to now_ns (perf stat's summary).
 * A counter opened again since (a filter changed) has no value in it. */
const struct frame *session_sample_whole(struct session *s, uint64_t now_ns);
/* Who the core events count, as headers and the summary say it ("'make' (pid 42)"), and
 * how a command ended ("exited with status 0"); NULL for the machine, and while it runs.
 * The session keeps copies. */
void session_set_who(struct session *s, const char *who, const char *end);
const char *session_who(const struct session *s);
/* The top tasks, listed and counted by probe (the session owns it), at most max: frames
 * carry them while an output wants them (session_want_tasks). */
struct task_probe;
void session_use_tasks(struct session *s, struct task_probe *probe, int max);
void session_want_tasks(struct session *s, bool want);
/* Their rows threads rather than processes (htop's H, perf's --per-thread). */
void session_tasks_threads(struct session *s, bool threads);
/* The cgroups (perf stat -G), as the tasks: frames carry their rows while an output
 * wants them; whether the session has any to show. */
/* always: every frame (batch, serve), whatever a view wants */
void session_use_cgroups(struct session *s, struct task_probe *probe, int max, bool always);
void session_want_cgroups(struct session *s, bool want);
/* There are none to count here, and why; what the session says of that, or NULL where
 * it has them */
void session_no_cgroups(struct session *s, const char *why);
const char *session_cgroups_absent(const struct session *s);
const char *session_who_end(const struct session *s);
/* The next frame's interval starts at t_ns, not at the last frame: a replay's frames
 * cover their recorded intervals wherever a seek put the clock (back a step, the last
 * frame again). */
void session_set_interval_start(struct session *s, uint64_t t_ns);
/* The newest frame (the priming one before the first interval). */
const struct frame *session_frame(const struct session *s);

/* Set filter TERM of one instance (an aggregate: all its members, all or nothing); value
 * NULL or "default" clears it. Checks the value and the group's constraints, re-encodes
 * and reopens only what changed. Returns 0, or -1 with *err set and nothing changed. */
int session_set_filter(struct session *s, int instance, const char *term, const char *value, char **err);
/* The filter f of an instance as set now: false if unset. */
bool session_filter(const struct session *s, int instance, int f, uint64_t *value);
/* Bits of filter f's field on the instance's PMU (an aggregate: its members'), 64 for an
 * enum, 0 if the PMU lacks it. */
int session_filter_width(const struct session *s, int instance, int f);
/* Event filters: the name of event number n on the instance's PMU (NULL: none), and the
 * next event of its list after cur in direction dir (+1/-1), wrapping; false if none. */
/* Every instance back to its group's default filters (a replay jumping back). */
void session_reset_filters(struct session *s);
const char *session_event_name(const struct session *s, int instance, uint64_t n);
bool session_event_step(const struct session *s, int instance, uint64_t cur, int dir, uint64_t *next);
/* The filters set now (the next frame's), malloc'd: "src_rp_mask=0x3,mode=func". */
char *session_instance_filters(const struct session *s, int instance);



/* For the engine's own files: keep a copy of str as long as the session lives. */
const char *session_intern(struct session *s, const char *str);

#endif
