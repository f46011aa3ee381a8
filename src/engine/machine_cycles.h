/* SPDX-License-Identifier: GPL-2.0-only */
/* machine_cycles.h - the cycles the machine's CPUs ran over a frame's interval, from the
 * session's own counters, for a task's or cgroup's share of them. */
#ifndef PMUTOP_MACHINE_CYCLES_H
#define PMUTOP_MACHINE_CYCLES_H

struct frame;
struct session;

/* The sum over every CPU a core PMU counts of one counter of its cycles (perf's generic
 * cycles, or the core PMU's event the kernel maps it to), where the session counts them
 * on each of those CPUs and each counted this interval; else NAN. */
double session_machine_cycles(struct session *s, const struct frame *f);
void session_machine_cycles_free(struct session *s);

#endif
