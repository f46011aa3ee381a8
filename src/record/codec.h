/* SPDX-License-Identifier: GPL-2.0-only */
/* codec.h - samples of a recording as bytes: column-major, zig-zag varint deltas, then
 * zstd. A chunk holds consecutive samples of the same counters; each column starts
 * from zero in every chunk, so a chunk decodes alone (seeking reads one). */
#ifndef PMUTOP_CODEC_H
#define PMUTOP_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* One frame's worth of what a replay needs. */
struct rec_sample {
	uint64_t seq, time_ns, wall_ns, interval_ns;
	double cpu_util;
	uint8_t have_temp;
	double temp_c;
	/* per counter slot: state (enum value_state), raw count (gauge: reading bits),
	 * enabled and running ns of the interval */
	uint8_t *state;
	uint64_t *raw, *enabled, *running;
};

void rec_sample_alloc(struct rec_sample *s, int ncounters);
void rec_sample_free(struct rec_sample *s);
void rec_sample_copy(struct rec_sample *dst, const struct rec_sample *src, int ncounters);
/* n samples in one block, their arrays in it (what codec_decode returns), the values
 * unwritten; one free */
struct rec_sample *rec_samples_new(int n, int ncounters);
void rec_samples_free(struct rec_sample *samples);

/* Encode n samples of ncounters; compress with zstd at level (0: store; AUTO: as hard
 * as ~0.1 s of the recorder's thread allows for the chunk's size). Returns a malloc'd
 * blob and its size. */
#define CODEC_LEVEL_AUTO (-1)
unsigned char *codec_encode(const struct rec_sample *samples, int n, int ncounters, int level, size_t *size);
/* Decode a blob into *n freshly allocated samples of ncounters; 0, or -1 with *err set
 * when the blob is damaged, holds another number of counters, or more than max_samples
 * (what the file's index says it holds: nothing is allocated for more). */
int codec_decode(const unsigned char *blob, size_t size, int ncounters, int max_samples, struct rec_sample **samples,
		 int *n, char **err);

/* Where a reader decodes its chunks, kept from one chunk to the next: memory written
 * for the first time costs ten times what memory used again does in a VM (a seek of
 * the 24-hour bench decoded into 5 MB of fresh pages: 7 ms, 2 ms into the same again). */
struct codec_buffers {
	struct rec_sample *samples; /* room for cap samples of ncounters */
	int cap, ncounters;
	unsigned char *plain; /* zstd's output */
	size_t plain_cap;
	uint64_t *counts; /* a kind's byte planes gathered */
	size_t counts_cap;
	void *zstd; /* its ZSTD_DCtx (ZSTD_decompress made one a chunk) */
};
/* codec_decode into b: the samples are b->samples[0..*n), valid until the next decode
 * into b or codec_buffers_free */
int codec_decode_into(struct codec_buffers *b, const unsigned char *blob, size_t size, int ncounters, int max_samples,
		      int *n, char **err);
void codec_buffers_free(struct codec_buffers *b);

#endif
