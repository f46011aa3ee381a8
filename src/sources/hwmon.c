/* SPDX-License-Identifier: GPL-2.0-only */
/* hwmon.c - BlueField's bfperf blocks as a counter source.
 *
 * A counter block is programmed by writing event numbers to event<N> and read from
 * counter<N>; a block with 'enable' (l3cache, BlueField-3's CRSPACE) is programmed whole
 * and then enabled, which clears its counters. When an instance asks for more events
 * than the block has counters, the events are split into sets that take turns, one whole
 * refresh interval each (never two sets in one delta): the source keeps each event's
 * count and the time it ran, and the sampler scales as for perf multiplexing. What every
 * event<N> and enable held at start is restored at close, which every exit path reaches
 * (the run loop turns SIGINT/SIGTERM/SIGHUP into a normal exit). Register blocks (pcie,
 * ecc, clock_measure) are read by name. Numbers are written, never names: event_list
 * names may end with a blank the driver's own lookup does not expect. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/util.h"
#include "engine/session.h"
#include "machine/bfperf.h"
#include "sources/hwmon_io.h"
#include "sources/sources.h"

/* What a block's event<N> and enable held before pmutop first programmed it: kept for the
 * source's life, so a block that went away and came back (still holding our programming)
 * is put back as the user had it, not as we left it. */
struct block_originals {
	const struct pmu *pmu;
	int nslots;
	char (*event)[32];
	char enable[8];
};

struct hwmon_source {
	struct hwmon_io *io;
	int nclaimed;
	const struct instance **claimed; /* one instance per block: counters are not shared */
	int noriginals;
	struct block_originals *originals;
};

struct hw_event {
	int counter;     /* index in inst->counters */
	uint64_t number; /* the event number written to event<N> */
	const char *register_name; /* a REGISTER block's file */
	uint64_t acc, ran; /* rotation: count and ns it ran, over every turn */
};

struct hw_inst {
	const struct pmu *pmu;
	int nslots;
	char (*saved)[32];  /* what event<N> held at start ("0x45"), "" if unknown */
	bool *touched;      /* event<N> written by us */
	char saved_enable[8];
	bool enable_touched;
	int nev;
	struct hw_event *ev;
	int nsets, cur;
	uint64_t open_ns, set_ns;
};

static struct hwmon_source *priv_of(struct source *src)
{
	return src->priv;
}

static int hw_write(struct source *src, struct instance *inst, const char *file, const char *text)
{
	struct hw_inst *h = inst->priv;
	int r = priv_of(src)->io->ops->write(priv_of(src)->io, h->pmu, file, text);
	if (r < 0 && !inst->open_error)
		inst->open_error = xasprintf("%s/%s: writing '%s' failed: %s", h->pmu->hw->block, file, text, strerror(-r));
	return r;
}

static int hw_read(struct source *src, const struct hw_inst *h, const char *file, char *buf, size_t len)
{
	return priv_of(src)->io->ops->read(priv_of(src)->io, h->pmu, file, buf, len);
}

/* "0x45: HNF_REQUESTS" -> "0x45"; "" when the driver could not say. */
static void parse_programmed(const char *text, char out[32])
{
	out[0] = '\0';
	const char *colon = strchr(text, ':');
	uint64_t v;
	char num[32];
	if (!colon || colon - text >= (int)sizeof(num))
		return;
	memcpy(num, text, (size_t)(colon - text));
	num[colon - text] = '\0';
	if (parse_u64(trim(num), &v))
		snprintf(out, 32, "0x%llx", (unsigned long long)v);
}

/* Program set s: each event of the set on its counter, then start them. */
static int program_set(struct source *src, struct instance *inst, int s)
{
	struct hw_inst *h = inst->priv;
	const struct hw_block *b = h->pmu->hw;
	for (int k = s * h->nslots, slot = 0; k < h->nev && slot < h->nslots; k++, slot++) {
		char file[32], num[32];
		snprintf(file, sizeof(file), "event%d", slot);
		snprintf(num, sizeof(num), "0x%llx", (unsigned long long)h->ev[k].number);
		int r = hw_write(src, inst, file, num);
		h->touched[slot] |= r == 0; /* a store the driver refused changed nothing */
		if (r < 0)
			return -1;
		if (!b->has_enable) { /* the driver clears it on programming; a copy needs the reset */
			snprintf(file, sizeof(file), "counter%d", slot);
			if (hw_write(src, inst, file, "0") < 0)
				return -1;
		}
	}
	if (b->has_enable) { /* programming stopped them all; enabling clears and starts */
		h->enable_touched = true;
		if (hw_write(src, inst, "enable", "1") < 0)
			return -1;
	}
	return 0;
}

