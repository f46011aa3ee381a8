/* codec.c - column-major zig-zag varint deltas under zstd.
 *
 * Blob: one byte (0 stored, 1 zstd), then the payload: "PMC1", varint samples, varint
 * counters, the per-sample columns (seq, time, wall, interval as deltas; cpu and
 * temperature as their bits), then per column kind (state, raw, enabled, running) every
 * counter's column in slot order. A column is the zig-zag varints of each value minus
 * the one before it (the first minus zero): steady rates make small numbers and an idle
 * counter a run of zero bytes, which zstd folds to almost nothing. */
#include "record/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/util.h"

#define MAGIC "PMC1"
#define MAX_SAMPLES 100000
#define MAX_COUNTERS 1000000

void rec_sample_alloc(struct rec_sample *s, int ncounters)
{
	size_t n = (size_t)(ncounters ? ncounters : 1);
	memset(s, 0, sizeof(*s));
	s->state = xcalloc(n, 1);
	s->raw = xcalloc(n, sizeof(uint64_t));
	s->enabled = xcalloc(n, sizeof(uint64_t));
	s->running = xcalloc(n, sizeof(uint64_t));
}

void rec_sample_free(struct rec_sample *s)
{
	free(s->state);
	free(s->raw);
	free(s->enabled);
	free(s->running);
	memset(s, 0, sizeof(*s));
}

void rec_sample_copy(struct rec_sample *dst, const struct rec_sample *src, int ncounters)
{
	uint8_t *st = dst->state;
	uint64_t *r = dst->raw, *e = dst->enabled, *ru = dst->running;
	*dst = *src;
	dst->state = st, dst->raw = r, dst->enabled = e, dst->running = ru;
	size_t n = (size_t)ncounters;
	memcpy(dst->state, src->state, n);
	memcpy(dst->raw, src->raw, n * sizeof(uint64_t));
	memcpy(dst->enabled, src->enabled, n * sizeof(uint64_t));
	memcpy(dst->running, src->running, n * sizeof(uint64_t));
}

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void need(struct buf *b, size_t n)
{
	if (b->len + n > b->cap)
		b->p = xrealloc(b->p, b->cap = (b->len + n) * 2 + 64);
}

