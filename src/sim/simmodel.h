/* SPDX-License-Identifier: GPL-2.0-only */
/* simmodel.h - the traffic model of a simulated machine (an INI file beside its sysfs tree).
 *
 *   [pmu GLOB...]                       sections apply to PMUs whose name matches one of
 *                                       the globs; the first section wins
 *   rate.EVENT = FORMULA                events per second, unfiltered; names: t (seconds),
 *                                       socket, index (the PMU name's last number, e.g.
 *                                       the RC), cpu (the counter's CPU), units (how
 *                                       many PMUs the section models on the socket,
 *                                       each once per CPU its cpumask names there: an
 *                                       AMD L3 PMU's CCXs; a socket's total / units is
 *                                       each one's share,
 *                                       whatever the tree's count), reading (a
 *                                       sensor's: what its file read at start), and the rates
 *                                       defined above it. EVENT is an alias, a legacy
 *                                       name, or a raw encoding as perf writes it
 *                                       ("r10ad"; with config1 "r12a+10003c0001")
 *   rate.* = FORMULA                    the section's events no rate names: each a
 *                                       stable share of it (0.5 to 1.5 times, by name)
 *   dim.NAME = FIELD=W FIELD=W ...      a filter dimension: cells selected by format fields
 *   dim.NAME = FIELD=W0,W1,...          ... or by the bits of one mask field
 *   dim.NAME = FIELD@V=W ... when=EN    ... or by value (a device's BDF) while the enable
 *                                       field EN is set: matching cells count, none is 0
 *   dim.NAME = FIELD/MASK@V=W ... when=EN  an address V matched as the driver does:
 *                                       (V & MASK) == (FIELD & MASK)
 *   dim.NAME = FIELD=devices            ... by the devices the PCI map puts behind the
 *   dim.NAME = FIELD@devices when=EN    PMU's root complex (a root port's bit, a BDF),
 *                                       sharing the traffic; no device: none
 *   dim.NAME = ... unless=F1,F2         ... off while any of these fields is set (another
 *                                       filter mode: HNS3's global, or a function's BDF)
 *   scaled = EVENT ...                  rates given in the alias's scaled units (slots,
 *                                       joules): counts are the rate / .scale
 *   unfiltered = EVENT ...              events the filters do not scale (cycles)
 *   unsupported = EVENT ...             events the driver refuses (ENOENT): a generic
 *                                       event the PMU has no mapping for
 *   running = FRACTION                  time running / time enabled (multiplexing)
 *   pmu_name = GLOB ...                 the section is for PMUs whose caps/pmu_name
 *                                       matches too (a generation of Intel's cores:
 *                                       skylake, icelake, sapphire_rapids, gracemont)
 *   midr = GLOB ...                     ... whose midr_el1 matches (an Arm core's model)
 *   cpuid = GLOB ...                    on machines whose cpuid matches, as perf's mapfile
 *                                       globs do (AuthenticAMD-26-*: Zen 5)
 *   events = perf                       its rates may name an event as perf's JSON for
 *                                       this CPU does (CYCLE_ACTIVITY.STALLS_L1D_MISS,
 *                                       a variant as the catalogue spells it:
 *                                       UOPS_EXECUTED.CORE__cmask_1): the simulator reads
 *                                       the CPU model's catalogue file (sim_perf_names.c)
 *   counters = N, fixed = EVENT ...     a CPU's general counters (the fixed events take
 *                                       none): open beyond them, a CPU's count in turn
 *   jitter = F                          this section's noise (0: an invariant TSC)
 *   [model] title = ..., jitter = F     relative noise per read, seeded by --seed
 *   [model] metrics = LIST              perf's catalogue metrics the demo counts too
 *   [model] width = N, ghz = F          the cores' issue slots a cycle (the tasks' TopDown
 *                                       slots) and clock while busy (a task's default,
 *                                       the root cgroup's CPU time from its cycles)
 *   [task NAME] pid, user, threads,     a process of the machine (the Tasks view, batch
 *     cpus, ghz, ipc, cache_mpki,       --tasks): keeps cpus CPUs busy at ghz; cycles,
 *     branch_mpki                       instructions (x ipc) and misses per thousand of
 *                                       them follow (sim/sim_tasks.c); cache_mpki is
 *                                       perf's cache-misses, the level the CPU's driver
 *                                       maps it to (machine/generic_events.c; llc_mpki
 *                                       its former name)
 *
 * A counter counts rate x product over dimensions of (sum of the weights of the selected
 * cells, or of all cells when none is selected: the drivers' "unset means all"). */
#ifndef PMUTOP_SIMMODEL_H
#define PMUTOP_SIMMODEL_H

#include <stdint.h>

#include "machine/encode.h"
#include "sim/simulator.h"

struct sim_model;
struct sim_section;

/* The relative noise of a read: the section's own (jitter = 0: a steady clock) or the model's. */
double sim_model_jitter(const struct sim_model *m, const struct sim_section *sec);

/* The section for a PMU (NULL: defaults): the first whose glob matches its name and, where
 * it says pmu_name =, whose globs match the PMU's caps/pmu_name. */
const struct sim_section *sim_model_section(const struct sim_model *m, const struct pmu *p);
/* ... on a machine, whose cpuid a section may name (cpuid =); a section that names one
 * is not sim_model_section()'s. */
const struct sim_section *sim_model_section_on(const struct sim_model *m, const struct machine *machine,
					       const struct pmu *p);
