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
void codec_free_samples(struct rec_sample *samples, int n);

#endif
