/* SPDX-License-Identifier: GPL-2.0-only */
/* check_record.c - the recording's parts: the column codec (round trip, idle counters
 * nearly free, damage found rather than crashed on), the machine snapshot (round trip
 * of every demo machine, errors with a line), and the store (tail, chunks, seeking by
 * seq and time, format checks). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "base/util.h"
#include "machine/discover.h"
#include "machine/pmu.h"
#include "machine/snapshot.h"
#include "record/codec.h"
#include "record/store.h"
#include "testutil.h"

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 11;
}

static struct rec_sample *make_samples(int n, int nc, uint64_t seed, bool idle)
{
	struct rec_sample *s = rec_samples_new(n, nc);
	for (int j = 0; j < n; j++) {
		s[j].seq = 100 + (uint64_t)j;
		s[j].time_ns = 5000000000ull + (uint64_t)j * 1000000000ull + rnd(&seed) % 1000;
		s[j].wall_ns = 1700000000000000000ull + (uint64_t)j * 1000000000ull;
		s[j].interval_ns = 1000000000ull;
		s[j].cpu_util = j % 3 ? 12.5 * j : NAN;
		s[j].have_temp = j & 1;
		s[j].temp_c = 40 + j;
		for (int k = 0; k < nc; k++) {
			s[j].state[k] = idle ? 0 : (uint8_t)(rnd(&seed) % 5);
			s[j].raw[k] = idle ? 0 : k % 7 == 0 ? rnd(&seed) << 11 : 1000000000ull + rnd(&seed) % 2000000;
			s[j].enabled[k] = 1000000000ull;
			s[j].running[k] = idle ? 1000000000ull : rnd(&seed) % 1000000000ull;
		}
	}
	return s;
}

static void assert_same(const struct rec_sample *a, const struct rec_sample *b, int nc)
{
	ck_assert_uint_eq(a->seq, b->seq);
	ck_assert_uint_eq(a->time_ns, b->time_ns);
	ck_assert_uint_eq(a->wall_ns, b->wall_ns);
	ck_assert_uint_eq(a->interval_ns, b->interval_ns);
	ck_assert(memcmp(&a->cpu_util, &b->cpu_util, sizeof(double)) == 0); /* NAN too, bit for bit */
	ck_assert_uint_eq(a->have_temp, b->have_temp);
	ck_assert(memcmp(a->state, b->state, (size_t)nc) == 0);
	ck_assert(memcmp(a->raw, b->raw, sizeof(uint64_t) * (size_t)nc) == 0);
	ck_assert(memcmp(a->enabled, b->enabled, sizeof(uint64_t) * (size_t)nc) == 0);
	ck_assert(memcmp(a->running, b->running, sizeof(uint64_t) * (size_t)nc) == 0);
}

START_TEST(codec_round_trip_and_damage)
{
	int n = 60, nc = 97;
	struct rec_sample *s = make_samples(n, nc, 7, false);
	for (int level = 0; level <= 3; level += 3) {
		size_t size;
		unsigned char *blob = codec_encode(s, n, nc, level, &size);
		struct rec_sample *d;
		int nd;
		char *err;
		ck_assert_int_eq(codec_decode(blob, size, nc, n, &d, &nd, &err), 0);
		ck_assert_int_eq(nd, n);
		for (int j = 0; j < n; j++)
			assert_same(&s[j], &d[j], nc);
		rec_samples_free(d);
		/* another recording's counters, cut short, bytes flipped: an error, never a crash */
		ck_assert_int_lt(codec_decode(blob, size, nc + 1, n, &d, &nd, &err), 0);
		ck_assert_msg(strstr(err, "counters"), "%s", err);
		free(err);
		ck_assert_int_lt(codec_decode(blob, size / 2, nc, n, &d, &nd, &err), 0);
		free(err);
		for (size_t at = 1; at < size; at += size / 13 + 1) {
			unsigned char *bad = xmalloc(size);
			memcpy(bad, blob, size);
			bad[at] ^= 0x5a;
			if (codec_decode(bad, size, nc, n, &d, &nd, &err) == 0)
				rec_samples_free(d); /* a flip inside a value can decode; it must not crash */
			else
				free(err);
			free(bad);
		}
		/* more samples than the file's index says the chunk holds: refused before any
		 * allocation, whatever its zstd frame claims */
		ck_assert_int_lt(codec_decode(blob, size, nc, n - 1, &d, &nd, &err), 0);
		free(err);
		free(blob);
	}
	rec_samples_free(s);
	/* a 2 GiB frame of zeros in a few hundred bytes (the crafted recording's trick): its
	 * claimed size is checked against what the index allows before anything is allocated */
	size_t zsize = ZSTD_compressBound(1u << 26);
	unsigned char *z = xmalloc(zsize + 1);
	unsigned char *zeros = xcalloc(1u << 26, 1);
	z[0] = 1;
	size_t got = ZSTD_compress(z + 1, zsize, zeros, 1u << 26, 19);
	ck_assert(!ZSTD_isError(got) && got < 100000);
	struct rec_sample *d;
	int nd;
	char *err;
	ck_assert_int_lt(codec_decode(z, got + 1, 10, 60, &d, &nd, &err), 0);
	ck_assert_msg(strstr(err, "more than 60 samples of 10 counters take"), "%s", err);
	free(err);
	free(zeros);
	free(z);
}
END_TEST

