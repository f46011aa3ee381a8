/* SPDX-License-Identifier: GPL-2.0-only */
/* facts.h - what perf's metrics read of the machine as literals (#smt_on, #num_packages,
 * ...), found below the machine's root as perf finds them (tools/perf/util/expr.c,
 * cputopo.c, smt.c, arch/x86/util/tsc.c). */
#ifndef PMUTOP_FACTS_H
#define PMUTOP_FACTS_H

struct machine;
struct cpulist;

enum machine_fact {
	FACT_NUM_CPUS,        /* #num_cpus: the highest present CPU + 1 */
	FACT_NUM_CPUS_ONLINE, /* #num_cpus_online */
	FACT_NUM_PACKAGES,    /* #num_packages: distinct package_cpus_list of online CPUs */
	FACT_NUM_DIES,        /* #num_dies: distinct die_cpus_list (x86 only, as perf; else 0) */
	FACT_NUM_CORES,       /* #num_cores: distinct core_cpus_list */
	FACT_SMT_ON,          /* #smt_on: smt/active, else a core listing two CPUs */
	FACT_CORE_WIDE,       /* #core_wide: pmutop counts every online CPU, so 1 (perf -a) */
	FACT_TSC_FREQ,        /* #system_tsc_freq: Intel's, in Hz; NAN where none is known */
	FACT_HAS_PMEM,        /* #has_pmem: an ACPI NFIT table */
	FACT_COUNT
};

/* The literal's name as perf's metrics write it ("#smt_on"). */
const char *machine_fact_name(enum machine_fact f);

/* Every fact of machine m (NAN where it cannot be known), into out[FACT_COUNT]. On the
 * live root the TSC's frequency comes from CPUID leaf 0x15 where it enumerates one, as
 * perf's; elsewhere from proc/cpuinfo's "model name ... @ 2.10GHz". */
void machine_facts_read(const struct machine *m, double *out); /* read once a machine */

/* The same for a row that stands for the online CPUs of cpus (a socket, a kind of core):
 * #num_cpus, #num_cpus_online, #num_packages, #num_dies and #num_cores count those CPUs'
 * own; the others are the machine's (pmutop-profile(5), "Rows of many CPUs"). */
void machine_facts_of_cpus(const struct machine *m, const struct cpulist *cpus, double *out);

/* What the facts were read from, to keep in a recording: the facts, and per CPU below
 * m->max_cpu its package's, die's and core's ids (-1: not online), 3 ints a CPU. */
const double *machine_facts_all(const struct machine *m, const int **topo);
/* A replay's: the recorded machine's facts and ids (as machine_facts_all gave them), so
 * its literals are the recorded machine's, not the files below a root that is not there. */
void machine_facts_set(struct machine *m, const double *facts, const int *topo);

#endif
