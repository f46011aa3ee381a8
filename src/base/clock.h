/* SPDX-License-Identifier: GPL-2.0-only */
/* clock.h - where the engine's time comes from: the monotonic clock, a fake clock that
 * jumps to each deadline (scripts and tests: no waiting), and later a replay's clock.
 *
 * The run loop never reads the system time itself: it asks its clock how long to wait
 * for a deadline and what time it is, so every timed path can be driven by hand. */
#ifndef PMUTOP_CLOCK_H
#define PMUTOP_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct clock;

struct clock_ops {
	const char *name;
	/* Nanoseconds on this clock's time line (monotonic: never goes back). */
	uint64_t (*now)(struct clock *c);
	/* Milliseconds to wait in poll() before deadline, 0 if it has passed. A fake clock
	 * never waits: it moves to the deadline and returns 0. */
	int (*wait_ms)(struct clock *c, uint64_t deadline);
	/* Wall-clock time (ns since the epoch) that corresponds to t on this clock. */
	uint64_t (*wall)(struct clock *c, uint64_t t);
};

struct clock {
	const struct clock_ops *ops;
	uint64_t t;     /* fake: the current time */
	uint64_t t0;    /* time line value at wall0 */
	uint64_t wall0; /* wall clock at t0 */
};

/* CLOCK_MONOTONIC, and CLOCK_REALTIME for time stamps. */
void clock_init_monotonic(struct clock *c);
/* Starts at start_ns; wall time stamps count from the real time of the call, so output
 * looks like a run that began now. */
void clock_init_fake(struct clock *c, uint64_t start_ns);
/* Move a fake clock to t (never backwards); no effect on other clocks. */
void clock_set(struct clock *c, uint64_t t);
bool clock_is_fake(const struct clock *c);

static inline uint64_t clock_now(struct clock *c)
{
	return c->ops->now(c);
}

uint64_t clock_realtime_ns(void);

#endif