static void restore(struct source *src, struct instance *inst)
{
	struct hw_inst *h = inst->priv;
	for (int slot = 0; slot < h->nslots; slot++) {
		if (!h->touched[slot])
			continue;
		char file[32];
		snprintf(file, sizeof(file), "event%d", slot);
		/* an event the driver could not name is stopped, as its documentation says */
		const char *orig = h->saved[slot][0] ? h->saved[slot] : "0xff";
		int r = priv_of(src)->io->ops->write(priv_of(src)->io, h->pmu, file, orig);
		if (r < 0)
			diag_warn("%s/%s: restoring '%s' failed: %s", h->pmu->dir, file, orig, strerror(-r));
	}
	if (h->enable_touched && h->saved_enable[0]) {
		int r = priv_of(src)->io->ops->write(priv_of(src)->io, h->pmu, "enable", h->saved_enable);
		if (r < 0)
			diag_warn("%s/enable: restoring '%s' failed: %s", h->pmu->dir, h->saved_enable, strerror(-r));
	}
}

static void forget(struct hwmon_source *hs, const struct instance *inst)
{
	for (int i = 0; i < hs->nclaimed; i++)
		if (hs->claimed[i] == inst)
			hs->claimed[i] = hs->claimed[--hs->nclaimed];
}

static void free_hw(struct hw_inst *h)
{
	if (!h)
		return;
	free(h->saved);
	free(h->touched);
	free(h->ev);
	free(h);
}

static bool hw_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && inst->pmu->hw;
}

/* The events the instance counts, checked against the block's tables. */
static int collect_events(struct instance *inst, struct hw_inst *h)
{
	const struct pmu *p = h->pmu;
	h->ev = xcalloc((size_t)(inst->ncounters ? inst->ncounters : 1), sizeof(*h->ev));
	for (int c = 0; c < inst->ncounters; c++) {
		struct counter *ct = &inst->counters[c];
		if (!instance_counts_event(inst, ct->event))
			continue;
		uint64_t n = ct->attr.config[0] & 0xffffffffu;
		struct hw_event *e = &h->ev[h->nev];
		e->counter = c;
		e->number = n;
		if (p->hw->type == HW_REGISTER) {
			e->register_name = pmu_event_name(p, n);
			if (!e->register_name) {
				inst->open_error = xasprintf("%s has no register number %llu", p->hw->block, (unsigned long long)n);
				return -ENOENT;
			}
		} else if (!bfperf_event_known(p, n)) {
			inst->open_error = xasprintf("%s: event 0x%llx is not in its event_list", p->hw->block,
						     (unsigned long long)n);
			return -ENOENT;
		}
		ct->kind = p->hw->gauge ? COUNTER_GAUGE : COUNTER_CUMULATIVE;
		ct->width = 64;
		h->nev++;
	}
	return 0;
}

/* h->saved and saved_enable: the block's originals, read at its first open. */
static void save_originals(struct source *src, struct hw_inst *h)
{
	struct hwmon_source *hs = priv_of(src);
	for (int i = 0; i < hs->noriginals; i++) {
		struct block_originals *o = &hs->originals[i];
		if (o->pmu == h->pmu && o->nslots == h->nslots) {
			memcpy(h->saved, o->event, sizeof(*h->saved) * (size_t)h->nslots);
			memcpy(h->saved_enable, o->enable, sizeof(h->saved_enable));
			return;
		}
	}
	for (int slot = 0; slot < h->nslots; slot++) {
		char file[32], buf[160];
		snprintf(file, sizeof(file), "event%d", slot);
		if (hw_read(src, h, file, buf, sizeof(buf)) >= 0)
			parse_programmed(buf, h->saved[slot]);
	}
	if (h->pmu->hw->has_enable) {
		char buf[16];
		if (hw_read(src, h, "enable", buf, sizeof(buf)) >= 0)
			str_copy(h->saved_enable, sizeof(h->saved_enable), trim(buf));
	}
	hs->originals = xrealloc(hs->originals, sizeof(*hs->originals) * (size_t)(hs->noriginals + 1));
	struct block_originals *o = &hs->originals[hs->noriginals++];
	o->pmu = h->pmu;
	o->nslots = h->nslots;
	o->event = xmalloc(sizeof(*o->event) * (size_t)h->nslots);
	memcpy(o->event, h->saved, sizeof(*h->saved) * (size_t)h->nslots);
	memcpy(o->enable, h->saved_enable, sizeof(o->enable));
}

