/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.c - the monotonic and the fake clock. */
#include "base/clock.h"

#include <time.h>

#include "base/util.h"

uint64_t clock_realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_now(struct clock *c)
{
	(void)c;
	return clock_monotonic_ns();
}

static int mono_wait_ms(struct clock *c, uint64_t deadline)
{
	uint64_t now = clock_monotonic_ns();
	(void)c;
	if (deadline <= now)
		return 0;
	uint64_t ms = (deadline - now + 999999) / 1000000;
	return ms > 86400000 ? 86400000 : (int)ms;
}

static uint64_t offset_wall(struct clock *c, uint64_t t)
{
	return t >= c->t0 ? c->wall0 + (t - c->t0) : c->wall0 - (c->t0 - t);
}

static const struct clock_ops mono_ops = { "monotonic", mono_now, mono_wait_ms, offset_wall };

static uint64_t fake_now(struct clock *c)
{
	return c->t;
}

static int fake_wait_ms(struct clock *c, uint64_t deadline)
{
	clock_set(c, deadline);
	return 0;
}

static const struct clock_ops fake_ops = { "fake", fake_now, fake_wait_ms, offset_wall };

void clock_init_monotonic(struct clock *c)
{
	c->ops = &mono_ops;
	c->t0 = c->t = clock_monotonic_ns();
	c->wall0 = clock_realtime_ns();
}

void clock_init_fake(struct clock *c, uint64_t start_ns)
{
	c->ops = &fake_ops;
	c->t0 = c->t = start_ns;
	c->wall0 = clock_realtime_ns();
}

void clock_set(struct clock *c, uint64_t t)
{
	if (c->ops == &fake_ops && t > c->t)
		c->t = t;
}

bool clock_is_fake(const struct clock *c)
{
	return c->ops == &fake_ops;
}
