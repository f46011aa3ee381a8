/* SPDX-License-Identifier: GPL-2.0-only */
/* archtimer.c - Arm's generic timer as a PMU of the live machine (archtimer.h). */
#include "machine/archtimer.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "machine/pmu.h"

/* The registers, where this is arm64 (EL0 may read both: CNTKCTL_EL1.EL0VCTEN, which
 * Linux sets for its vDSO); the isb keeps the read from running ahead of the code
 * before it. */
static uint64_t timer_frequency(void)
{
#if defined(__aarch64__)
	uint64_t v;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
#else
	return 0;
#endif
}

uint64_t archtimer_ticks(void)
{
#if defined(__aarch64__)
	uint64_t v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
#else
	return 0;
#endif
}

void archtimer_discover(struct machine *m, int *cap)
{
	uint64_t hz = timer_frequency();
	if (strcmp(m->root, "/") || !hz || machine_find_pmu(m, "arch_timer"))
		return;
	struct pmu p = { .name = xstrdup("arch_timer"), .dir = xstrdup(""), .type = -1, .timer = true };
	pmu_set_only_event(&p, "ticks", 1, NULL);
	p.attrs = xcalloc(1, sizeof(*p.attrs));
	p.attrs[p.nattrs++] = (struct pmu_attr){ xstrdup("frequency"), xasprintf("%llu", (unsigned long long)hz) };
	/* one counter for the machine: the system counter is the same on every CPU */
	cpulist_add(&p.cpus, m->online.n ? m->online.cpu[0] : 0);
	cpulist_copy(&p.associated, &p.cpus);
	grow_array(&m->pmus, cap, m->npmus + 1, sizeof(*m->pmus));
	m->pmus[m->npmus++] = p;
}
