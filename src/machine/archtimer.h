/* SPDX-License-Identifier: GPL-2.0-only */
/* archtimer.h - Arm's generic timer as a PMU of the live machine: what an arm64 host
 * offers in place of x86's TSC without any PMU (the counter CNTVCT_EL0, ticking at
 * CNTFRQ_EL0, both readable by user space as the kernel sets them up for the vDSO). */
#ifndef PMUTOP_ARCHTIMER_H
#define PMUTOP_ARCHTIMER_H

#include <stdint.h>

struct machine;

/* On a live arm64 machine (root "/"), add the PMU "arch_timer": one event, "ticks", and
 * the attribute "frequency" (Hz). Elsewhere nothing: another tree's timer is not this
 * CPU's, and x86 has the TSC. *cap: the machine's PMU array capacity. */
void archtimer_discover(struct machine *m, int *cap);
/* The counter now, or 0 where there is none (not arm64). */
uint64_t archtimer_ticks(void);

#endif
