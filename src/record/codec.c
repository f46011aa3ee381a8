/* SPDX-License-Identifier: GPL-2.0-only */
/* codec.c - column-major zig-zag deltas under zstd.
 *
 * Blob: one byte (0 stored, 1 zstd), then the payload: "PMC2", varint samples, varint
 * counters, the per-sample columns (seq, time, wall, interval as varint deltas; cpu and
 * temperature as their bits), then per column kind (state, raw, enabled, running) every
 * counter's column in slot order. A counter's column is the zig-zag of each value minus
 * the one before it (the first minus zero) in byte planes: one byte w, the bytes each
 * needs at most, then the w planes (every value's lowest byte, then the next, ...).
 * Steady rates make small numbers and an idle counter w = 0; a noisy counter's low
 * planes are noise zstd leaves as they are, and its top plane is a few symbols zstd's
 * entropy coder packs, without the varints' continuation bit in every byte (the demo's
 * recording: 3.21 B a counter sample in varints, now less). "PMC1" chunks (varints for
 * every column) are still read. */
#include "record/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "base/heap.h"
#include "base/util.h"
#include "record/libs_shim.h"

#define MAGIC "PMC2"
#define MAGIC_VARINT "PMC1"
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

/* The prediction of a counter's next value: the mean of its last PREDICT_N (fewer at
 * a column's start), in integers so that the reader predicts the same. */
#define PREDICT_N 4
_Static_assert(PREDICT_N == 4, "predict()'s fast path divides by 4 with shifts");
struct predictor {
	uint64_t last[PREDICT_N];
	int n;
};

static uint64_t predict(const struct predictor *p)
{
	if (p->n == PREDICT_N) { /* floor(sum / 4) without a 128-bit division */
		uint64_t hi = 0, lo = 0;
		for (int i = 0; i < PREDICT_N; i++) {
			hi += p->last[i] >> 2;
			lo += p->last[i] & 3;
		}
		return hi + (lo >> 2);
	}
	if (!p->n)
		return 0;
	unsigned __int128 sum = 0;
	for (int i = 0; i < p->n; i++)
		sum += p->last[i];
	return (uint64_t)(sum / (unsigned)p->n);
}

static void predictor_add(struct predictor *p, uint64_t v, int j)
{
	p->last[j % PREDICT_N] = v;
	if (p->n < PREDICT_N)
		p->n++;
}

enum column_kind { COL_STATE, COL_RAW, COL_ENABLED, COL_RUNNING };

static uint64_t get_value(const struct rec_sample *s, enum column_kind kind, int k)
{
	switch (kind) {
	case COL_STATE: return s->state[k];
	case COL_RAW: return s->raw[k];
	case COL_ENABLED: return s->enabled[k];
	case COL_RUNNING: return s->running[k];
	}
	return 0;
}

/* Every counter's column of one kind: their plane counts, then the planes, every
 * column's top plane first, the next ones after (see the head). */
static void put_kind(struct buf *b, const struct rec_sample *samples, int n, int nc, enum column_kind kind)
{
	uint64_t *z = xmalloc(sizeof(uint64_t) * (size_t)(n ? n : 1) * (size_t)(nc ? nc : 1));
	unsigned char *w = xcalloc((size_t)(nc ? nc : 1), 1);
	for (int k = 0; k < nc; k++) {
		struct predictor pr = { { 0 }, 0 };
		uint64_t all = 0;
		for (int j = 0; j < n; j++) {
			uint64_t v = get_value(&samples[j], kind, k);
			z[(size_t)k * (size_t)n + (size_t)j] = zigzag(v, predict(&pr));
			all |= z[(size_t)k * (size_t)n + (size_t)j];
			predictor_add(&pr, v, j);
		}
		while (w[k] < 8 && all >> (8 * w[k]))
			w[k]++;
	}
	need(b, (size_t)nc);
	memcpy(b->p + b->len, w, (size_t)nc);
	b->len += (size_t)nc;
	for (int t = 0; t < 8; t++)
		for (int k = 0; k < nc; k++) {
			if (w[k] <= t)
				continue;
			int plane = w[k] - 1 - t;
			need(b, (size_t)n);
			for (int j = 0; j < n; j++)
				b->p[b->len++] = (unsigned char)(z[(size_t)k * (size_t)n + (size_t)j] >> (8 * plane));
		}
	free(w);
	free(z);
}

