/* SPDX-License-Identifier: GPL-2.0-only */
/* hwmon_sim.c - the mlxbf-pmc driver simulated in memory, for the demos and --sim.
 *
 * It starts from what the tree's files hold and answers reads and writes as the driver
 * does: event<N> takes a number (or a name) from the block's table and restarts its
 * counter (a block with 'enable' stops them all instead); counter<N> takes only 0, and
 * not at all in an l3cache block; enable=1 clears and starts, 0 stops; counters wrap at
 * their width (32 bits in CRSPACE blocks); register blocks count by themselves. Counts
 * follow the traffic model's rates for the block's PMU name ("bfperf_tile0"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "base/util.h"
#include "machine/bfperf.h"
#include "machine/pmu.h"
#include "sources/hwmon_io.h"
#include "sim/simmodel.h"

#define NO_EVENT UINT64_MAX

struct sim_block {
	const struct pmu *pmu;
	const struct sim_section *sec;
	int nslots;         /* counters, or registers (one per alias) */
	uint64_t *event;    /* programmed event number per counter, NO_EVENT when stopped */
	int *rate;          /* the model's rate index for it */
	double *count;      /* exact count so far */
	bool enabled;
	int index;
};

struct sim_io {
	struct hwmon_io io;
	struct sim_model *model;
	uint64_t seed;
	int nblocks;
	struct sim_block *blocks;
	uint64_t start_ns, last_ns;
	bool started;
};

static struct sim_block *find_block(struct sim_io *s, const struct pmu *p)
{
	for (int i = 0; i < s->nblocks; i++)
		if (s->blocks[i].pmu == p)
			return &s->blocks[i];
	return NULL;
}

static const char *slot_event(const struct sim_block *b, int slot)
{
	if (b->pmu->hw->type == HW_REGISTER)
		return b->pmu->aliases[slot].name;
	return b->event[slot] == NO_EVENT ? NULL : pmu_event_name(b->pmu, b->event[slot]);
}

static void set_event(struct sim_block *b, int slot, uint64_t n)
{
	b->event[slot] = n;
	const char *name = slot_event(b, slot);
	b->rate[slot] = name ? sim_rate_index(b->sec, name) : -1;
	b->count[slot] = 0;
}

static int slot_of(const char *file, const char *prefix, int nslots)
{
	uint64_t v;
	if (!str_has_prefix(file, prefix) || !parse_u64(file + strlen(prefix), &v) || v >= (uint64_t)nslots)
		return -1;
	return (int)v;
}

static uint64_t wrapped(const struct sim_block *b, double count)
{
	uint64_t v = count > 0 ? (uint64_t)(count + 0.5) : 0;
	return b->pmu->hw->width < 64 ? v & ((1ull << b->pmu->hw->width) - 1) : v;
}

static int sim_read(struct hwmon_io *io, const struct pmu *p, const char *file, char *buf, size_t len)
{
	struct sim_block *b = find_block((struct sim_io *)io, p);
	if (!b || !bfperf_valid_name(file))
		return -ENOENT;
	int slot;
	if (p->hw->type == HW_REGISTER) {
		for (int i = 0; i < b->nslots; i++)
			if (!strcmp(p->aliases[i].name, file))
				return snprintf(buf, len, "0x%llx\n", (unsigned long long)wrapped(b, b->count[i]));
		return -ENOENT;
	}
	if ((slot = slot_of(file, "counter", b->nslots)) >= 0)
		return snprintf(buf, len, "0x%llx\n", (unsigned long long)wrapped(b, b->count[slot]));
	if ((slot = slot_of(file, "event", b->nslots)) >= 0) {
		const char *name = slot_event(b, slot);
		if (b->event[slot] == NO_EVENT)
			return snprintf(buf, len, "No event being monitored\n");
		if (!name)
			return -EINVAL;
		return snprintf(buf, len, "0x%llx: %s\n", (unsigned long long)b->event[slot], name);
	}
	if (!strcmp(file, "enable") && p->hw->has_enable)
		return snprintf(buf, len, "%u\n", b->enabled ? 1u : 0u);
	return -ENOENT;
}

