/* SPDX-License-Identifier: GPL-2.0-only */
/* counter_share.c - one hardware counter per encoding and CPU. perf opens what each
 * metric asks for; two groups of pmutop's that count the same event on the same CPU (the
 * TopDown pane's and perf's TopdownL1 beside it) would take two counters, and on a core
 * with six both would count in turn. An event a group opens on its own (not in a perf
 * group, whose members must be scheduled together) reads instead the counter another
 * open group has for that encoding and CPUs: the same count, the partner's coverage. */
#include "bind/counter_share.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bind/state.h"
#include "machine/pmu.h"

/* An event of an instance, as the sort sees it. */
struct share_key {
	const struct instance *inst;
	int index; /* the instance's */
	int event;
	bool grouped; /* in a perf group of more than one event: it cannot read another's */
	const struct event_attr *attr; /* its first counter's: found once, not per comparison */
};

/* planned: no source is attached yet (--dry-run): every instance of a PMU is taken as
 * counted by one source that shares, as perf and the simulator do. */
static bool may_share(const struct instance *inst, bool planned)
{
	bool source_shares = planned ? inst->pmu && !pmu_is_pseudo(inst->pmu)
				     : inst->source && inst->source_shares;
	return source_shares && !inst->nmembers && !inst->nparts && !inst->unavailable && inst->ncounters &&
	       !inst->group->nfilters; /* filters would change the encodings */
}

static bool counted(const struct instance *inst, int e)
{
	return instance_counts_event(inst, e);
}

static const struct counter *first_counter(const struct instance *inst, int e)
{
	for (int c = 0; c < inst->ncounters; c++)
		if (inst->counters[c].event == e)
			return &inst->counters[c];
	return NULL;
}

/* Same encoding of the same PMU on the same CPUs through the same source (the instance
 * order last). The PMU too: a type number names one PMU on a kernel, not in every tree. */
static int cmp_encoding(const struct share_key *a, const struct share_key *b)
{
	if (a->inst->source != b->inst->source)
		return a->inst->source < b->inst->source ? -1 : 1;
	if (a->inst->pmu != b->inst->pmu)
		return a->inst->pmu < b->inst->pmu ? -1 : 1;
	const struct cpulist *ca = &a->inst->cpus, *cb = &b->inst->cpus;
	if (ca->n != cb->n)
		return ca->n < cb->n ? -1 : 1;
	int d = memcmp(ca->cpu, cb->cpu, sizeof(int) * (size_t)ca->n);
	if (d)
		return d;
	const struct event_attr *x = a->attr, *y = b->attr;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->exclude != y->exclude)
		return x->exclude < y->exclude ? -1 : 1;
	return memcmp(x->config, y->config, sizeof(x->config));
}

static int by_encoding(const void *pa, const void *pb)
{
	const struct share_key *a = pa, *b = pb;
	int d = cmp_encoding(a, b);
	if (d)
		return d;
	if (a->grouped != b->grouped) /* a group's counter first: the one to read */
		return a->grouped ? -1 : 1;
	return a->index != b->index ? (a->index < b->index ? -1 : 1) : a->event - b->event;
}

static struct event_share *add_share(struct instance *inst, int e, int first, int ncand)
{
	inst->shares = xrealloc(inst->shares, sizeof(*inst->shares) * (size_t)(inst->nshares + 1));
	struct event_share *sh = &inst->shares[inst->nshares++];
	*sh = (struct event_share){ e, first, ncand, -1, -1, NULL };
	return sh;
}

/* How many events inst counts in the perf group that must stay whole (a profile's
 * `grouped = yes`: all its events), 0 for none: perf's weak groups per metric are not
 * kept whole here. One counter per encoding comes first (two TopDown groups on six
 * counters would count in turn): their events another group counts read that counter,
 * the rest opening as their group. */
static int whole_group(const struct instance *inst)
{
	int n = 0;
	for (int e = 0; inst->group->perf_group && e < inst->group->nevents; e++)
		n += counted(inst, e);
	return n;
}

/* Whether event e opens in a perf group with another event that must stay whole (a
 * member never reads another group's counter: the kernel schedules a group whole). */
static bool grouped(const struct instance *inst, int whole, int e)
{
	return whole > 1 && group_event_set(inst->group, e) >= 0;
}

/* Whether some event is opened on its own at all (a single event, or not grouped):
 * where none is (the default demos), nothing may share and nothing is sorted. */
static bool any_alone(const struct session *s, bool planned)
{
	bool any = false;
	for (int i = 0; i < s->ninstances && !any; i++) {
		const struct instance *inst = &s->inst[i];
		if (!may_share(inst, planned))
			continue;
		int whole = whole_group(inst);
		for (int e = 0; e < inst->group->nevents && !any; e++)
			any = counted(inst, e) && !grouped(inst, whole, e);
	}
	return any;
}

