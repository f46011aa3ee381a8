/* SPDX-License-Identifier: GPL-2.0-only */
/* fuzz_recording.c - libFuzzer target for every reader of a whole recording file: a
 * valid recording (tests/fuzz/seed.pmrec, copied for each input) is damaged as the input
 * says - a chunk's bytes, its sample range or count, a meta value (the machine, a
 * profile, the format), an instance or counter row, the tail, an event - and then read
 * as pmutop reads it: record --info, a replay to the end as batch runs it, seeking as
 * the monitor does (--begin/--end, a jump to a time, back to the start). Each either
 * reads or refuses with a message; never a crash, a leak, a hang, or memory out of
 * proportion (run.sh sets -rss_limit_mb).
 *
 * Input: byte 0 the damage, byte 1 which row or key, bytes 2.. the value written. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/textbuf.h"
#include "profile/profile.h"
#include "engine/session.h"
#include "record/info.h"
#include "record/replay.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char seed_path[] = PMUTOP_SRCDIR "/tests/fuzz/seed.pmrec";
static char work[64];

static void copy_seed(void)
{
	FILE *in = fopen(seed_path, "rb"), *out = fopen(work, "wb");
	char buf[65536];
	size_t n;
	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
}

/* The damage the input describes, as SQL on the copy. */
static void damage(const unsigned char *data, size_t size)
{
	static const char *const sql[] = {
		"UPDATE chunks SET data = ?1 WHERE id = (SELECT id FROM chunks ORDER BY id LIMIT 1 OFFSET ?2)",
		"UPDATE chunks SET first_seq = first_seq + ?3 WHERE id = (SELECT id FROM chunks ORDER BY id LIMIT 1 OFFSET ?2)",
		"UPDATE chunks SET last_seq = last_seq + ?3 WHERE id = (SELECT id FROM chunks ORDER BY id LIMIT 1 OFFSET ?2)",
		"UPDATE meta SET value = ?1 WHERE key = (SELECT key FROM meta ORDER BY key LIMIT 1 OFFSET ?2)",
		"UPDATE instances SET error = ?1, opened = ?2 % 2 WHERE idx = ?2",
		"UPDATE counters SET cpu = ?3, event = ?1 WHERE slot = ?2",
		"UPDATE tail SET data = ?1 WHERE seq = (SELECT seq FROM tail ORDER BY seq LIMIT 1 OFFSET ?2)",
		"INSERT INTO events(seq, kind, instance, instance_name, term, value) VALUES (?3, 'filter', ?2, ?1, ?1, ?1)",
		"DELETE FROM chunks WHERE id = (SELECT id FROM chunks ORDER BY id LIMIT 1 OFFSET ?2)",
		"UPDATE chunks SET t_first = t_first + ?3 * 1000000000 WHERE id = (SELECT id FROM chunks ORDER BY id LIMIT 1 OFFSET ?2)",
	};
	sqlite3 *db;
	if (sqlite3_open(work, &db) != SQLITE_OK) {
		sqlite3_close(db);
		return;
	}
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, sql[data[0] % (sizeof(sql) / sizeof(sql[0]))], -1, &st, NULL) == SQLITE_OK) {
		const unsigned char *v = data + 2;
		size_t n = size - 2;
		unsigned long long u = 0;
		for (size_t i = 0; i < n && i < 7; i++) /* 56 bits: a count, a shift, a time */
			u = u * 256 + v[i];
		long long num = (long long)u;
		if (data[0] % 4 == 0) /* a blob where one is read, text elsewhere */
			sqlite3_bind_blob(st, 1, v, (int)n, SQLITE_TRANSIENT);
		else
			sqlite3_bind_text(st, 1, (const char *)v, (int)n, SQLITE_TRANSIENT);
		sqlite3_bind_int(st, 2, data[1]);
		sqlite3_bind_int64(st, 3, (n && v[0] & 0x80) ? -num : num);
		sqlite3_step(st);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
}

/* As a replay to batch does: every frame, then the monitor's jumps. */
static void replay_all(void)
{
	char *err = NULL;
	struct replay *r = replay_open(work, &err);
	free(err);
	if (!r)
		return;
	struct profile **profs = NULL;
	err = NULL;
	int np = replay_profiles(r, &profs, &err);
	free(err);
	struct session *s = np > 0 ? session_new(replay_machine(r), profs, np) : NULL;
	err = NULL;
	if (s && replay_attach(r, s, &err) == 0) {
		struct replay_position pos;
		replay_position(r, &pos);
		replay_set_range(r, pos.wall_first, pos.wall_last); /* --begin/--end at its ends */
		session_use_clock(s, replay_clock(r, true));
		session_start(s, replay_start_ns(r));
		uint64_t t;
		for (int i = 0; i < 400 && (t = replay_pacer(r)) != UINT64_MAX; i++)
			session_sample(s, t);
		replay_seek(r, replay_seq_at_wall(r, pos.wall_first + (pos.wall_last - pos.wall_first) / 2));
		if ((t = replay_pacer(r)) != UINT64_MAX)
			session_sample(s, t);
		replay_seek(r, 0);
		if ((t = replay_pacer(r)) != UINT64_MAX)
			session_sample(s, t);
	}
	free(err);
	session_free(s);
	for (int i = 0; i < np; i++)
		profile_free(profs[i]);
	free(profs);
	replay_close(r);
}

static void remove_work(void)
{
	unlink(work); /* the copy is the target's own: nothing left in /tmp after a run */
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size < 2)
		return 0;
	if (!work[0]) {
		snprintf(work, sizeof(work), "/tmp/fuzz-recording-%d.pmrec", (int)getpid());
		diag_set_quiet(true);
		atexit(remove_work);
	}
	copy_seed();
	damage(data, size);
	struct textbuf out = { 0 };
	char *err = NULL;
	record_info(work, &out, &err);
	free(err);
	textbuf_free(&out);
	replay_all();
	diag_clear();
	return 0;
}
