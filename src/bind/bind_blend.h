/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_blend.h - rows that blend two groups' sums of the same CPUs' kinds (a hybrid's
 * P- and E-cores) into one that is every CPU. */
#ifndef PMUTOP_BIND_BLEND_H
#define PMUTOP_BIND_BLEND_H

struct session;
struct profile;
struct instance;

/* After prof's groups are bound (its instances from first on): where sums of two or
 * more groups with a weight share a name ("all", "socket0", less each group's
 * aggregate_suffix), adds a blend of them under that name; a part that had the name
 * takes its group's blend_suffix. */
void bind_blends(struct session *s, int *cap, struct profile *prof, int first);

/* The value slots, among this metric's from first_value on, of each of the blend's
 * parts (malloc'd, inst->nparts of them), or NULL where a part has no such value (the
 * metric is not the same for every CPU: E-cores have no TopDown level 2). */
int *blend_value_parts(const struct session *s, int blend, int first_value);

#endif
