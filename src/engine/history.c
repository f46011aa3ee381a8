/* SPDX-License-Identifier: GPL-2.0-only */
/* history.c - the last N values of every metric value slot. */
#include "engine/history.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/frame.h"
#include "base/util.h"

struct history *history_new(int nslots)
{
	struct history *h = xcalloc(1, sizeof(*h));
	h->nslots = nslots;
	h->rows = xcalloc((size_t)(nslots ? nslots : 1), sizeof(*h->rows));
	h->max = xcalloc((size_t)(nslots ? nslots : 1), sizeof(float));
	h->max_age = xcalloc((size_t)(nslots ? nslots : 1), sizeof(int));
	h->head = HISTORY_LEN - 1;
	return h;
}

void history_free(struct history *h)
{
	if (!h)
		return;
	for (int k = 0; k < h->nslots; k++)
		free(h->rows[k]);
	free(h->rows);
	free(h->max);
	free(h->max_age);
	free(h);
}

/* A float to its upper 16 bits, rounded to nearest (even on a tie); NAN stays NAN. */
static uint16_t narrow(float x)
{
	if (isnan(x))
		return 0x7fc0;
	uint32_t b;
	memcpy(&b, &x, sizeof(b));
	b += 0x7fff + ((b >> 16) & 1);
	return (uint16_t)(b >> 16);
}

static float widen(uint16_t v)
{
	uint32_t b = (uint32_t)v << 16;
	float x;
	memcpy(&x, &b, sizeof(x));
	return x;
}

/* Slot k's row, made (every value no value) at its first number. */
static uint16_t *row(struct history *h, int k)
{
	if (!h->rows[k]) {
		h->rows[k] = xmalloc(sizeof(uint16_t) * HISTORY_LEN);
		for (int i = 0; i < HISTORY_LEN; i++)
			h->rows[k][i] = 0x7fc0;
	}
	return h->rows[k];
}

void history_push(struct history *h, const struct frame *f)
{
	h->head = (h->head + 1) % HISTORY_LEN;
	if (h->len < HISTORY_LEN)
		h->len++;
	h->count++;
	assert(h->head >= 0 && h->head < HISTORY_LEN && h->len <= HISTORY_LEN);
	for (int k = 0; k < h->nslots && k < f->nvalues; k++) {
		const struct frame_value *v = &f->values[k];
		float x = v->state == VS_OK ? (float)v->value : NAN;
		if (!isnan(x) || h->rows[k])
			row(h, k)[h->head] = narrow(x);
		if (!h->rows[k]) /* never had a value (a pane hidden, a PMU lacking): no maximum */
			continue;
		x = widen(h->rows[k][h->head]); /* as held */
		/* the window's maximum: a new one, or one that ages out (then look again) */
		if (!isnan(x) && x >= h->max[k]) {
			h->max[k] = x;
			h->max_age[k] = 0;
		} else if (++h->max_age[k] >= HISTORY_MAX_WINDOW) {
			h->max[k] = 0;
			h->max_age[k] = 0;
			for (int i = 0; i < HISTORY_MAX_WINDOW && i < h->len; i++) {
				float y = history_get(h, k, i);
				if (!isnan(y) && y > h->max[k]) {
					h->max[k] = y;
					h->max_age[k] = i;
				}
			}
		}
	}
}

float history_get(const struct history *h, int slot, int i)
{
	if (slot < 0 || slot >= h->nslots || i < 0 || i >= h->len)
		return NAN;
	if (!h->rows[slot])
		return NAN;
	int idx = (h->head - i + HISTORY_LEN) % HISTORY_LEN;
	return widen(h->rows[slot][idx]);
}

float history_mean(const struct history *h, int slot, uint64_t from, uint64_t to)
{
	double sum = 0;
	int n = 0;
	for (uint64_t k = from; k < to; k++) {
		if (k >= h->count || h->count - k > (uint64_t)h->len)
			continue;
		float v = history_get(h, slot, (int)(h->count - 1 - k));
		if (!isnan(v)) {
			sum += v;
			n++;
		}
	}
	return n ? (float)(sum / n) : NAN;
}

float history_max(const struct history *h, int slot, int n)
{
	if (n == HISTORY_MAX_WINDOW && slot >= 0 && slot < h->nslots)
		return h->max[slot];
	float m = 0;
	for (int i = 0; i < n && i < h->len; i++) {
		float v = history_get(h, slot, i);
		if (!isnan(v) && v > m)
			m = v;
	}
	return m;
}