/* Per PMU, whether instances of two groups may share its counters: only those are
 * sorted (perf's catalogue alone on a 144-CPU core PMU has a thousand counters and no
 * partner). NULL where no PMU has two; else per instance, true where its PMU has. */
static bool *pmus_of_two_groups(const struct session *s, bool planned)
{
	struct seen { const struct pmu *pmu; const struct prof_group *g; bool two; } *v = NULL;
	int n = 0;
	bool any = false;
	for (int i = 0; i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		if (!may_share(inst, planned))
			continue;
		int k = 0;
		while (k < n && v[k].pmu != inst->pmu)
			k++;
		if (k == n) {
			v = xrealloc(v, sizeof(*v) * (size_t)(n + 1));
			v[n++] = (struct seen){ inst->pmu, inst->group, false };
		}
		any |= v[k].two |= v[k].g != inst->group;
	}
	bool *two = NULL;
	for (int i = 0; any && i < s->ninstances; i++) {
		two = two ? two : xcalloc((size_t)s->ninstances, sizeof(bool));
		for (int k = 0; k < n && may_share(&s->inst[i], planned); k++)
			if (v[k].pmu == s->inst[i].pmu)
				two[i] = v[k].two;
	}
	free(v);
	return two;
}

static struct share_key *sorted_keys(const struct session *s, bool planned, int *nkeys)
{
	int n = 0, cap = 0;
	struct share_key *keys = NULL;
	bool *two = any_alone(s, planned) ? pmus_of_two_groups(s, planned) : NULL;
	for (int i = 0; two && i < s->ninstances; i++) {
		const struct instance *inst = &s->inst[i];
		if (!two[i])
			continue;
		int whole = whole_group(inst);
		for (int e = 0; e < inst->group->nevents; e++) {
			const struct counter *c = counted(inst, e) ? first_counter(inst, e) : NULL;
			if (!c)
				continue;
			grow_array(&keys, &cap, n + 1, sizeof(*keys));
			keys[n++] = (struct share_key){ inst, i, e, grouped(inst, whole, e), &c->attr };
		}
	}
	free(two);
	if (n > 1)
		qsort(keys, (size_t)n, sizeof(*keys), by_encoding);
	*nkeys = n;
	return keys;
}

/* Planned (--dry-run): in run order, an event on its own reads the first of the run before
 * it that counts on its own counter (and is another instance's); -1 where none does. The
 * first two such of distinct instances are all a run's later events can pick from. */
static void plan_run(struct session *s, const struct share_key *keys, int a, int b)
{
	int self[2] = { -1, -1 }; /* positions: the first counting alone, the first of another instance */
	for (int k = a; k < b; k++) {
		struct instance *inst = &s->inst[keys[k].index];
		if (inst->unavailable || !counted(inst, keys[k].event))
			continue;
		struct event_share *sh = NULL;
		for (int j = 0; !keys[k].grouped && j < inst->nshares && !sh; j++)
			sh = inst->shares[j].event == keys[k].event ? &inst->shares[j] : NULL;
		int pick = self[0] >= 0 && keys[self[0]].index != keys[k].index ? self[0] : self[1];
		if (sh && pick >= 0) {
			sh->partner = keys[pick].index;
			sh->partner_event = keys[pick].event;
			continue;
		}
		if (self[0] < 0)
			self[0] = k;
		else if (self[1] < 0 && keys[k].index != keys[self[0]].index)
			self[1] = k;
	}
}

/* Each run of one encoding stored once as the session's share_refs, in order of
 * preference (a group's counter first); an event on its own may read any of the run before
 * it of another instance (never one after it: no two read each other). */
static void find_shares(struct session *s, bool planned)
{
	for (int i = 0; i < s->ninstances; i++)
		counters_free_shares(&s->inst[i]);
	int n;
	struct share_key *keys = sorted_keys(s, planned, &n);
	free(s->share_refs);
	s->share_refs = n ? xmalloc(sizeof(*s->share_refs) * (size_t)n) : NULL;
	s->nshare_refs = n;
	for (int a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && !cmp_encoding(&keys[a], &keys[b]); b++)
			;
		for (int k = a; k < b; k++) {
			s->share_refs[k] = (struct share_ref){ keys[k].index, keys[k].event };
			bool other = false; /* a candidate of another instance before it */
			for (int j = a; j < k && !other; j++)
				other = keys[j].index != keys[k].index;
			if (!keys[k].grouped && other)
				add_share(&s->inst[keys[k].index], keys[k].event, a, k - a);
		}
		if (planned)
			plan_run(s, keys, a, b);
	}
	free(keys);
	free(s->sharers); /* the sampler visits these alone */
	s->sharers = NULL;
	s->nsharers = 0;
	for (int i = 0; i < s->ninstances; i++)
		if (s->inst[i].nshares) {
			s->sharers = xrealloc(s->sharers, sizeof(int) * (size_t)(s->nsharers + 1));
			s->sharers[s->nsharers++] = i;
		}
}

