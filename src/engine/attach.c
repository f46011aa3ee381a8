/* SPDX-License-Identifier: GPL-2.0-only */
/* attach.c - which source counts each instance (the first that claims it), and opening
 * an instance on it. */
#include "engine/attach.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "bind/counter_share.h"
#include "bind/event_groups.h"
#include "bind/state.h"
#include "engine/frame.h"
#include "engine/source.h"

void session_add_source(struct session *s, struct source *src)
{
	s->sources = xrealloc(s->sources, sizeof(*s->sources) * (size_t)(s->nsources + 1));
	s->sources[s->nsources++] = src;
}

/* Does the instance count only the kernel's generic events (PERF_TYPE_HARDWARE, _HW_CACHE:
 * "cycles", "LLC-load-misses"), which a PMU may map to nothing? */
static bool generic_events_only(const struct instance *inst)
{
	for (int c = 0; c < inst->ncounters; c++)
		if (inst->counters[c].attr.type != 0 && inst->counters[c].attr.type != 3)
			return false;
	return inst->ncounters > 0;
}

void session_open_instance(struct session *s, struct instance *inst)
{
	if (inst->unavailable || inst->nmembers || !inst->ncounters || !inst->source)
		return;
	free(inst->open_error);
	inst->open_error = NULL;
	inst->open_errno = 0;
	for (int c = 0; c < inst->ncounters; c++) {
		inst->counters[c].kind = COUNTER_CUMULATIVE;
		inst->counters[c].width = 64;
		inst->counters[c].takes_turns = false;
		inst->counters[c].mem = (struct counter_memory){ 0 };
	}
	if (inst->nshares)
		counters_settle_shares(s, inst);
	inst->open_refused_set = -1;
	int r = inst->source->ops->open(inst->source, inst);
	while (r < 0 && instance_refuse_weak_group(inst)) { /* perf's weak group: again, that group ungrouped */
		free(inst->open_error);
		inst->open_error = NULL;
		r = inst->source->ops->open(inst->source, inst);
	}
	inst->opened = r == 0;
	if (r < 0) {
		inst->open_errno = -r;
		if (!inst->open_error)
			inst->open_error = xasprintf("cannot open: %s", strerror(-r));
		if ((r == -ENOENT || r == -EOPNOTSUPP) && (inst->absent || generic_events_only(inst))) {
			/* perf's <not supported>: the kernel maps this generic event to nothing on
			 * this PMU (AMD's LLC-load-misses), or the source says its events are not
			 * there (a replay's recording lacks them): not a failure */
			inst->unavailable = inst->open_error;
			inst->open_error = NULL;
			inst->absent = true;
		}
	}
}

/* How often a gone device is tried again: often enough to see it back within a few
 * refreshes, rarely enough that a PMU gone for good costs nothing noticeable. */
#define GONE_RETRY_NS 2000000000ull

void session_instance_gone(struct session *s, struct instance *inst, int err, uint64_t now_ns)
{
	(void)s;
	inst->gone = true; /* first: a source need not restore what is no longer there */
	inst->source->ops->close(inst->source, inst);
	inst->opened = false;
	inst->retry_ns = now_ns + GONE_RETRY_NS;
	free(inst->open_error);
	inst->open_error = xasprintf("gone: %s stopped answering (%s); trying again every %llu s",
				     inst->pmu ? inst->pmu->name : inst->name, strerror(err),
				     (unsigned long long)(GONE_RETRY_NS / 1000000000ull));
	inst->open_errno = err;
}

int session_retry_gone(struct session *s, uint64_t now_ns)
{
	int still = 0;
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (!inst->gone)
			continue;
		still++;
		if (now_ns < inst->retry_ns)
			continue;
		char *said = inst->open_error; /* kept while it stays gone */
		inst->open_error = NULL;
		session_open_instance(s, inst);
		if (!inst->opened) {
			free(inst->open_error);
			inst->open_error = said;
			inst->retry_ns = now_ns + GONE_RETRY_NS;
			continue;
		}
		free(said);
		inst->gone = false;
		still--;
		/* back: this read primes the counters, the next interval is the first whole one */
		inst->source->ops->read(inst->source, inst, now_ns);
		counters_copy_shared(s, inst);
		for (int c = 0; c < inst->ncounters; c++) {
			struct counter *ct = &inst->counters[c];
			counter_prime(ct, true);
			counter_reopened(ct);
		}
		inst->skip_next = true;
	}
	return still;
}

/* Which source counts each instance: the first that claims it. */
void session_assign_sources(struct session *s)
{
	size_t cap = 16, len = 0;
	char *kinds = xcalloc(1, cap);
	for (int i = 0; i < s->ninstances; i++) {
		struct instance *inst = &s->inst[i];
		if (inst->nmembers || !inst->pmu)
			continue;
		for (int k = 0; k < s->nsources && !inst->source; k++) {
			struct source *src = s->sources[k];
			if (!src->ops->claims || src->ops->claims(src, inst)) {
				inst->source = src;
				inst->source_shares = src->ops->shares_counters;
			}
		}
		if (!inst->source && !inst->unavailable)
			inst->unavailable = xasprintf("no counter source in this session counts %s", inst->pmu->name);
	}
	for (int k = 0; k < s->nsources; k++) {
		bool used = false;
		for (int i = 0; i < s->ninstances && !used; i++)
			used = s->inst[i].source == s->sources[k];
		const char *kind = s->sources[k]->ops->kind;
		if (!used && (s->nsources > 1 || !kind))
			continue;
		if (len && strstr(kinds, kind))
			continue;
		size_t n = strlen(kind) + 2;
		if (len + n > cap)
			kinds = xrealloc(kinds, cap = (len + n) * 2);
		len += (size_t)snprintf(kinds + len, cap - len, "%s%s", len ? "+" : "", kind);
	}
	free(s->source_kinds);
	s->source_kinds = kinds;
	s->frames[0].source = s->frames[1].source = kinds;
}

