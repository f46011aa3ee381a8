/* SPDX-License-Identifier: GPL-2.0-only */
/* profile.h - a profile: which PMUs, which events and filters, which metrics and panes.
 * The room profile/ is the profile language and perf's catalogue as data: it knows
 * profiles, formulae and the machine's facts, nothing of instances, counters or sessions.
 *
 * The profile is data: no PMU family is special-cased in C. See pmutop-profile(5). */
#ifndef PMUTOP_PROFILE_H
#define PMUTOP_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/facts.h"

struct expr;

/* FILTER_EVENT chooses which event a counter watches (BlueField's event<N>): its value
 * is an event number of the PMU's event field, named from the PMU's event list. */
enum filter_type { FILTER_FLAG, FILTER_MASK, FILTER_INT, FILTER_HEX, FILTER_BDF, FILTER_ENUM, FILTER_EVENT };

/* One value of an enum filter: a name and the terms it sets ("global=1"). */
struct prof_choice {
	char *name;
	char *terms; /* "" for a choice that sets nothing itself */
	char **uses; /* NULL-terminated: the group's other filters that count under it
		      * (HNS3's port mode uses port; func mode bdf), or NULL */
	char **needs; /* NULL-terminated: filters that must be set for the mode to be the
		       * driver's choice (func needs a BDF), or NULL */
	int line;
};

struct prof_filter {
	char *term;   /* the PMU format field it sets; an enum's own name (not a field) */
	enum filter_type type;
	char *title;
	char *enable; /* a companion flag term set to 1 whenever this filter is set (src_bdf_en) */
	bool has_default;
	uint64_t def; /* an enum: the index of its default choice */
	char *def_name; /* an enum's default as written, until its choices are known */
	int nchoices;
	struct prof_choice *choices; /* enum: its values, in the profile's order */
	char **events;  /* NULL-terminated: the events it applies to; NULL: every event */
	char *range;    /* "MIN..MAX", each a number or a PMU attribute (bdf_min..bdf_max, 0..7) */
	char **needs;   /* NULL-terminated: filters without which this one selects nothing the
			 * user meant (an address base without its mask matches everything) */
	char *accepts;  /* a PMU attribute listing the choices an event accepts, with {event}
			 * for the event's alias ("filtermode/{event}"); NULL: every choice */
	int line;
};

struct prof_event {
	char *name;  /* identifier in formulae: the alias with '-' turned into '_' */
	char *terms; /* what goes between the PMU's slashes, or a bare legacy name */
	bool optional;
	bool per_thread; /* counts alike on every CPU, with time (the TSC): a row of several
			  * CPUs reads one thread's count, their mean, not their sum */
	int line;
};

enum group_split { SPLIT_PMU, SPLIT_CPU };

struct prof_group {
	char *name;
	char *title;
	char *pmu_pattern; /* "nvidia_pcie_pmu_{socket}_rc_{rc}", "software", "cpu cpu_core" (any) */
	int nneeds;
	char **needs;      /* events a PMU must offer for the group to bind to it */
	int nlacks;
	char **lacks;      /* events a PMU must not offer (Ice Lake's perf metrics: no level 2) */
	char **when;       /* "ATTR" "VALUE"...: a PMU attribute that must hold one of the values
			    * (caps/pmu_name alderlake_hybrid: a core whose slot width is known);
			    * values are globs (midr_el1 0x0000000041?fd4f?) */
	char **unless;     /* the same, that must not hold (the generic variant of a family
			    * whose known members have groups of their own) */
	bool alternative;  /* one of several variants (TopDown per CPU family): not "missing" */
	char *alternative_to; /* ... or not missing where this group of the profile binds (the
			       * TSC's where arm64's generic timer does), else said missing */
	int alternative_group, alternative_line, alternative_col;
	bool *wanted;      /* under -M: per event, read by a chosen metric (NULL: every event) */
	bool hosts_perf;   /* a chosen metric of its is perf's (metric_delegate.c): bound, though it may read nothing */
	char *instance;    /* "socket{socket}/rc{rc}"; default: the PMU name */
	char *label;       /* how a row names an instance, "S{socket} RC{rc}"; default: instance */
	char *pci_rc;      /* "{socket} {rc}": the instance is this PCIe root complex */
	char *pci_bus;     /* "SEG:BUS" once expanded ({@die{socket}}): the instance is the
			    * PCI host bridge of this root bus (an Intel IIO stack) */
	char *per_bit;     /* "FILTER EVENT...": one more instance per root port (a bit of the
			    * mask FILTER), counting EVENTS with only its bit set */
	enum group_split split;
	bool aggregate_all, aggregate_socket;
	char *aggregate_suffix; /* appended to "all" and "socketN" (hybrid E-cores: "-ecores") */
	char *cpus_of;  /* per = cpu on only the CPUs of this PMU (a hybrid's msr per kind of core) */
	/* what the group's sums weigh where they blend with another group's sums of the same
	 * name (hybrid P- and E-cores: their slots), so "all" is every CPU; NULL: none */
	struct prof_formula *weight;
	char *blend_suffix; /* appended to its sums' names where they blend ("-pcores") */
	bool perf_group; /* open the events as one perf group (same time window) */
	char for_target; /* target = tasks ('t') or machine ('m'): bound only then; 0 always */
	int *sets;       /* perf's catalogue: per event, the (weak) perf group of its metrics it
			  * opens in, -1 alone (bind/event_groups.c); NULL: none */
	char *leader;    /* event that leads the perf group; default the first */
	char **per_thread; /* 'per_thread =': names of events that tick alike on every CPU */
	int per_thread_line, per_thread_col;
	int nevents;
	struct prof_event *events;
	int nnotes;
	char **notes;    /* PMU attribute files shown beside an instance ("peer") */
	int nattrs;
	char **attrs;    /* PMU attribute files usable in formulae ("hw_clk_freq", "caps/slots") */
	char **attr_ids; /* their names in formulae: '/' and '-' become '.' ("caps.slots") */
	int nfilters;
	struct prof_filter *filters;
	int nexclusive;
	char ***exclusive; /* NULL-terminated lists of filter terms of which at most one is set */
	char **exclusive_why; /* per list: the driver's words for the refusal, or NULL */
	int line;
};

