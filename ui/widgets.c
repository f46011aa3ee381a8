/* SPDX-License-Identifier: GPL-2.0-only */
/* widgets.c - bars, sparklines, stacked bars, and bar scales that do not jump. */
#include <math.h>
#include <string.h>

#include "tui.h"
#include "base/util.h"

static const char *const spark_utf8[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
static const char spark_ascii[] = "_.-=#";

static enum role bar_role(double frac)
{
	return frac < 0.6 ? R_BAR_LOW : frac < 0.85 ? R_BAR_MID : R_BAR_HIGH;
}

void draw_bar(struct tui *t, int y, int x, int w, double frac, enum role r)
{
	if (w <= 0 || !crt_visible(y) || x + w > term_cols)
		return;
	if (isnan(frac) || frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	if (r == R_NORMAL)
		r = bar_role(frac);
	attr_t a = crt_attr(r);
	/* whole cells: eighth-cell bars would change (and be sent over ssh) nearly every
	 * refresh for a moving value */
	int full = (int)lround(frac * w);
	if (full <= 0)
		return; /* the rest is blank already: every frame starts erased */
	uint32_t cell = t->utf8 && t->set.bars == BAR_BLOCKS ? 0x2588 : t->set.bars == BAR_HASHES ? '#' : '|';
	crt_hline(y, x, full, a, cell);
}

/* Refreshes per sparkline cell: about four seconds, so a 12-cell line spans a minute. */
int sparkline_bucket(const struct tui *t)
{
	int b = (int)lround(4.0 / t->interval);
	if (b < 1)
		b = 1;
	if (b * 16 > HISTORY_LEN)
		b = HISTORY_LEN / 16;
	return b;
}

/* A sweep, as on an oscilloscope: cell k % w holds bucket k; the blank cell after the
 * newest is "now". Each completed bucket rewrites two cells instead of shifting the whole
 * line, which is what keeps an ssh link quiet. */
void draw_sparkline(struct tui *t, int y, int x, int w, int slot, float scale)
{
	if (w <= 0 || t->set.sparklines == SPARK_OFF || !crt_visible(y) || x + w > term_cols)
		return;
	attr_t a = crt_attr(R_SPARK);
	uint64_t bucket = (uint64_t)sparkline_bucket(t);
	uint64_t current = t->hist->count / bucket; /* the bucket being filled */
	/* the line only changes when a bucket completes (or the scale or style does) */
	struct spark_cache *sc = NULL;
	if (t->spark && !(sc = t->spark[slot]))
		sc = t->spark[slot] = xcalloc(1, sizeof(*sc));
	uint64_t key = current * 4 + (uint64_t)t->set.sparklines * 2 + (t->utf8 ? 1 : 0);
	if (sc && sc->bucket == key && sc->scale == scale && sc->width == w) {
		crt_put_attr(y, x, w, a, sc->text, sc->len);
		return;
	}
	char buf[256];
	int n = 0;
	int levels = t->utf8 ? 8 : (int)strlen(spark_ascii);
	bool scroll = t->set.sparklines == SPARK_SCROLL;
	for (int c = 0; c < w; c++) {
		uint64_t k;
		bool blank;
		if (scroll) { /* newest completed bucket at the right */
			uint64_t back = (uint64_t)(w - c);
			blank = back > current;
			k = blank ? 0 : current - back;
		} else { /* the newest bucket at or before 'current' that lands in cell c */
			uint64_t gap = current % (uint64_t)w;
			k = current - ((gap + (uint64_t)w - (uint64_t)c) % (uint64_t)w);
			blank = c == (int)gap || k > current;
		}
		float v = blank ? NAN : history_mean(t->hist, slot, k * bucket, (k + 1) * bucket);
		if (n + 4 >= (int)sizeof(buf))
			break;
		if (isnan(v) || scale <= 0) { /* nothing yet: a faint baseline keeps the column's width */
			if (blank && c == (int)(current % (uint64_t)w) && !scroll) {
				buf[n++] = ' '; /* the sweep's moving gap */
			} else if (t->utf8) {
				memcpy(buf + n, "\xc2\xb7", 2); /* middle dot */
				n += 2;
			} else {
				buf[n++] = ' '; /* '.' is a level of the ASCII line: no value is blank */
			}
			continue;
		}
		int level = (int)(v / scale * (float)levels);
		if (level >= levels)
			level = levels - 1;
		if (level < 0)
			level = 0;
		if (t->utf8) {
			memcpy(buf + n, spark_utf8[level], 3);
			n += 3;
		} else {
			buf[n++] = spark_ascii[level];
		}
	}
	if (sc && n < (int)sizeof(sc->text)) {
		memcpy(sc->text, buf, (size_t)n);
		sc->len = n;
		sc->bucket = key;
		sc->scale = scale;
		sc->width = w;
	}
	crt_put_attr(y, x, w, a, buf, n);
}

void draw_stacked(struct tui *t, int y, int x, int w, const double *fracs, int n, const char *letters)
{
	(void)t;
	if (w <= 0 || !crt_visible(y) || x + w > term_cols)
		return;
	double acc = 0;
	int col = 0;
	for (int i = 0; i < n; i++) {
		double f = isnan(fracs[i]) || fracs[i] < 0 ? 0 : fracs[i];
		acc += f;
		int end = (int)lround(acc * w);
		if (end > w)
			end = w;
		/* 8 parts of a 4-part whole (TopDown level 2) take their parent's colour */
		attr_t a = crt_attr((enum role)(R_CAT0 + (n == 8 ? i / 2 : i % 8)));
		char run[512];
		int len = 0, start = col;
		for (; col < end && len < (int)sizeof(run); col++)
			run[len++] = letters[i];
		crt_put_attr(y, x + start, len, a, run, len);
	}
}

/* 1, 2, 5 x 10^k at or above v */
static float nice_ceiling(float v)
{
	if (v <= 0)
		return 0;
	float p = powf(10, floorf(log10f(v)));
	if (v <= p)
		return p;
	if (v <= 2 * p)
		return 2 * p;
	if (v <= 5 * p)
		return 5 * p;
	return 10 * p;
}

/* The scale of metric m's bars in pane p: the profile's max, else a 1-2-5 ceiling of the
 * largest recent value of any instance, so bars compare across sockets and RCs.
 * Called once per metric per frame (pane_draw), then read from p->scale. */
float pane_scale(struct tui *t, struct upane *p, int m)
{
	if (p->metrics[m]->max > 0) /* the bars read p->scale */
		return p->scale[m] = (float)p->metrics[m]->max;
	float peak = 0;
	for (int i = 0; i < p->ninst; i++) {
		int slot = p->slot[i * p->nmetrics + m];
		if (slot >= 0 && pane_shows(p, i)) {
			float v = history_max(t->hist, slot, HISTORY_MAX_WINDOW);
			if (v > peak)
				peak = v;
		}
	}
	float want = nice_ceiling(peak * 1.05f);
	/* grow at once; shrink only when a whole minute stayed well below the scale */
	if (want > p->scale[m] || (want > 0 && want * 2.5f < p->scale[m]))
		p->scale[m] = want;
	return p->scale[m];
}
