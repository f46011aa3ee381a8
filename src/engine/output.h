/* SPDX-License-Identifier: GPL-2.0-only */
/* output.h - the one interface every output answers: batch text/CSV/JSON, the monitor,
 * and next the recorder and the exporter. Outputs read frames; the run loop hands each
 * frame to every output, and polls the descriptors outputs wait on (the terminal, the
 * exporter's socket) beside its timer, so no output needs a thread of its own. */
#ifndef PMUTOP_OUTPUT_H
#define PMUTOP_OUTPUT_H

#include <poll.h>
#include <stdbool.h>

struct frame;
struct output;
struct runloop;

struct output_ops {
	const char *name;
	/* A new frame. Returns 0, or -1 when the output cannot go on (a write error): the
	 * loop then stops with exit status 1, after the output said why on stderr. */
	int (*frame)(struct output *o, const struct frame *f);
	/* A refresh time passed while paused: no frame (the monitor redraws its clock). */
	void (*idle)(struct output *o);
	/* Descriptors to poll: fill up to max, return how many. NULL: none. */
	int (*pollfds)(struct output *o, struct pollfd *pfds, int max);
	/* After every poll(): the output's descriptors with their revents (zero after a
	 * signal or the timer). It may act on the loop (quit, pause, interval). */
	void (*wake)(struct output *o, const struct pollfd *pfds, int n);
	/* The loop ends: flush and restore. Returns 0, or non-zero if output was lost. */
	int (*finish)(struct output *o);
	void (*destroy)(struct output *o);
	/* Will it read the values of sums' members (per-CPU rows, channels) in the next
	 * frame? NULL: always (batch, the exporter). The monitor asks only for what it shows. */
	bool (*wants_details)(struct output *o);
	/* The value slots it shows (per slot), *gen changed whenever they change; NULL (or a
	 * NULL answer): every value (batch, the exporter, a recorder recording). What no output shows
	 * is not counted (engine/pause.c). */
	const bool *(*values_shown)(struct output *o, unsigned *gen);
};

/* values_shown's answer of an output that shows no value now (an idle recorder). */
extern const bool OUTPUT_SHOWS_NOTHING[1];

struct output {
	const struct output_ops *ops;
	struct runloop *loop; /* set when added to a loop */
	void *priv;
};

static inline void output_destroy(struct output *o)
{
	if (o)
		o->ops->destroy(o);
}

#endif