static int sim_write(struct hwmon_io *io, const struct pmu *p, const char *file, const char *text)
{
	struct sim_block *b = find_block((struct sim_io *)io, p);
	if (!b || !hwmon_writable_name(file))
		return -EPERM;
	char value[64];
	str_copy(value, sizeof(value), text);
	char *v = trim(value);
	uint64_t n;
	int slot;
	if ((slot = slot_of(file, "event", b->nslots)) >= 0) {
		if ((*v >= 'A' && *v <= 'Z') || (*v >= 'a' && *v <= 'z')) { /* by name */
			const struct pmu_alias *a = pmu_find_alias(p, v);
			if (!a)
				return -EINVAL;
			n = (uint64_t)pmu_alias_event_number(a->terms);
		} else if (!parse_u64(v, &n)) {
			return -EINVAL;
		}
		if (n == 0xff) { /* stop */
			b->event[slot] = NO_EVENT;
			return 0;
		}
		if (!bfperf_event_known(p, n))
			return -EINVAL;
		if (p->hw->has_enable)
			b->enabled = false; /* programming one stops them all */
		set_event(b, slot, n);
		return 0;
	}
	if ((slot = slot_of(file, "counter", b->nslots)) >= 0) {
		if (p->hw->has_enable && p->hw->type != HW_CRSPACE)
			return -EINVAL; /* l3cache counters take no writes */
		if (!parse_u64(v, &n) || n != 0)
			return -EINVAL;
		b->count[slot] = 0;
		return 0;
	}
	if (!strcmp(file, "enable") && p->hw->has_enable) {
		if (!strcmp(v, "1") || !strcmp(v, "y") || !strcmp(v, "on")) {
			for (int i = 0; i < b->nslots; i++)
				b->count[i] = 0; /* enabling clears */
			b->enabled = true;
		} else if (!strcmp(v, "0") || !strcmp(v, "n") || !strcmp(v, "off")) {
			b->enabled = false;
		} else {
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void sim_advance(struct hwmon_io *io, uint64_t now_ns)
{
	struct sim_io *s = (struct sim_io *)io;
	if (!s->started) {
		s->start_ns = s->last_ns = now_ns;
		s->started = true;
	}
	if (now_ns <= s->last_ns)
		return;
	double dt = (double)(now_ns - s->last_ns) / 1e9;
	double tmid = ((double)(s->last_ns + now_ns) / 2 - (double)s->start_ns) / 1e9;
	for (int i = 0; i < s->nblocks; i++) {
		struct sim_block *b = &s->blocks[i];
		double jitter = sim_model_jitter(s->model, b->sec);
		if (b->pmu->hw->has_enable && !b->enabled)
			continue;
		for (int k = 0; k < b->nslots; k++) {
			const char *name = slot_event(b, k);
			if (!name || !strcmp(name, "DISABLE"))
				continue;
			double noise = 1.0;
			if (jitter > 0) {
				uint64_t r = mix(s->seed ^ mix((uint64_t)i * 131 + (uint64_t)k) ^ mix(now_ns));
				noise += jitter * (((double)(r >> 11) / 9007199254740992.0) * 2 - 1);
			}
			double rate = sim_rate(b->sec, b->rate[k], name, tmid, 0, b->index, 0);
			if (b->pmu->hw->gauge) /* a register that holds a level (clock_measure) */
				b->count[k] = rate * noise;
			else
				b->count[k] += rate * dt * noise;
		}
	}
	s->last_ns = now_ns;
}

static void sim_destroy(struct hwmon_io *io)
{
	struct sim_io *s = (struct sim_io *)io;
	for (int i = 0; i < s->nblocks; i++) {
		free(s->blocks[i].event);
		free(s->blocks[i].rate);
		free(s->blocks[i].count);
	}
	free(s->blocks);
	sim_model_free(s->model);
	free(s);
}

static const struct hwmon_io_ops sim_ops = {
	.read = sim_read,
	.write = sim_write,
	.advance = sim_advance,
	.destroy = sim_destroy,
};

/* A block as its files left it: event<N> as programmed, enable as it was. */
static void load_block(struct sim_io *s, struct sim_block *b, const struct pmu *p)
{
	b->pmu = p;
	b->sec = sim_model_section(s->model, p);
	b->index = sim_place_index(p->hw->block);
	b->nslots = p->hw->type == HW_REGISTER ? p->naliases : p->hw->ncounters;
	int n = b->nslots ? b->nslots : 1;
	b->event = xcalloc((size_t)n, sizeof(*b->event));
	b->rate = xcalloc((size_t)n, sizeof(*b->rate));
	b->count = xcalloc((size_t)n, sizeof(*b->count));
	for (int k = 0; k < b->nslots; k++) {
		b->event[k] = NO_EVENT;
		if (p->hw->type == HW_REGISTER) {
			b->rate[k] = sim_rate_index(b->sec, p->aliases[k].name);
			continue;
		}
		char file[32];
		snprintf(file, sizeof(file), "event%d", k);
		char *text = sysfs_read_attr(p->dir, file);
		uint64_t v;
		char *colon = text ? strchr(text, ':') : NULL;
		if (colon) {
			*colon = '\0';
			if (parse_u64(trim(text), &v) && bfperf_event_known(p, v))
				set_event(b, k, v);
		}
		free(text);
	}
	char *en = p->hw->has_enable ? sysfs_read_attr(p->dir, "enable") : NULL;
	b->enabled = en && !strcmp(trim(en), "1");
	free(en);
}

struct hwmon_io *hwmon_io_sim_new(const struct machine *m, struct sim_model *model, uint64_t seed)
{
	struct sim_io *s = xcalloc(1, sizeof(*s));
	s->io.ops = &sim_ops;
	s->model = sim_model_ref(model);
	s->seed = mix(seed ^ 0xb1fe1d);
	for (int i = 0; i < m->npmus; i++)
		if (m->pmus[i].hw)
			s->nblocks++;
	s->blocks = xcalloc((size_t)(s->nblocks ? s->nblocks : 1), sizeof(*s->blocks));
	for (int i = 0, k = 0; i < m->npmus; i++)
		if (m->pmus[i].hw)
			load_block(s, &s->blocks[k++], &m->pmus[i]);
	return &s->io;
}