/* How a metric is computed on the instances of one group. */
/* An event of another group a formula reads as GROUP.EVENT (perf's metrics that add a
 * second PMU's events: the M2M's directory updates to the CHAs'): the value is taken from
 * that group's instance of the same name (socket0, all), in slot group_nvars() + k. */
struct prof_import {
	char *name; /* "m2m.dir_update" */
	int group;  /* the other group (index in profile->groups): a formula may read several */
	int event;  /* in the other group */
};

/* A formula's inputs past its group's variables: up to this many imports (slot
 * group_nvars() + k), then the metrics it reads by name (group_nvars() + this + k). */
#define FORMULA_MAX_IMPORTS 32

struct prof_formula {
	char *group_name;
	int group; /* index in profile->groups */
	char *text;
	struct expr *expr;
	int ninputs;
	int *inputs; /* the group events the formula reads, found once at load */
	int nimports;
	struct prof_import *imports;
	int nrefs;
	int *refs;  /* metrics (indices in the profile) it reads by name, on the same instance */
	char *unit; /* from 'unit@GROUP' where this group's values are in another unit, or NULL */
	/* from 'threshold@GROUP': perf's MetricThreshold of this kind of core (a hybrid's
	 * P-cores read a metric its E-cores lack), else the metric's own */
	char *threshold_text;
	struct expr *threshold;
	int threshold_line, threshold_col;
	int line, col;
};

/* perf's MetricConstraint: how perf's metricgroup.c groups a metric's events. */
enum metric_constraint {
	CONSTRAINT_NONE,          /* one perf group (a weak one) */
	CONSTRAINT_NO_GROUP,      /* NO_GROUP_EVENTS: not grouped */
	CONSTRAINT_NO_GROUP_NMI,  /* NO_GROUP_EVENTS_NMI (NO_NMI_WATCHDOG): not while the NMI watchdog runs */
	CONSTRAINT_NO_GROUP_SMT,  /* NO_GROUP_EVENTS_SMT: not with SMT on */
};

struct prof_metric {
	char *name; /* "ucf.mem_read_bw" */
	/* forms[0] from 'formula' (group from 'group =' or the name's prefix); the others
	 * from 'formula@GROUP': one metric, computed per family (TopDown on Intel or Arm) */
	int nforms;
	struct prof_formula *forms;
	/* the forms' one unit: after binding, that of the forms that bound (metric_settle_unit) */
	char *unit;
	char *title;
	double scale; /* the value shown is the formula's times this (perf's ScaleUnit: 100 for
		       * a fraction shown in %); a formula reading it by name reads it unscaled */
	char **groups;      /* perf's MetricGroup names it belongs to (NULL-terminated), or NULL */
	char *description;  /* perf's BriefDescription, or NULL */
	char *perf_name;    /* perf's MetricName where it is no profile name ('%', ' '): -M takes it */
	/* 'perf =': perf's metrics (NULL-terminated, in order of preference) that are this one:
	 * where this CPU's catalogue defines one, its values are that one's (engine/delegate.c) */
	char **perf;
	const struct profile *perf_profile; /* delegated: the catalogue whose metric it is, or NULL */
	int perf_metric;                    /* ... that metric's index there */
	bool quiet; /* chosen only as a hand metric's definition: counted, shown under that name alone */
	char *threshold_text;     /* perf's MetricThreshold: past it, a bottleneck (metric_threshold.h) */
	enum metric_constraint constraint; /* perf's MetricConstraint */
	struct expr *threshold;   /* compiled, its variables the profile's metrics */
	int threshold_line, threshold_col;
	bool selected;      /* under -M: chosen, or read by a chosen one (profile.selecting) */
	bool asked;         /* ... chosen itself, not only read: one of perf's root metrics, which
			     * each make a perf group (bind/event_groups.c) */
	double max; /* bar scale; 0 = auto */
	bool has_alert;
	double alert; /* a value above it is drawn as an alarm (ECC errors above 0) */
	int line;
};

