/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_values.h - the value slots of a bound session (bind_values.c). */
#ifndef PMUTOP_BIND_VALUES_H
#define PMUTOP_BIND_VALUES_H

struct session;

/* One value slot per metric and instance that has it (s->vinfo), each metric after the
 * metrics it reads; the scratch its formulae need beyond their instance's variables. */
void bind_values(struct session *s);
/* The machine's literals (#smt_on, #num_packages, ...) into every instance's variables,
 * where a bound formula reads one (machine/facts.h). */
void bind_facts(struct session *s);

#endif