/* A version 1 chunk ("PMC1", RECORDING.md: every column zig-zag varint deltas, stored
 * without zstd), written here from the format's description: recordings made before
 * byte planes still replay. */
static void v1_varint(unsigned char *p, size_t *at, uint64_t v)
{
	while (v >= 0x80) {
		p[(*at)++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[(*at)++] = (unsigned char)v;
}

static void v1_column(unsigned char *p, size_t *at, const uint64_t *v, int n)
{
	uint64_t prev = 0;
	for (int j = 0; j < n; j++) {
		int64_t d = (int64_t)(v[j] - prev);
		v1_varint(p, at, ((uint64_t)d << 1) ^ (uint64_t)(d >> 63));
		prev = v[j];
	}
}

START_TEST(version_1_chunks_still_decode)
{
	int n = 5, nc = 3;
	struct rec_sample *s = make_samples(n, nc, 11, false);
	unsigned char *blob = xcalloc(1, 4096);
	size_t at = 1; /* blob[0] = 0: stored */
	memcpy(blob + at, "PMC1", 4);
	at += 4;
	v1_varint(blob, &at, (uint64_t)n);
	v1_varint(blob, &at, (uint64_t)nc);
	uint64_t col[5];
	for (int c = 0; c < 4; c++) {
		for (int j = 0; j < n; j++)
			col[j] = c == 0 ? s[j].seq : c == 1 ? s[j].time_ns : c == 2 ? s[j].wall_ns : s[j].interval_ns;
		v1_column(blob, &at, col, n);
	}
	for (int j = 0; j < n; j++) {
		memcpy(blob + at, &s[j].cpu_util, 8); /* little-endian here, as the format says */
		at += 8;
		blob[at++] = s[j].have_temp;
		memcpy(blob + at, &s[j].temp_c, 8);
		at += 8;
	}
	for (int kind = 0; kind < 4; kind++)
		for (int k = 0; k < nc; k++) {
			for (int j = 0; j < n; j++)
				col[j] = kind == 0 ? s[j].state[k] : kind == 1 ? s[j].raw[k] : kind == 2 ? s[j].enabled[k] : s[j].running[k];
			v1_column(blob, &at, col, n);
		}
	struct rec_sample *d;
	int nd;
	char *err;
	ck_assert_int_eq(codec_decode(blob, at, nc, n, &d, &nd, &err), 0);
	ck_assert_int_eq(nd, n);
	for (int j = 0; j < n; j++)
		assert_same(&s[j], &d[j], nc);
	rec_samples_free(d);
	/* and the writer writes version 2 */
	size_t size;
	unsigned char *v2 = codec_encode(s, n, nc, 0, &size);
	ck_assert(size > 5 && !memcmp(v2 + 1, "PMC2", 4));
	free(v2);
	free(blob);
	rec_samples_free(s);
}
END_TEST

START_TEST(idle_counters_cost_almost_nothing)
{
	int n = 60, nc = 1000;
	struct rec_sample *s = make_samples(n, nc, 3, true);
	size_t size;
	unsigned char *blob = codec_encode(s, n, nc, 3, &size);
	double per = (double)size / n / nc;
	ck_assert_msg(per <= 0.2, "%.3f bytes per idle counter per sample", per);
	free(blob);
	rec_samples_free(s);
}
END_TEST

START_TEST(snapshot_round_trip)
{
	static const char *const demos[] = { "tegra410", "spr", "hip09", "bluefield2", "bluefield3" };
	for (size_t i = 0; i < ARRAY_SIZE(demos); i++) {
		char *rel = xasprintf("profiles/machines/%s", demos[i]);
		char *root = src_path(rel);
		struct machine *m = machine_discover(root);
		char *a = machine_snapshot(m), *err;
		struct machine *back = machine_from_snapshot(a, &err);
		ck_assert_msg(back != NULL, "%s: %s", demos[i], err);
		char *b = machine_snapshot(back);
		ck_assert_str_eq(a, b);
		ck_assert_int_eq(back->npmus, m->npmus);
		ck_assert_int_eq(back->max_cpu, m->max_cpu);
		free(a);
		free(b);
		machine_free(back);
		machine_free(m);
		free(root);
		free(rel);
	}
	char *err;
	ck_assert_ptr_null(machine_from_snapshot("hello\n", &err));
	ck_assert_str_eq(err, "not a pmutop machine description");
	free(err);
	ck_assert_ptr_null(machine_from_snapshot("pmutop-machine 1\nroot\t/\nonline\t0-3\t4\npmu\tx\n", &err));
	ck_assert_msg(strstr(err, "line 4"), "%s", err);
	free(err);
}
END_TEST

static void page_size_row(void *ctx, int n, const char *const *v)
{
	if (n == 1 && v[0])
		*(int *)ctx = atoi(v[0]);
}

/* A file's pages follow the chunks it will hold: a small profile's 2 KB chunks in 512-byte
 * pages (each table's root and a chunk's last page stay small), a demo-sized one's 200 KB
 * in 2 KiB pages (a 4-byte link and a read() a page). */
START_TEST(store_pages_follow_chunks)
{
	char *dir = tmp_dir();
	int sizes[][2] = { { 8, 512 }, { 1250, 2048 }, { 100000, 4096 } };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *path = xasprintf("%s/p%zu.pmrec", dir, i);
		char *err = NULL;
		struct store *st = store_create(path, false, sizes[i][0], &err);
		ck_assert_msg(st != NULL, "%s", err);
		int page = 0;
		ck_assert_int_eq(store_query(st, "PRAGMA page_size", page_size_row, &page, &err), 0);
		ck_assert_int_eq(page, sizes[i][1]);
		store_close(st);
		free(path);
	}
}
END_TEST

START_TEST(store_tail_chunks_and_seeking)
{
	char *dir = tmp_dir();
	char *path = xasprintf("%s/s.pmrec", dir);
	int n = 150, nc = 20;
	struct rec_sample *s = make_samples(n, nc, 11, false);
	char *err = NULL;
	struct store *st = store_create(path, false, 8, &err);
	ck_assert_msg(st != NULL, "%s", err);
	char num[16];
	snprintf(num, sizeof(num), "%d", nc);
	ck_assert_int_eq(store_put_meta(st, "format", STORE_FORMAT, &err), 0);
	ck_assert_int_eq(store_put_meta(st, "version", "1", &err), 0);
	ck_assert_int_eq(store_put_meta(st, "ncounters", num, &err), 0);
	int held = 0;
	for (int j = 0; j < n; j++) {
		ck_assert_int_eq(store_append(st, &s[j], nc, NULL, 0, &err), 0);
		if (++held == STORE_CHUNK) {
			ck_assert_int_eq(store_fold(st, &s[j + 1 - held], held, nc, &err), 0);
			held = 0;
		}
	}
	/* the last 30 stay in the tail, as after a crash */
	store_close(st);
	ck_assert_ptr_null(store_create(path, false, 8, &err)); /* never over a file */
	ck_assert_msg(strstr(err, "exists"), "%s", err);
	free(err);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "%s", err);
	uint64_t first, last;
	store_range(st, &first, &last);
	ck_assert_uint_eq(first, 100);
	ck_assert_uint_eq(last, 100 + (uint64_t)n - 1);
	struct rec_sample got;
	rec_sample_alloc(&got, nc);
	for (int j = n - 1; j >= 0; j -= 7) { /* backwards, across chunks and the tail */
		ck_assert_int_eq(store_sample(st, s[j].seq, &got, &err), 0);
		assert_same(&s[j], &got, nc);
	}
	ck_assert_int_eq(store_sample(st, 99, &got, &err), 1);
	ck_assert_uint_eq(store_seq_at(st, s[75].time_ns), s[75].seq);
	ck_assert_uint_eq(store_seq_at(st, s[75].time_ns - 1), s[74].seq);
	ck_assert_uint_eq(store_seq_at(st, s[140].time_ns + 5), s[140].seq); /* in the tail */
	ck_assert_uint_eq(store_seq_at(st, 0), s[0].seq);
	rec_sample_free(&got);
	store_close(st);
	rec_samples_free(s);
	free(path);
}
END_TEST

