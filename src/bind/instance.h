/* SPDX-License-Identifier: GPL-2.0-only */
/* instance.h - making the instances binding and blending add to a session. */
#ifndef PMUTOP_INSTANCE_H
#define PMUTOP_INSTANCE_H

struct session;
struct instance;

/* A new, empty instance at the end of s->inst (*cap: the array's capacity). */
struct instance *instance_add(struct session *s, int *cap);
/* Adds label KEY=VALUE unless the instance has KEY already. */
void instance_add_label(struct instance *inst, const char *key, const char *value);
/* The group's attrs (hw_clk_freq) read from its PMU's files into the instance's variables. */
void instance_read_attrs(struct instance *inst);
/* The per-event and per-filter arrays of an instance of inst->group, filters at their defaults. */
void instance_alloc_arrays(struct instance *inst);

#endif