/* zstd at level, its window and match tables held small: level 19's own (2^24-entry
 * tables, 8 MB window) kept the monitor's RSS at 31 MB instead of 13 while recording
 * the demo, for 0.0006 B a counter sample; these keep it at 15 */
#define PACK_WINDOW_LOG 20
#define PACK_TABLE_LOG 16

static size_t pack(void *dst, size_t cap, const void *src, size_t len, int level)
{
	ZSTD_CCtx *cx = ZSTD_createCCtx();
	if (!cx)
		return (size_t)-1;
	ZSTD_CCtx_setParameter(cx, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cx, ZSTD_c_windowLog, PACK_WINDOW_LOG);
	ZSTD_CCtx_setParameter(cx, ZSTD_c_chainLog, PACK_TABLE_LOG);
	ZSTD_CCtx_setParameter(cx, ZSTD_c_hashLog, PACK_TABLE_LOG);
	size_t r = ZSTD_compress2(cx, dst, cap, src, len);
	ZSTD_freeCCtx(cx);
	return r;
}

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
	for (int kind = COL_STATE; kind <= COL_RUNNING; kind++)
		put_kind(&b, samples, n, ncounters, (enum column_kind)kind);
	unsigned char *out;
	if (level == CODEC_LEVEL_AUTO) /* zstd's 18 takes ~30 ns a byte of these planes here (a
					* 1 098-counter chunk, 0.8 MB: 25 ms; 19 took 72 ms for
					* 0.4 % less), 9 a tenth of it: ~0.1 s at most */
		level = b.len <= (3u << 20) ? 18 : b.len <= (12u << 20) ? 9 : 3;
	if (level > 0 && record_libs_load(NULL) == 0) { /* else stored plain: a chunk says which */
		size_t bound = ZSTD_compressBound(b.len);
		out = xmalloc(bound + 1);
		size_t packed = pack(out + 1, bound, b.p, b.len, level);
		if (!ZSTD_isError(packed)) {
			out[0] = 1;
			*size = packed + 1;
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

/* Counter k's value of sample s: its state's byte or a count. */
static inline __attribute__((always_inline)) void set_value(struct rec_sample *s, enum column_kind kind, int k,
								uint64_t v)
{
	switch (kind) {
	case COL_STATE: s->state[k] = (uint8_t)v; break;
	case COL_RAW: s->raw[k] = v; break;
	case COL_ENABLED: s->enabled[k] = v; break;
	case COL_RUNNING: s->running[k] = v; break;
	}
}

/* Counter k's column of varints (PMC1). */
static void get_varint_column(struct rd *r, struct rec_sample *s, int n, enum column_kind kind, int k)
{
	uint64_t prev = 0;
	for (int j = 0; j < n && !r->bad; j++) {
		prev = unzigzag(get_varint(r), prev);
		set_value(&s[j], kind, k, prev);
	}
}

/* Counter k's values from its residuals: predict() for the first PREDICT_N, then its
 * floor(sum / 4) kept as running sums of v >> 2 and v & 3 (exact: four values >> 2 fit
 * in 64 bits), a value's cost a few additions instead of predict()'s loop. */
static void unpredict_column(struct rec_sample *s, int n, enum column_kind kind, int k, const uint64_t *residual)
{
	struct predictor pr = { { 0 }, 0 };
	int j = 0;
	for (; j < n && j < PREDICT_N; j++) {
		uint64_t v = unzigzag(residual[j], predict(&pr));
		predictor_add(&pr, v, j);
		set_value(&s[j], kind, k, v);
	}
	uint64_t hi = 0, lo = 0;
	for (int i = 0; i < PREDICT_N; i++) {
		hi += pr.last[i] >> 2;
		lo += pr.last[i] & 3;
	}
	for (; j < n; j++) {
		uint64_t v = unzigzag(residual[j], hi + (lo >> 2)), old = pr.last[j % PREDICT_N];
		hi += (v >> 2) - (old >> 2);
		lo += (v & 3) - (old & 3);
		pr.last[j % PREDICT_N] = v;
		set_value(&s[j], kind, k, v);
	}
}

/* Every counter's column of one kind, from planes (PMC2): the counts, checked against
 * what is left, then the planes in the writer's order. */
static void get_kind(struct rd *r, struct rec_sample *s, int n, int nc, enum column_kind kind, uint64_t *z)
{
	if ((size_t)nc > r->len - r->at) {
		r->bad = true;
		return;
	}
	const unsigned char *w = r->p + r->at;
	r->at += (size_t)nc;
	uint64_t bytes = 0;
	for (int k = 0; k < nc; k++) {
		if (w[k] > 8) {
			r->bad = true;
			return;
		}
		bytes += (uint64_t)w[k] * (uint64_t)n;
	}
	if (bytes > r->len - r->at) {
		r->bad = true;
		return;
	}
	memset(z, 0, sizeof(uint64_t) * (size_t)n * (size_t)nc);
	for (int t = 0; t < 8; t++)
		for (int k = 0; k < nc; k++) {
			if (w[k] <= t)
				continue;
			int plane = w[k] - 1 - t;
			for (int j = 0; j < n; j++)
				z[(size_t)k * (size_t)n + (size_t)j] |= (uint64_t)r->p[r->at++] << (8 * plane);
		}
	for (int k = 0; k < nc; k++)
		unpredict_column(s, n, kind, k, z + (size_t)k * (size_t)n);
}

struct rec_sample *rec_samples_new(int n, int ncounters)
{
	size_t ns = (size_t)(n > 0 ? n : 1), nc = (size_t)(ncounters > 0 ? ncounters : 1);
	size_t head = ns * sizeof(struct rec_sample), values = ns * nc * sizeof(uint64_t);
	size_t bytes = head + 3 * values + ns * nc;
	unsigned char *block = xmalloc(bytes);
	heap_populate(block, bytes);
	struct rec_sample *s = (struct rec_sample *)block;
	memset(s, 0, head);
	unsigned char *at = block + head; /* head is a multiple of 8: the counts stay aligned */
	for (size_t j = 0; j < ns; j++) {
		s[j].raw = (uint64_t *)(void *)(at + j * nc * sizeof(uint64_t));
		s[j].enabled = (uint64_t *)(void *)(at + values + j * nc * sizeof(uint64_t));
		s[j].running = (uint64_t *)(void *)(at + 2 * values + j * nc * sizeof(uint64_t));
		s[j].state = at + 3 * values + j * nc;
	}
	return s;
}

void rec_samples_free(struct rec_sample *samples)
{
	free(samples);
}

/* The most bytes n samples of nc counters can take encoded: the header, per sample four
 * varint columns (10 bytes at most), two 8-byte gauges and a flag, per counter four
 * varint columns. What a blob claims beyond that is a lie, refused before allocating. */
static uint64_t max_plain(uint64_t n, uint64_t nc)
{
	return 4 + 20 + n * (4 * 10 + 8 + 1 + 8 + 4 * 10 * nc);
}

/* zstd's output in b's buffer, grown only when a chunk needs more */
static unsigned char *plain_room(struct codec_buffers *b, size_t want)
{
	if (want > b->plain_cap || !b->plain) {
		free(b->plain);
		b->plain_cap = want ? want : 1;
		b->plain = xmalloc(b->plain_cap);
		heap_populate(b->plain, b->plain_cap);
	}
	return b->plain;
}

/* a kind's planes gathered into counts, n x nc of them */
static uint64_t *plane_room(struct codec_buffers *b, size_t count)
{
	if (count > b->counts_cap || !b->counts) {
		free(b->counts);
		b->counts_cap = count ? count : 1;
		b->counts = xmalloc(sizeof(uint64_t) * b->counts_cap);
		heap_populate(b->counts, sizeof(uint64_t) * b->counts_cap);
	}
	return b->counts;
}

/* room for n samples of nc counters in b, grown only when a chunk needs more */
static struct rec_sample *sample_room(struct codec_buffers *b, int n, int nc)
{
	if (!b->samples || n > b->cap || nc != b->ncounters) {
		free(b->samples);
		b->samples = rec_samples_new(n, nc);
		b->cap = n;
		b->ncounters = nc;
	}
	return b->samples;
}

int codec_decode_into(struct codec_buffers *b, const unsigned char *blob, size_t size, int ncounters, int max_samples,
		      int *nout, char **err)
{
	*nout = 0;
	*err = NULL;
	if (size < 1 || blob[0] > 1) {
		*err = xstrdup("unknown chunk encoding");
		return -1;
	}
	unsigned char *plain = NULL;
	struct rd r = { .p = blob + 1, .len = size - 1 };
	if (blob[0] == 1) {
		if (record_libs_load(err) < 0)
			return -1;
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
		plain = plain_room(b, (size_t)want);
		if (!b->zstd)
			b->zstd = ZSTD_createDCtx();
		size_t got = b->zstd ? ZSTD_decompressDCtx(b->zstd, plain, (size_t)want, blob + 1, size - 1)
				     : ZSTD_decompress(plain, (size_t)want, blob + 1, size - 1);
		if (ZSTD_isError(got) || got != want) {
			*err = xasprintf("damaged chunk (%s)", ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
			return -1;
		}
		r = (struct rd){ .p = plain, .len = (size_t)want };
	}
	if (r.len < 4 || (memcmp(r.p, MAGIC, 4) && memcmp(r.p, MAGIC_VARINT, 4))) {
		*err = xstrdup("damaged chunk (no header)");
		return -1;
	}
	bool planes = !memcmp(r.p, MAGIC, 4);
	r.at = 4;
	uint64_t n = get_varint(&r), nc = get_varint(&r);
	/* every sample's own columns take 21 bytes at least, and every counter's column a
	 * byte (planes) or a byte a value (varints) */
	if (r.bad || n > MAX_SAMPLES || n > (uint64_t)max_samples || nc != (uint64_t)ncounters || nc > MAX_COUNTERS ||
	    n * (4 + 17) + 4 * nc * (planes ? 1 : n) > r.len - r.at) {
		*err = r.bad || n > MAX_SAMPLES || n > (uint64_t)max_samples || nc > MAX_COUNTERS
			       ? xstrdup("damaged chunk (bad sizes)")
			       : nc != (uint64_t)ncounters ? xasprintf("chunk of %llu counters, the recording has %d",
								      (unsigned long long)nc, ncounters)
							     : xstrdup("damaged chunk (too short)");
		return -1;
	}
	int ni = (int)n;
	struct rec_sample *s = sample_room(b, ni, ncounters);
	uint64_t *z = planes ? plane_room(b, (size_t)ni * (size_t)ncounters) : NULL;
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
	for (int kind = COL_STATE; kind <= COL_RUNNING && !r.bad; kind++)
		if (planes)
			get_kind(&r, s, ni, ncounters, (enum column_kind)kind, z);
		else
			for (int k = 0; k < ncounters && !r.bad; k++)
				get_varint_column(&r, s, ni, (enum column_kind)kind, k);
	if (r.bad || r.at != r.len) {
		*err = xstrdup("damaged chunk (its columns do not add up)");
		return -1;
	}
	*nout = ni;
	return 0;
}

void codec_buffers_free(struct codec_buffers *b)
{
	if (b->zstd)
		ZSTD_freeDCtx(b->zstd);
	free(b->samples);
	free(b->plain);
	free(b->counts);
	*b = (struct codec_buffers){ 0 };
}

int codec_decode(const unsigned char *blob, size_t size, int ncounters, int max_samples, struct rec_sample **out,
		 int *nout, char **err)
{
	struct codec_buffers b = { 0 };
	int r = codec_decode_into(&b, blob, size, ncounters, max_samples, nout, err);
	*out = r == 0 ? b.samples : NULL;
	if (r != 0)
		free(b.samples);
	b.samples = NULL;
	codec_buffers_free(&b);
	return r;
}
