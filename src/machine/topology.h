/* SPDX-License-Identifier: GPL-2.0-only */
/* topology.h - each CPU's core (its SMT siblings) and NUMA node, for perf stat's
 * --per-core and --per-node; read only when asked. */
#ifndef PMUTOP_TOPOLOGY_H
#define PMUTOP_TOPOLOGY_H

struct machine;

/* The core of each CPU (the lowest CPU of its core_cpus_list, or thread_siblings_list on
 * kernels before 5.7: the CPU itself where neither is) and its node (the nodeN whose
 * cpulist names it: the CPU's socket where no node lists it, as on a tree without
 * them or a replay), indexed by CPU number; malloc'd, m->max_cpu long. */
int *machine_cores(const struct machine *m);
int *machine_nodes(const struct machine *m);

#endif