/* The perf group event e of g opens in (-1: on its own): a `grouped = yes` group is one,
 * perf's catalogue's have one per metric (prof_group.sets). */
static inline int group_event_set(const struct prof_group *g, int e)
{
	return g->perf_group ? 0 : g->sets ? g->sets[e] : -1;
}

/* Whether g's perf groups are weak (perf's metric groups: opened ungrouped where the PMU
 * refuses one, their events reading another group's counter where one has it), not a
 * profile's `grouped = yes` (kept whole: TopDown's slots group must be). */
static inline bool group_sets_weak(const struct prof_group *g)
{
	return !g->perf_group && g->sets;
}

/* The formula of m for the instances of group g (an index), or NULL. */
const struct prof_formula *metric_form(const struct prof_metric *m, int g);
int metric_form_index(const struct prof_metric *m, int g);

struct prof_pane {
	char *name;
	char *title;
	char *style; /* bars, table, stacked, values */
	int nmetrics;
	char **metrics;
	int ndetail;
	char **detail;  /* shown when the pane is expanded (TopDown level 2) */
	char *missing;  /* what to say when nothing binds ("TopDown unavailable: no core PMU") */
	char *letters;  /* one per metric then per detail metric, for monochrome stacked bars */
	bool hidden;    /* 'hidden = yes': not shown (nor counted) until setup shows it */
	bool off_machine; /* hidden, and none of its metrics binds here: not offered */
	bool tree_stands_in; /* binding nothing here, left out where perf's TopDown tree is drawn */
	char *instead_of; /* hidden: the pane of the profile it shows the figures of where that
			   * one binds nothing (Cores (Arm) for the x86 Cores pane), or NULL */
	int instead_of_line;
	int line;
	int metrics_line, detail_line; /* where 'metrics =' and 'detail =' were (last seen) */
};

struct profile {
	char *path;
	char *name;
	char *title;
	int nrequires;
	char **requires; /* PMU name globs: selected when any matches */
	bool fallback;   /* used when no other profile matches */
	bool always;     /* used on every machine, beside the others (its panes say what is missing) */
	char **when;     /* "cpuid" then its globs or ~regexes: only for those CPU models, or NULL */
	char **unless;   /* ... and not for these (perf's mapfile: the first line that names it) */
	bool header_only; /* from profile_load_header: no groups, metrics or panes read */
	int ngroups;
	struct prof_group *groups;
	int nmetrics;
	struct prof_metric *metrics;
	int *metric_order; /* metric indices, each after the metrics its formulae read */
	bool selecting;    /* -M chose some of its metrics (prof_metric.selected) */
	bool perf;         /* perf's catalogue's, for this CPU (catalog_perf_profile) */
	int npanes;
	struct prof_pane *panes;
};

/* Load and check a profile. On error returns NULL and prints every problem as
 * "FILE:LINE[:COL]: message" through diag_error(); *nerrors is set. */
struct profile *profile_load(const char *path, int *nerrors);
/* Its [profile] section alone (name, requires, always, fallback), read until the next
 * section and checked no further: which profiles apply, without compiling the others.
 * NULL, and nothing said, where that cannot be trusted (no [profile] first, an error in
 * it, a file that cannot be read): the caller loads it whole. */
struct profile *profile_load_header(const char *path);
/* The same from text held in memory (a recording's copy), messages naming path. */
struct profile *profile_load_text(const char *path, const char *text, int *nerrors);
void profile_free(struct profile *p);

/* Formula variable slots of a group: events first, then these (the interval, the CPUs
 * counted, then the machine's literals perf's metrics read: #smt_on, #num_packages, ...
 * machine/facts.h, in its order), then attrs. */
enum { VAR_ELAPSED_NS, VAR_ELAPSED_S, VAR_NCPUS, VAR_FACTS, VAR_NBUILTINS = VAR_FACTS + FACT_COUNT };
int group_nvars(const struct prof_group *g);
/* Does e, a formula of group g, read one of the machine's literals (#smt_on, ...)? */
bool group_expr_reads_facts(const struct prof_group *g, const struct expr *e);
int group_attr_slot(const struct prof_group *g, int attr_index);
const char *filter_type_name(enum filter_type t);
bool filter_type_parse(const char *s, enum filter_type *t);

/* Under the group's enum filters' current choices (their indexes in values), does filter
 * f count? A filter some choice 'uses' counts only under the choices that use it. */
bool filter_in_use(const struct prof_group *g, int f, const uint64_t *values, const bool *set);
/* Does filter f apply to event e of g (its events= list)? */
bool filter_applies(const struct prof_group *g, const struct prof_filter *f, int e);
/* Parse a filter value as the user writes it ("27:01.1", "0x2781", "0b11", "on", an
 * enum's choice name, which gives its index). */
bool filter_parse_value(const struct prof_filter *f, const char *text, uint64_t *out, char **err);

#endif