/* Whether the section's rates may name events as perf's JSON for this CPU does (events = perf). */
bool sim_section_perf_names(const struct sim_section *sec);
/* Whether the section's rates read 'units' (how many PMUs it models on the socket: a
 * model gives a socket's total, each of its PMUs a share) and it is not known yet for
 * the socket; sim_section_note_units() says it. */
bool sim_section_reads_units(const struct sim_section *sec, int socket);
void sim_section_note_units(const struct sim_section *sec, int socket, int n);
/* Which rate of sec an event uses (resolved once, at open), or -1 for the default: from
 * then on the section's points evaluate it (and what it reads), until as many
 * sim_rate_release() calls say no counter reads it any more. */
int sim_rate_index(const struct sim_section *sec, const char *event);
/* Whether the section names a rate for event (its index, or -1), reading nothing. */
int sim_rate_find(const struct sim_section *sec, const char *event);
void sim_rate_release(const struct sim_section *sec, int rate);
/* Events per second of an event at time t for a PMU on socket (index and cpu as the
 * model names them); rate is from sim_rate_index(). */
double sim_rate(const struct sim_section *sec, int rate, const char *event, double t, int socket, int index, int cpu);
/* The same for a sensor, whose rates may read 'reading': what its file read at start (a
 * tree's own level, where the default model knows no better: a DPU's module is not a
 * server socket's). */
double sim_rate_of_reading(const struct sim_section *sec, int rate, const char *event, double t, int socket,
			   double reading);
/* One place a section's rates are evaluated at (socket, index, cpu), holding them for the
 * last t asked: the counters of one CPU share one, so a section is evaluated once per
 * place per refresh whatever order its counters are read in (a core PMU's are by event). */
struct sim_point {
	const struct sim_section *sec;
	bool valid;
	bool moves;   /* its rates read t */
	double t;     /* the t they were evaluated at */
	double *slots;
	const double *rates; /* in slots: one per rate of the section */
	/* the rates it evaluates, all or those that read the CPU (the rest from the section's
	 * point for its socket and index): each time t moves, and once those that do not read t */
	const int *each, *once;
	const int *neach, *nonce; /* the section's counts: its lists grow as rates are read */
	const unsigned *gen;      /* the section's, which moves when they do; and the one */
	unsigned seen;            /* the point was evaluated under */
	struct sim_point *shared;
};
/* A place's index: the number that ends its PMU's (or block's) name, 0 for none
 * ("nvidia_pcie_pmu_0_rc_3": 3) */
int sim_place_index(const char *name);
void sim_point_init(struct sim_point *pt, const struct sim_section *sec, int socket, int index, int cpu);
void sim_point_release(struct sim_point *pt);
/* The section's point for a place, made on first use and kept with the section: every
 * group of a PMU on one CPU reads it, so the section's rates are evaluated once a place a
 * refresh however many groups count there (a core PMU's TopDown, core pane, catalogue). */
struct sim_point *sim_point_at(const struct sim_section *sec, int socket, int index, int cpu);
void sim_point_evaluate(struct sim_point *pt, double t);
/* Events per second of the section's rate (from sim_rate_index(), >= 0) at time t; the
 * point is evaluated once per t (this runs per counter per refresh). */
static inline double sim_point_rate(struct sim_point *pt, int rate, double t)
{
	if (!pt->valid || *pt->gen != pt->seen || (pt->moves && pt->t != t))
		sim_point_evaluate(pt, t);
	double r = pt->rates[rate];
	return r >= 0 ? r : 0; /* a negative rate or none (NaN) counts nothing */
}
/* The rate of an event the model does not name: plausible and stable. */
double sim_default_rate(const char *event);
/* The clock origin of the model's rates (their t = 0): the first caller's now, kept, so
 * the counter source and the cgroups' root read one t (sim_machine_counts.c). */
uint64_t sim_model_origin(struct sim_model *m, uint64_t now_ns);
/* Do the section's rates depend on the CPU (else one point serves all of a PMU's)? */
bool sim_section_reads_cpu(const struct sim_section *sec);
/* Where a PMU is, for cells taken from the PCI map: its socket, and its root complex
 * (the PMU name's last number). */
struct pci_map;
struct sim_place {
	const struct pci_map *pci;
	int socket, index;
};
/* Fraction of traffic the filters in attr select. */
double sim_selection(const struct sim_section *sec, const struct pmu *p, const char *event,
		     const struct event_attr *attr, const struct sim_place *at);
double sim_running_fraction(const struct sim_section *sec);
/* How many general counters a CPU has for the section's PMU where the event takes one,
 * or 0 (no limit said, or the event has a counter of its own): open beyond them, the
 * counters of one CPU count in turn, each for its share of the time (the kernel's
 * rotation), as 'counters = 6' and 'fixed = cpu_cycles' in a model say. */
int sim_general_counters(const struct sim_section *sec, const char *event);
/* Is the event's rate given in its alias's scaled units (the source divides by .scale)? */
bool sim_rate_is_scaled(const struct sim_section *sec, const char *event);
/* Does the simulated driver refuse this event (ENOENT), as the kernel refuses a generic
 * event the PMU has no mapping for (AMD's LLC-load-misses)? */
bool sim_event_unsupported(const struct sim_section *sec, const char *event);

/* Which alias of p an attr encodes (the most specific match), or NULL: each PMU's
 * aliases are encoded once and kept by the decoder (for the machine's life). */
struct sim_decoder;
struct sim_decoder *sim_decoder_new(const struct machine *m);
const char *sim_decode_event(struct sim_decoder *d, const struct pmu *p, const struct event_attr *attr);
void sim_decoder_free(struct sim_decoder *d);

#endif