static int hw_open(struct source *src, struct instance *inst)
{
	struct hwmon_source *hs = priv_of(src);
	for (int i = 0; i < hs->nclaimed; i++)
		if (hs->claimed[i]->pmu == inst->pmu) {
			inst->open_error = xasprintf("%s is already counted by %s: a block's counters serve one group",
						     inst->pmu->hw->block, hs->claimed[i]->group->name);
			return -EBUSY;
		}
	struct hw_inst *h = xcalloc(1, sizeof(*h));
	const struct hw_block *b = inst->pmu->hw;
	h->pmu = inst->pmu;
	h->open_ns = h->set_ns = src->now_ns;
	inst->priv = h;
	int r = collect_events(inst, h);
	if (r < 0 || b->type == HW_REGISTER)
		goto done;
	h->nslots = b->ncounters;
	if (!h->nslots) {
		inst->open_error = xasprintf("%s has no counter<N> files to count with", b->block);
		r = -ENODEV;
		goto done;
	}
	h->saved = xcalloc((size_t)h->nslots, sizeof(*h->saved));
	h->touched = xcalloc((size_t)h->nslots, sizeof(bool));
	save_originals(src, h);
	h->nsets = (h->nev + h->nslots - 1) / h->nslots;
	for (int k = 0; k < h->nev; k++) {
		struct counter *ct = &inst->counters[h->ev[k].counter];
		ct->takes_turns = h->nsets > 1;
		ct->width = h->nsets > 1 ? 64 : b->width; /* a turn starts from zero: the source adds up */
	}
	if (h->nev && program_set(src, inst, 0) < 0) {
		r = -EIO;
		restore(src, inst);
	}
done:
	if (r < 0) {
		free_hw(h);
		inst->priv = NULL;
		return r;
	}
	hs->claimed = xrealloc(hs->claimed, sizeof(*hs->claimed) * (size_t)(hs->nclaimed + 1));
	hs->claimed[hs->nclaimed++] = inst;
	return 0;
}

static bool read_value(struct source *src, const struct hw_inst *h, const char *file, uint64_t *v)
{
	char buf[64];
	return hw_read(src, h, file, buf, sizeof(buf)) >= 0 && parse_u64(trim(buf), v);
}

static int hw_read_instance(struct source *src, struct instance *inst, uint64_t now_ns)
{
	struct hw_inst *h = inst->priv;
	struct hwmon_io *io = priv_of(src)->io;
	if (io->ops->advance)
		io->ops->advance(io, now_ns);
	uint64_t since_open = now_ns - h->open_ns;
	if (h->nsets <= 1) { /* registers, or every event on its own counter */
		int ok = 0;
		for (int k = 0; k < h->nev; k++) {
			struct counter *ct = &inst->counters[h->ev[k].counter];
			char file[32];
			if (!h->ev[k].register_name)
				snprintf(file, sizeof(file), "counter%d", k);
			uint64_t v;
			if (!read_value(src, h, h->ev[k].register_name ? h->ev[k].register_name : file, &v)) {
				counter_read_failed(ct);
				continue;
			}
			ok++;
			if (ct->kind == COUNTER_GAUGE)
				counter_read_level(ct, (double)v);
			else
				counter_read_count(ct, v, since_open, since_open);
		}
		return h->nev && !ok ? -ENODEV : 0; /* no file answered: the block is gone */
	}
	/* rotation: the set that ran since set_ns is read whole, then the next takes over
	 * (not after a turn of no time: the priming read at start) */
	uint64_t ran = now_ns - h->set_ns;
	if (!ran) {
		for (int k = 0; k < h->nev; k++) { /* nothing ran yet: the totals so far */
			struct counter *ct = &inst->counters[h->ev[k].counter];
			counter_read_count(ct, h->ev[k].acc, since_open, h->ev[k].ran);
		}
		return 0;
	}
	int ok = 0, slot = 0;
	for (int k = h->cur * h->nslots; k < h->nev && slot < h->nslots; k++, slot++) {
		char file[32];
		uint64_t v;
		snprintf(file, sizeof(file), "counter%d", slot);
		if (read_value(src, h, file, &v)) {
			h->ev[k].acc += v;
			h->ev[k].ran += ran;
			ok++;
		}
	}
	if (slot && !ok)
		return -ENODEV; /* no counter file answered: the block is gone */
	for (int k = 0; k < h->nev; k++) {
		struct counter *ct = &inst->counters[h->ev[k].counter];
		counter_read_count(ct, h->ev[k].acc, since_open, h->ev[k].ran);
	}
	h->cur = (h->cur + 1) % h->nsets;
	h->set_ns = now_ns;
	if (program_set(src, inst, h->cur) < 0)
		return -EIO;
	return 0;
}

static void hw_close(struct source *src, struct instance *inst)
{
	struct hw_inst *h = inst->priv;
	if (!h)
		return;
	if (h->nslots && !inst->gone) /* a block gone away has nothing to restore */
		restore(src, inst);
	forget(priv_of(src), inst);
	free_hw(h);
	inst->priv = NULL;
}

static void hw_destroy(struct source *src)
{
	struct hwmon_source *hs = priv_of(src);
	hwmon_io_destroy(hs->io);
	for (int i = 0; i < hs->noriginals; i++)
		free(hs->originals[i].event);
	free(hs->originals);
	free(hs->claimed);
	free(hs);
	free(src);
}

static const struct source_ops hwmon_ops = {
	.kind = "hwmon",
	.claims = hw_claims,
	.open = hw_open,
	.read = hw_read_instance,
	.close = hw_close,
	.destroy = hw_destroy,
};

struct source *source_hwmon_new(const struct machine *m, struct hwmon_io *io)
{
	struct source *s = xcalloc(1, sizeof(*s));
	struct hwmon_source *hs = xcalloc(1, sizeof(*hs));
	hs->io = io;
	s->ops = &hwmon_ops;
	s->machine = m;
	s->priv = hs;
	return s;
}
