/* SPDX-License-Identifier: GPL-2.0-only */
/* bench_record.c - make bench's recording figures: a 24-hour recording of the demo's
 * size (1 s samples, its counters with the model's 0.2 % noise), written through the
 * real codec and store; then opening it as a replay starts (to its first sample), and
 * jumping to random moments in it as a replay's jump does (finding the moment, decoding
 * its chunk). Prints "bench: NAME VALUE UNIT". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "record/codec.h"
#include "record/store.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One jump, as a replay's: find the moment, decode its chunk. Its own function so that
 * callgrind can count it alone (--toggle-collect=seek_once): the seek's instruction
 * count, which does not swing with the machine as its wall time does. */
__attribute__((noinline)) static int seek_once(struct store *r, uint64_t t, struct rec_sample *got, char **err)
{
	return store_sample(r, store_seq_at(r, t), got, err);
}

/* bench_record FILE NC HOURS seek: 200 jumps in an existing recording, nothing timed */
static int seeks_only(const char *path, int nc, int n)
{
	char *err = NULL;
	struct store *r = store_open(path, &err);
	if (!r) {
		fprintf(stderr, "bench_record: %s\n", err ? err : "cannot open");
		return 1;
	}
	struct rec_sample got;
	rec_sample_alloc(&got, nc);
	uint64_t seed = 88172645463325252ull;
	for (int i = 0; i < 200; i++)
		if (seek_once(r, 1000000000ull * (1 + rnd(&seed) % (uint64_t)n), &got, &err) != 0) {
			fprintf(stderr, "bench_record: %s\n", err ? err : "seek failed");
			return 1;
		}
	rec_sample_free(&got);
	store_close(r);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/pmutop-bench-24h.pmrec";
	int nc = argc > 2 ? atoi(argv[2]) : 1098, hours = argc > 3 ? atoi(argv[3]) : 24;
	int n = hours * 3600;
	if (argc > 4 && !strcmp(argv[4], "seek"))
		return seeks_only(path, nc, n);
	uint64_t seed = 88172645463325252ull;
	unlink(path);
	char *err = NULL;
	struct store *st = store_create(path, true, nc, &err);
	if (!st) {
		fprintf(stderr, "bench_record: %s\n", err);
		return 1;
	}
	char num[32];
	snprintf(num, sizeof(num), "%d", nc);
	store_put_meta(st, "format", STORE_FORMAT, &err);
	store_put_meta(st, "version", "1", &err);
	store_put_meta(st, "ncounters", num, &err);
	double *rate = xmalloc(sizeof(double) * (size_t)nc);
	uint64_t *total = xcalloc((size_t)nc, sizeof(uint64_t)); /* counters are cumulative */
	for (int k = 0; k < nc; k++) /* counts per second like the demo's: 1e6 to 1e11 */
		rate[k] = 1e6 * (double)(1 + rnd(&seed) % 100000);
	struct rec_sample chunk[STORE_CHUNK];
	for (int j = 0; j < STORE_CHUNK; j++)
		rec_sample_alloc(&chunk[j], nc);
	uint64_t t0 = clock_monotonic_ns();
	store_exec(st, "PRAGMA synchronous=OFF", &err); /* the generator's speed, not the recorder's */
	for (int j = 0; j < n; j++) {
		struct rec_sample *s = &chunk[j % STORE_CHUNK];
		s->seq = (uint64_t)j + 1;
		s->time_ns = 1000000000ull * (uint64_t)(j + 1);
		s->wall_ns = 1700000000000000000ull + s->time_ns;
		s->interval_ns = 1000000000ull;
		s->cpu_util = 0.0 / 0.0;
		for (int k = 0; k < nc; k++) {
			double noise = 1 + 0.002 * (((double)(rnd(&seed) >> 11) / 9007199254740992.0) * 2 - 1);
			s->state[k] = 0;
			s->raw[k] = total[k] += (uint64_t)(rate[k] * noise);
			s->enabled[k] = s->running[k] = 1000000000ull;
		}
		if (j % STORE_CHUNK == STORE_CHUNK - 1 && store_fold(st, chunk, STORE_CHUNK, nc, &err) < 0) {
			fprintf(stderr, "bench_record: %s\n", err);
			return 1;
		}
	}
	store_finish(st, &err);
	store_close(st);
	double gen_s = (double)(clock_monotonic_ns() - t0) / 1e9;
	sync(); /* the seeks time reading, not the write-back of the 385 MB just generated */
	/* a replay opens the file and shows its first sample, then jumps in it: the opening
	 * (median of 20 opens), then 200 jumps in one open file, each finding the moment
	 * and decoding its chunk - the worst and the median */
	struct rec_sample got;
	rec_sample_alloc(&got, nc);
	double open_ms[20];
	struct store *r = NULL;
	for (int i = 0; i < 20; i++) {
		store_close(r);
		uint64_t a = clock_monotonic_ns();
		r = store_open(path, &err);
		if (!r || store_sample(r, store_seq_at(r, 0), &got, &err) != 0) {
			fprintf(stderr, "bench_record: %s\n", err ? err : "cannot open");
			return 1;
		}
		open_ms[i] = (double)(clock_monotonic_ns() - a) / 1e6;
	}
	int nseek = 200;
	double *ms = xmalloc(sizeof(double) * (size_t)nseek);
	for (int i = 0; i < nseek; i++) {
		uint64_t t = 1000000000ull * (1 + rnd(&seed) % (uint64_t)n);
		uint64_t a = clock_monotonic_ns();
		int rc = seek_once(r, t, &got, &err);
		ms[i] = (double)(clock_monotonic_ns() - a) / 1e6;
		if (rc != 0 || got.time_ns != t) {
			fprintf(stderr, "bench_record: seek to %llu found %llu\n", (unsigned long long)t,
				(unsigned long long)got.time_ns);
			return 1;
		}
	}
	store_close(r);
	for (int i = 1; i < 20; i++) /* sort */
		for (int k = i; k > 0 && open_ms[k] < open_ms[k - 1]; k--) {
			double x = open_ms[k];
			open_ms[k] = open_ms[k - 1];
			open_ms[k - 1] = x;
		}
	for (int i = 1; i < nseek; i++) /* sort */
		for (int k = i; k > 0 && ms[k] < ms[k - 1]; k--) {
			double x = ms[k];
			ms[k] = ms[k - 1];
			ms[k - 1] = x;
		}
	st = store_open(path, &err);
	uint64_t chunk_bytes, file_bytes, chunk_samples;
	store_sizes(st, &chunk_bytes, &file_bytes, &chunk_samples);
	store_close(st);
	printf("bench: record_24h_generate %.1f s\n", gen_s);
	printf("bench: record_24h_file %.1f MB\n", (double)file_bytes / 1e6);
	printf("bench: record_open_24h %.2f ms\n", open_ms[10]);
	printf("bench: record_seek_24h_median %.2f ms\n", ms[nseek / 2]);
	printf("bench: record_seek_24h %.2f ms\n", ms[nseek - 1]);
	if (!(argc > 4 && !strcmp(argv[4], "keep"))) /* keep: for the seek's count after */
		unlink(path);
	return 0;
}
