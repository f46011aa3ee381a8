/* SPDX-License-Identifier: GPL-2.0-only */
/* history.h - the last N values of every metric value slot, for sparklines and bar
 * auto-scaling. Fed frames by the monitor; views only read it.
 *
 * Only slots that have had a number keep a row (a CPU's or channel's values are numbers
 * only while the monitor shows them), and a value is kept to 3 significant digits (a
 * float's upper 16 bits, rounded: 0.4 %), finer than any sparkline's eight levels, a
 * scale's rounding or a sort's 2 % margin: half the memory, a quarter of the rows. */
#ifndef PMUTOP_HISTORY_H
#define PMUTOP_HISTORY_H

#include <stdint.h>

struct frame;

#define HISTORY_LEN 240
#define HISTORY_MAX_WINDOW 60 /* history_max() over this many is kept as values arrive */

struct history {
	int nslots;
	int len;   /* values held per slot, <= HISTORY_LEN */
	int head;  /* index of the newest */
	uint64_t count; /* values pushed since the start */
	uint16_t **rows; /* per slot, HISTORY_LEN values (NULL: no number yet), NAN for none */
	float *max; /* per slot, the largest of the newest HISTORY_MAX_WINDOW (0 at least) */
	int *max_age; /* and how many pushes ago it came */
};

struct history *history_new(int nslots);
void history_free(struct history *h);
/* Append a frame's values. */
void history_push(struct history *h, const struct frame *f);
/* The i-th newest value of slot (i = 0 newest); NAN past what is held. */
float history_get(const struct history *h, int slot, int i);
/* Mean of the values of slot pushed as numbers [from, to) since the start (count
 * numbering), NAN if none of them is held or all are no value. */
float history_mean(const struct history *h, int slot, uint64_t from, uint64_t to);
/* Largest value among the newest n of slot, 0 if none (n = HISTORY_MAX_WINDOW: kept up
 * to date by history_push, no scan). */
float history_max(const struct history *h, int slot, int n);

#endif
