/* SPDX-License-Identifier: GPL-2.0-only */
/* bind_blend.c - rows that blend two groups' sums into one of every CPU.
 *
 * A hybrid x86 CPU has two core PMUs, cpu_core and cpu_atom, whose TopDown formulae
 * differ (perf metrics over slots; five slots a cycle on Gracemont), so each is a group
 * with its own sums. A share of slots over every CPU is then each group's share weighted
 * by the slots it is of: sum(weight * value) / sum(weight), the same as summing the slot
 * counts would give. The blend holds no counters: the sampler computes it from its parts'
 * values and weights each frame. */
#include "bind/bind_blend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numtext.h"
#include "base/util.h"
#include "bind/instance.h"
#include "bind/state.h"

/* The name of a sum without its group's aggregate_suffix ("all-ecores": "all"). */
static void base_name(const struct instance *inst, char *buf, size_t len)
{
	str_copy(buf, len, inst->name);
	const char *suf = inst->group->aggregate_suffix;
	size_t n = strlen(buf), k = suf ? strlen(suf) : 0;
	if (k && n > k && !strcmp(buf + n - k, suf))
		buf[n - k] = '\0';
}

static bool blendable(const struct instance *inst, const struct profile *prof)
{
	return inst->profile == prof && inst->sum_kind && inst->group->weight && inst->group->weight->expr;
}

/* The sums, from i on, of other groups than those before them that share i's base name. */
static int find_parts(const struct session *s, int i, int last, const char *base, int *parts)
{
	int n = 0;
	for (int j = i; j < last && n < 8; j++) {
		char b[96];
		if (!blendable(&s->inst[j], s->inst[i].profile))
			continue;
		base_name(&s->inst[j], b, sizeof(b));
		bool seen = false;
		for (int k = 0; k < n; k++)
			seen |= s->inst[parts[k]].group == s->inst[j].group;
		if (!strcmp(b, base) && !seen)
			parts[n++] = j;
	}
	return n;
}

static void add_blend(struct session *s, int *cap, const char *base, const int *parts, int nparts)
{
	for (int k = 0; k < nparts; k++) { /* the blend takes the plain name */
		struct instance *p = &s->inst[parts[k]];
		if (strcmp(p->name, base))
			continue;
		char *named = xasprintf("%s%s%s", base, p->group->blend_suffix ? "" : "-",
					p->group->blend_suffix ? p->group->blend_suffix : p->group->name);
		free(p->name);
		p->name = named;
	}
	const struct instance first = s->inst[parts[0]]; /* a copy: instance_add moves the array */
	struct instance *b = instance_add(s, cap);
	b->profile = first.profile;
	b->group = first.group;
	b->name = xstrdup(base);
	b->socket = first.socket;
	if (b->socket >= 0) {
		char num[16];
		format_int(num, sizeof(num), b->socket);
		instance_add_label(b, "socket", num);
	}
	b->parts = xmalloc(sizeof(int) * (size_t)nparts);
	b->nparts = nparts;
	for (int k = 0; k < nparts; k++) {
		b->parts[k] = parts[k];
		const struct cpulist *cl = &s->inst[parts[k]].cpus;
		for (int c = 0; c < cl->n; c++)
			cpulist_add(&b->cpus, cl->cpu[c]);
	}
	instance_alloc_arrays(b);
	b->notes = xstrdup("");
}

void bind_blends(struct session *s, int *cap, struct profile *prof, int first)
{
	int last = s->ninstances;
	for (int i = first; i < last; i++) {
		if (!blendable(&s->inst[i], prof))
			continue;
		char base[96];
		base_name(&s->inst[i], base, sizeof(base));
		bool earlier = false; /* the first part of a name makes its blend */
		for (int j = first; j < i && !earlier; j++) {
			char b[96];
			base_name(&s->inst[j], b, sizeof(b));
			earlier = blendable(&s->inst[j], prof) && !strcmp(b, base);
		}
		int parts[8];
		int n = earlier ? 0 : find_parts(s, i, last, base, parts);
		if (n >= 2)
			add_blend(s, cap, base, parts, n);
	}
}

int *blend_value_parts(const struct session *s, int blend, int first_value)
{
	const struct instance *b = &s->inst[blend];
	int *slots = xmalloc(sizeof(int) * (size_t)b->nparts);
	for (int k = 0; k < b->nparts; k++) {
		slots[k] = -1;
		for (int v = first_value; v < s->nvalues && slots[k] < 0; v++)
			if (s->vinfo[v].instance == b->parts[k])
				slots[k] = v;
		if (slots[k] < 0) {
			free(slots);
			return NULL;
		}
	}
	return slots;
}