/* Long meta texts (the snapshot, profiles) are zstd blobs; text rows (older files) read
 * as they are; a blob that is not a frame, or claims more than a reader takes, reads as
 * none (the replay then says the file is damaged). */
START_TEST(long_meta_packed_and_checked)
{
	char *dir = tmp_dir();
	char *path = xasprintf("%s/m.pmrec", dir);
	char *err = NULL;
	struct store *st = store_create(path, false, 8, &err);
	ck_assert_msg(st != NULL, "%s", err);
	size_t len = 40000;
	char *text = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		text[i] = (char)('a' + (i * 7 + i / 13) % 26);
	text[len] = 0;
	ck_assert_int_eq(store_put_meta(st, "machine", text, &err), 0);
	ck_assert_int_eq(store_put_meta(st, "host", "short", &err), 0);
	ck_assert_int_eq(store_put_meta(st, "format", STORE_FORMAT, &err), 0);
	ck_assert_int_eq(store_put_meta(st, "version", "1", &err), 0);
	ck_assert_int_eq(store_put_meta(st, "ncounters", "1", &err), 0);
	store_close(st);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_stmt *q;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT typeof(value), length(value) FROM meta WHERE key = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_text(q, 1, "machine", -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(q, 0), "blob");
	ck_assert_int_lt(sqlite3_column_int(q, 1), (int)len / 4);
	sqlite3_reset(q);
	sqlite3_bind_text(q, 1, "host", -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(q, 0), "text");
	sqlite3_finalize(q);
	st = store_open(path, &err);
	ck_assert_msg(st != NULL, "%s", err);
	char *got = store_meta(st, "machine");
	ck_assert_str_eq(got, text);
	free(got);
	store_close(st);
	/* as an older file holds it: text */
	ck_assert_int_eq(sqlite3_prepare_v2(db, "UPDATE meta SET value = ?1 WHERE key = 'machine'", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
	st = store_open(path, &err);
	got = store_meta(st, "machine");
	ck_assert_str_eq(got, text);
	free(got);
	store_close(st);
	/* not a zstd frame; a frame that says it holds 1 GiB (its header only) */
	const char *bad[] = { "UPDATE meta SET value = X'00112233445566' WHERE key = 'machine'",
			      "UPDATE meta SET value = X'28B52FFDE00000004000000000' WHERE key = 'machine'" };
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(sqlite3_exec(db, bad[i], NULL, NULL, NULL), SQLITE_OK);
		st = store_open(path, &err);
		ck_assert_ptr_null(store_meta(st, "machine"));
		store_close(st);
	}
	sqlite3_close(db);
	free(text);
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record");
	TCase *t = tcase_create("record");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, codec_round_trip_and_damage);
	tcase_add_test(t, version_1_chunks_still_decode);
	tcase_add_test(t, idle_counters_cost_almost_nothing);
	tcase_add_test(t, snapshot_round_trip);
	tcase_add_test(t, store_tail_chunks_and_seeking);
	tcase_add_test(t, store_pages_follow_chunks);
	tcase_add_test(t, long_meta_packed_and_checked);
	suite_add_tcase(s, t);
	return run_suite(s);
}