void counters_find_shares(struct session *s)
{
	find_shares(s, false);
}

void counters_plan_shares(struct session *s)
{
	find_shares(s, true);
}

int counters_planned_partner(const struct session *s, const struct instance *inst, int e)
{
	(void)s;
	for (int k = 0; k < inst->nshares; k++)
		if (inst->shares[k].event == e)
			return inst->shares[k].partner;
	return -1;
}

static bool shares(const struct instance *inst, int e)
{
	for (int k = 0; k < inst->nshares; k++)
		if (inst->shares[k].event == e && inst->shares[k].map)
			return true;
	return false;
}

bool instance_shares_event(const struct instance *inst, int e)
{
	return inst->nshares && shares(inst, e);
}

int instance_event_partner(const struct instance *inst, int e)
{
	for (int k = 0; k < inst->nshares; k++)
		if (inst->shares[k].event == e && inst->shares[k].map)
			return inst->shares[k].partner;
	return -1;
}

/* Each of inst's counters of the share's event, the partner's on the same CPU. */
static int *counter_map(const struct instance *inst, const struct instance *pt, const struct event_share *sh)
{
	int *map = xmalloc(sizeof(int) * (size_t)inst->ncounters);
	for (int c = 0; c < inst->ncounters; c++) {
		map[c] = -1;
		for (int d = 0; inst->counters[c].event == sh->event && d < pt->ncounters && map[c] < 0; d++)
			if (pt->counters[d].event == sh->partner_event && pt->counters[d].cpu == inst->counters[c].cpu)
				map[c] = d;
	}
	return map;
}

/* The candidate (a share_refs position) sh of inst would read now: the first of another
 * instance that is open and counts the event itself; -1 for none (it opens its own). With
 * every instance open that is the run's first: the walk is short. */
static int chosen_ref(const struct session *s, const struct instance *inst, const struct event_share *sh)
{
	for (int k = sh->first; k < sh->first + sh->ncand; k++) {
		const struct share_ref *r = &s->share_refs[k];
		const struct instance *pt = &s->inst[r->index];
		if (pt != inst && pt->opened && counted(pt, r->event) && !instance_shares_event(pt, r->event))
			return k;
	}
	return -1;
}

void counters_settle_shares(struct session *s, struct instance *inst)
{
	for (int k = 0; k < inst->nshares; k++) {
		free(inst->shares[k].map);
		inst->shares[k].map = NULL;
	}
	for (int k = 0; k < inst->nshares; k++) {
		struct event_share *sh = &inst->shares[k];
		int r = chosen_ref(s, inst, sh);
		sh->partner = r < 0 ? -1 : s->share_refs[r].index;
		sh->partner_event = r < 0 ? -1 : s->share_refs[r].event;
		if (r >= 0)
			sh->map = counter_map(inst, &s->inst[sh->partner], sh);
	}
}

void counters_copy_shared(struct session *s, struct instance *inst)
{
	for (int k = 0; k < inst->nshares; k++) {
		const struct event_share *sh = &inst->shares[k];
		if (!sh->map)
			continue;
		const struct instance *pt = &s->inst[sh->partner];
		for (int c = 0; c < inst->ncounters; c++)
			if (sh->map[c] >= 0) {
				if (pt->opened)
					inst->counters[c].read = pt->counters[sh->map[c]].read;
				else
					counter_read_failed(&inst->counters[c]);
			}
	}
}

bool counters_shares_stale(const struct session *s, const struct instance *inst)
{
	for (int k = 0; k < inst->nshares; k++) {
		const struct event_share *sh = &inst->shares[k];
		int r = chosen_ref(s, inst, sh);
		if (r < 0 ? sh->map != NULL
			  : !sh->map || s->share_refs[r].index != sh->partner || s->share_refs[r].event != sh->partner_event)
			return true;
	}
	return false;
}

void counters_free_shares(struct instance *inst)
{
	for (int k = 0; k < inst->nshares; k++)
		free(inst->shares[k].map);
	free(inst->shares);
	inst->shares = NULL;
	inst->nshares = 0;
}
