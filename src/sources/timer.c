/* SPDX-License-Identifier: GPL-2.0-only */
/* timer.c - Arm's generic timer (machine/archtimer.c) as a counter source: its one
 * counter is the system counter itself, read by an instruction, with no open or close;
 * its enabled time is the sampler's clock since the instance opened. */
#include <stdlib.h>

#include "base/util.h"
#include "engine/session.h"
#include "machine/archtimer.h"
#include "machine/pmu.h"
#include "sources/sources.h"

struct timer_state {
	uint64_t open_ns;
};

static bool tm_claims(struct source *src, const struct instance *inst)
{
	(void)src;
	return inst->pmu && inst->pmu->timer;
}

static int tm_open(struct source *src, struct instance *inst)
{
	struct timer_state *st = xcalloc(1, sizeof(*st));
	st->open_ns = src->now_ns;
	inst->priv = st;
	return 0;
}

static int tm_read(struct source *src, struct instance *inst, uint64_t now_ns)
{
	(void)src;
	const struct timer_state *st = inst->priv;
	uint64_t ticks = archtimer_ticks(), ran = now_ns - st->open_ns;
	for (int c = 0; c < inst->ncounters; c++)
		counter_read_count(&inst->counters[c], ticks, ran, ran);
	return 0;
}

static void tm_close(struct source *src, struct instance *inst)
{
	(void)src;
	free(inst->priv);
	inst->priv = NULL;
}

static void tm_destroy(struct source *src)
{
	free(src);
}

static const struct source_ops timer_ops = {
	.kind = "live",
	.claims = tm_claims,
	.open = tm_open,
	.read = tm_read,
	.close = tm_close,
	.destroy = tm_destroy,
};

struct source *source_timer_new(const struct machine *m)
{
	struct source *src = xcalloc(1, sizeof(*src));
	src->ops = &timer_ops;
	src->machine = m;
	return src;
}