static void put_varint(struct buf *b, uint64_t v)
{
	need(b, 10);
	while (v >= 0x80) {
		b->p[b->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (unsigned char)v;
}

static inline uint64_t zigzag(uint64_t now, uint64_t before)
{
	int64_t d = (int64_t)(now - before);
	return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);
}

static inline uint64_t unzigzag(uint64_t z, uint64_t before)
{
	int64_t d = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
	return before + (uint64_t)d;
}

static void put_bits(struct buf *b, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	need(b, 8);
	for (int i = 0; i < 8; i++)
		b->p[b->len++] = (unsigned char)(v >> (8 * i));
}

/* A column of one value per sample, as deltas. */
#define COLUMN(b, samples, n, expr)                                                              \
	do {                                                                                      \
		uint64_t prev_ = 0;                                                               \
		for (int j_ = 0; j_ < (n); j_++) {                                                \
			const struct rec_sample *s_ = &(samples)[j_];                             \
			uint64_t v_ = (expr);                                                     \
			put_varint((b), zigzag(v_, prev_));                                       \
			prev_ = v_;                                                               \
		}                                                                                 \
	} while (0)

unsigned char *codec_encode(const struct rec_sample *samples, int n, int ncounters, int level, size_t *size)
{
	struct buf b = { 0 };
	need(&b, 16);
	memcpy(b.p, MAGIC, 4);
	b.len = 4;
	put_varint(&b, (uint64_t)n);
	put_varint(&b, (uint64_t)ncounters);
	COLUMN(&b, samples, n, s_->seq);
	COLUMN(&b, samples, n, s_->time_ns);
	COLUMN(&b, samples, n, s_->wall_ns);
	COLUMN(&b, samples, n, s_->interval_ns);
	for (int j = 0; j < n; j++) {
		put_bits(&b, samples[j].cpu_util);
		need(&b, 1);
		b.p[b.len++] = samples[j].have_temp;
		put_bits(&b, samples[j].temp_c);
	}
	for (int k = 0; k < ncounters; k++)
		COLUMN(&b, samples, n, s_->state[k]);
	for (int k = 0; k < ncounters; k++)
		COLUMN(&b, samples, n, s_->raw[k]);
	for (int k = 0; k < ncounters; k++)
		COLUMN(&b, samples, n, s_->enabled[k]);
	for (int k = 0; k < ncounters; k++)
		COLUMN(&b, samples, n, s_->running[k]);
	unsigned char *out;
	if (level > 0) {
		size_t bound = ZSTD_compressBound(b.len);
		out = xmalloc(bound + 1);
		size_t z = ZSTD_compress(out + 1, bound, b.p, b.len, level);
		if (!ZSTD_isError(z)) {
			out[0] = 1;
			*size = z + 1;
			free(b.p);
			return out;
		}
		free(out);
	}
	out = xmalloc(b.len + 1);
	out[0] = 0;
	memcpy(out + 1, b.p, b.len);
	*size = b.len + 1;
	free(b.p);
	return out;
}

struct rd {
	const unsigned char *p;
	size_t len, at;
	bool bad;
};

static uint64_t get_varint(struct rd *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (r->at >= r->len) {
			r->bad = true;
			return 0;
		}
		unsigned char c = r->p[r->at++];
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static double get_bits(struct rd *r)
{
	uint64_t v = 0;
	if (r->at + 8 > r->len) {
		r->bad = true;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)r->p[r->at++] << (8 * i);
	double d;
	memcpy(&d, &v, sizeof(d));
	return d;
}

#define UNCOLUMN(r, samples, n, lvalue)                                                          \
	do {                                                                                      \
		uint64_t prev_ = 0;                                                               \
		for (int j_ = 0; j_ < (n) && !(r)->bad; j_++) {                                   \
			struct rec_sample *s_ = &(samples)[j_];                                   \
			prev_ = unzigzag(get_varint(r), prev_);                                   \
			lvalue = prev_;                                                           \
		}                                                                                 \
	} while (0)

void codec_free_samples(struct rec_sample *samples, int n)
{
	for (int j = 0; j < n; j++)
		rec_sample_free(&samples[j]);
	free(samples);
}

/* The most bytes n samples of nc counters can take encoded: the header, per sample four
 * varint columns (10 bytes at most), two 8-byte gauges and a flag, per counter four
 * varint columns. What a blob claims beyond that is a lie, refused before allocating. */
static uint64_t max_plain(uint64_t n, uint64_t nc)
{
	return 4 + 20 + n * (4 * 10 + 8 + 1 + 8 + 4 * 10 * nc);
}

int codec_decode(const unsigned char *blob, size_t size, int ncounters, int max_samples, struct rec_sample **out,
		 int *nout, char **err)
{
	*out = NULL;
	*nout = 0;
	*err = NULL;
	if (size < 1 || blob[0] > 1) {
		*err = xstrdup("unknown chunk encoding");
		return -1;
	}
	unsigned char *plain = NULL;
	struct rd r = { .p = blob + 1, .len = size - 1 };
	if (blob[0] == 1) {
		unsigned long long want = ZSTD_getFrameContentSize(blob + 1, size - 1);
		if (want == ZSTD_CONTENTSIZE_ERROR || want == ZSTD_CONTENTSIZE_UNKNOWN) {
			*err = xstrdup("damaged chunk (not a zstd frame)");
			return -1;
		}
		if (ncounters < 0 || max_samples < 0 || want > max_plain((uint64_t)max_samples, (uint64_t)ncounters)) {
			*err = xasprintf("damaged chunk (it claims %llu bytes, more than %d samples of %d counters take)", want,
					 max_samples, ncounters);
			return -1;
		}
		plain = xmalloc(want ? (size_t)want : 1);
		size_t got = ZSTD_decompress(plain, (size_t)want, blob + 1, size - 1);
		if (ZSTD_isError(got) || got != want) {
			free(plain);
			*err = xasprintf("damaged chunk (%s)", ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
			return -1;
		}
		r = (struct rd){ .p = plain, .len = (size_t)want };
	}
	if (r.len < 4 || memcmp(r.p, MAGIC, 4)) {
		free(plain);
		*err = xstrdup("damaged chunk (no header)");
		return -1;
	}
	r.at = 4;
	uint64_t n = get_varint(&r), nc = get_varint(&r);
	if (r.bad || n > MAX_SAMPLES || n > (uint64_t)max_samples || nc != (uint64_t)ncounters || nc > MAX_COUNTERS ||
	    n * (4 + 17 + 4 * nc) > r.len - r.at) { /* every value takes a byte at least */
		free(plain);
		*err = r.bad || n > MAX_SAMPLES || n > (uint64_t)max_samples || nc > MAX_COUNTERS
			       ? xstrdup("damaged chunk (bad sizes)")
			       : nc != (uint64_t)ncounters ? xasprintf("chunk of %llu counters, the recording has %d",
								      (unsigned long long)nc, ncounters)
							     : xstrdup("damaged chunk (too short)");
		return -1;
	}
	struct rec_sample *s = xcalloc(n ? (size_t)n : 1, sizeof(*s));
	int ni = (int)n;
	for (int j = 0; j < ni; j++)
		rec_sample_alloc(&s[j], ncounters);
	UNCOLUMN(&r, s, ni, s_->seq);
	UNCOLUMN(&r, s, ni, s_->time_ns);
	UNCOLUMN(&r, s, ni, s_->wall_ns);
	UNCOLUMN(&r, s, ni, s_->interval_ns);
	for (int j = 0; j < ni && !r.bad; j++) {
		s[j].cpu_util = get_bits(&r);
		if (r.at >= r.len)
			r.bad = true;
		else
			s[j].have_temp = r.p[r.at++];
		s[j].temp_c = get_bits(&r);
	}
	for (int k = 0; k < ncounters && !r.bad; k++)
		UNCOLUMN(&r, s, ni, s_->state[k]);
	for (int k = 0; k < ncounters && !r.bad; k++)
		UNCOLUMN(&r, s, ni, s_->raw[k]);
	for (int k = 0; k < ncounters && !r.bad; k++)
		UNCOLUMN(&r, s, ni, s_->enabled[k]);
	for (int k = 0; k < ncounters && !r.bad; k++)
		UNCOLUMN(&r, s, ni, s_->running[k]);
	bool bad = r.bad || r.at != r.len;
	free(plain);
	if (bad) {
		codec_free_samples(s, ni);
		*err = xstrdup("damaged chunk (its columns do not add up)");
		return -1;
	}
	*out = s;
	*nout = ni;
	return 0;
}
