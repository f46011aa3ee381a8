/* SPDX-License-Identifier: GPL-2.0-only */
/* store.c - the SQLite side of recordings.
 *
 * Writing: WAL with synchronous=NORMAL, so a process killed at any moment leaves every
 * committed sample (one transaction per sample); a power loss may lose the last
 * commits, never the file. Every STORE_CHUNK samples the tail rows become one zstd chunk
 * in one transaction. Reading: read-only, the chunk of a seq found through its index,
 * decoded once and kept for the next seqs. */
#include "record/store.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <zstd.h>

#include "base/util.h"
#include "record/libs_shim.h"

struct store {
	sqlite3 *db;
	char *path;
	bool writer;
	int lock_fd; /* the writer's: an flock() held while it writes (-1: none) */
	int ncounters;
	/* reader's cache: the decoded chunk (or tail row) that holds seqs first..last */
	struct codec_buffers decoded; /* cache points into it */
	struct rec_sample *cache;
	int ncache;
	uint64_t cache_first;
};

static const char *const schema =
	"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
	"CREATE TABLE counters(slot INTEGER PRIMARY KEY, instance TEXT, grp TEXT, pmu TEXT, event TEXT, cpu INTEGER,"
	" config TEXT, kind TEXT, width INTEGER);"
	"CREATE TABLE instances(idx INTEGER PRIMARY KEY, name TEXT, grp TEXT, profile TEXT, opened INTEGER, error TEXT);"
	"CREATE TABLE events(id INTEGER PRIMARY KEY, seq INTEGER, kind TEXT, instance INTEGER, instance_name TEXT,"
	" term TEXT, value TEXT);"
	"CREATE TABLE tail(seq INTEGER PRIMARY KEY, t_ns INTEGER, data BLOB);"
	"CREATE TABLE chunks(id INTEGER PRIMARY KEY, first_seq INTEGER, last_seq INTEGER, t_first INTEGER,"
	" t_last INTEGER, wall_first INTEGER, wall_last INTEGER, nsamples INTEGER, data BLOB);"
	"CREATE INDEX chunks_seq ON chunks(first_seq);"
	"CREATE INDEX chunks_t ON chunks(t_first);"
	"CREATE TABLE tasks(seq INTEGER, threads INTEGER, pid INTEGER, tgid INTEGER, comm TEXT, user TEXT,"
	" nthreads INTEGER, cpu_pct REAL, ipc REAL, llc_mpki REAL, branch_mpki REAL, why TEXT, cgroup TEXT,"
	" retiring REAL, bad_speculation REAL, frontend_bound REAL, backend_bound REAL, cycles_share REAL);"
	"CREATE INDEX tasks_seq ON tasks(seq);"
	"CREATE TABLE cgroups(seq INTEGER, threads INTEGER, pid INTEGER, tgid INTEGER, comm TEXT, user TEXT,"
	" nthreads INTEGER, cpu_pct REAL, ipc REAL, llc_mpki REAL, branch_mpki REAL, why TEXT, cgroup TEXT,"
	" retiring REAL, bad_speculation REAL, frontend_bound REAL, backend_bound REAL, cycles_share REAL);"
	"CREATE INDEX cgroups_seq ON cgroups(seq);";

/* Whether the recording or its write-ahead log reached the file size limit (`ulimit -f`;
 * SIGXFSZ is ignored, so a write past it is EFBIG, which SQLite reports as a "disk I/O
 * error" and whose errno it does not keep): within a page of it. */
static bool at_size_limit(const struct store *st)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return false;
	char *wal = xasprintf("%s-wal", st->path);
	struct stat a, b;
	bool near = (stat(st->path, &a) == 0 && (rlim_t)a.st_size + 65536 > rl.rlim_cur) ||
		    (stat(wal, &b) == 0 && (rlim_t)b.st_size + 65536 > rl.rlim_cur);
	free(wal);
	return near;
}

/* What the system meant under SQLite's error, where it is known. */
static const char *system_cause(struct store *st)
{
	if (sqlite3_system_errno(st->db) == EFBIG || at_size_limit(st))
		return " (the file size limit, ulimit -f: the recording keeps its samples up to there)";
	if (sqlite3_system_errno(st->db) == ENOSPC)
		return " (no space left on the device)";
	return "";
}

static int fail(struct store *st, char **err, const char *what)
{
	*err = xasprintf("%s: %s: %s%s", st->path, what, sqlite3_errmsg(st->db), system_cause(st));
	return -1;
}

/* A file pmutop made (its application id) with nothing in it yet. */
static bool is_ours(struct store *st)
{
	sqlite3_stmt *q;
	bool ours = false;
	if (sqlite3_prepare_v2(st->db, "PRAGMA application_id", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		ours = sqlite3_column_int64(q, 0) == strtoll(STORE_APPLICATION_ID, NULL, 10);
	sqlite3_finalize(q);
	return ours;
}

int store_exec(struct store *st, const char *sql, char **err)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		*err = xasprintf("%s: %s%s", st->path, msg ? msg : sqlite3_errmsg(st->db), system_cause(st));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* What is at path, when it is not a pmutop recording (NULL: nothing, or a recording);
 * *err set instead when it cannot be looked at. */
static char *what_is_there(const char *path, char **err)
{
	struct stat sb;
	if (lstat(path, &sb) != 0) {
		if (errno != ENOENT)
			*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	const char *kind = S_ISLNK(sb.st_mode) ? "a symbolic link" : S_ISDIR(sb.st_mode) ? "a directory"
			   : S_ISCHR(sb.st_mode) ? "a character device" : S_ISBLK(sb.st_mode) ? "a block device"
			   : S_ISFIFO(sb.st_mode) ? "a pipe" : S_ISSOCK(sb.st_mode) ? "a socket"
			   : !S_ISREG(sb.st_mode) ? "not a regular file" : NULL;
	if (kind)
		return xstrdup(kind);
	char *why = NULL;
	struct store *old = store_open(path, &why);
	if (!old) {
		free(why);
		return xstrdup("not a pmutop recording");
	}
	store_close(old);
	return NULL;
}

/* The process holding an flock() on the file at path (from /proc/locks, by its device
 * and inode), or 0 where none or none can be named. */
static long lock_holder(const char *path)
{
	struct stat st;
	FILE *f = stat(path, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
	long pid = 0;
	char line[256];
	while (f && !pid && fgets(line, sizeof(line), f)) {
		long who;
		unsigned maj, min;
		unsigned long long ino;
		if (strstr(line, "FLOCK") && sscanf(strchr(line, ':') + 1, " %*s %*s %*s %ld %x:%x:%llu", &who, &maj, &min, &ino) == 4 &&
		    ino == (unsigned long long)st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev))
			pid = who;
	}
	if (f)
		fclose(f);
	return pid;
}

/* Whether another process is writing the recording at path: its writer holds an flock()
 * on it (SQLite's own locks are fcntl()'s, which flock() does not meet) while it writes. */
static bool being_written(const char *path, long *pid)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	bool busy = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	if (fd >= 0)
		close(fd);
	*pid = busy ? lock_holder(path) : 0;
	return busy;
}

/* --force replaces a pmutop recording and nothing else: not a device node (as root,
 * -w /dev/null --force would have replaced it with a file), not another program's file,
 * never through a symbolic link. Without --force nothing is replaced, and the message
 * says whether --force would help. */
int store_may_write(const char *path, bool force, char **err)
{
	*err = NULL;
	if (record_libs_load(err) < 0)
		return -1;
	long pid; /* first: a file being written has no header yet (SQLite's WAL holds it) */
	if (force && being_written(path, &pid)) { /* replacing it would lose the writer's samples */
		char who[48] = "another pmutop";
		if (pid > 0)
			snprintf(who, sizeof(who), "pmutop (PID %ld)", pid);
		*err = xasprintf("%s: being written by %s; --force does not replace a recording being written", path, who);
		return -1;
	}
	char *what = what_is_there(path, err);
	if (*err)
		return -1;
	if (what) {
		*err = xasprintf("%s: %s; %s", path, what,
				 force ? "--force replaces only a pmutop recording, so it is left as it is"
				       : "not overwritten (--force replaces only a pmutop recording)");
		free(what);
		return -1;
	}
	if (!force && access(path, F_OK) == 0) {
		*err = xasprintf("%s: exists; not overwritten (use --force)", path);
		return -1;
	}
	return 0;
}

/* Pages by the chunk they will hold (~3 B a value): 512 bytes keep a small profile's
 * chunk (8 counters x 60 samples, about 2 KB) and each table's root from leaving most of
 * a page empty (the live host recording: 6.1 B a counter sample with 4 KiB pages, 3.9
 * now); a demo-sized chunk (1 250 counters, 200 KB) spread over 400 such pages paid a
 * 4-byte link in each and a read() for each: at most 128 pages a chunk, up to 4 KiB
 * (the demo's file: 3.105 -> 3.075 B a counter sample with 2 KiB pages, 3.116 with 4). */
int store_page_size(int ncounters)
{
	long chunk = (long)(ncounters > 0 ? ncounters : 1) * STORE_CHUNK * 3;
	int page = 512;
	while (page < 4096 && chunk / page > 128)
		page *= 2;
	return page;
}

struct store *store_create(const char *path, bool force, int ncounters, char **err)
{
	*err = NULL;
	if (store_may_write(path, force, err) < 0)
		return NULL;
	if (force) {
		char *wal = xasprintf("%s-wal", path), *shm = xasprintf("%s-shm", path);
		unlink(path);
		unlink(wal);
		unlink(shm);
		free(wal);
		free(shm);
	}
	/* created here, exclusively: never over another file, and readable by the group only */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	if (fd < 0) {
		if (errno != EEXIST || store_may_write(path, false, err) == 0)
			*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	st->writer = true;
	st->lock_fd = fd; /* held while this process writes it: --force elsewhere refuses */
	flock(fd, LOCK_EX | LOCK_NB);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fail(st, err, "cannot open");
		store_close(st);
		return NULL;
	}
	sqlite3_busy_timeout(st->db, 1000);
	/* auto_vacuum before any table: the tail table's pages, freed as each chunk is
	 * written, are given back to the file system when the recording closes */
	char pragmas[256];
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA page_size = %d; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode=WAL; "
		 "PRAGMA synchronous=NORMAL; PRAGMA application_id = " STORE_APPLICATION_ID ";",
		 store_page_size(ncounters));
	if (store_exec(st, pragmas, err) < 0 ||
	    store_exec(st, schema, err) < 0) {
		store_close(st);
		return NULL;
	}
	return st;
}

static int step_done(struct store *st, sqlite3_stmt *q, char **err, const char *what)
{
	int r = sqlite3_step(q);
	sqlite3_finalize(q);
	return r == SQLITE_DONE ? 0 : fail(st, err, what);
}

int store_end_transaction(struct store *st, int r, char **err)
{
	if (r == 0)
		return store_exec(st, "COMMIT", err);
	char *e2 = NULL;
	store_exec(st, "ROLLBACK", &e2);
	free(e2);
	return -1;
}

/* Long texts (the machine snapshot, the profiles) are kept as zstd blobs: the demo's
 * 51 KB of them were 0.07 B a counter sample of a 600-sample recording. Short facts stay
 * text, for sqlite3 and for readers of older files. */
#define META_PACK_MIN 512

int store_put_meta(struct store *st, const char *key, const char *value, char **err)
{
	size_t len = strlen(value);
	if (len < META_PACK_MIN) {
		const char *v[2] = { key, value };
		return store_put_row(st, "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)", 2, v, err);
	}
	size_t bound = ZSTD_compressBound(len);
	void *packed = xmalloc(bound);
	size_t size = ZSTD_compress(packed, bound, value, len, 19); /* once per file */
	sqlite3_stmt *q;
	int r = 0;
	if (ZSTD_isError(size)) {
		*err = xasprintf("cannot compress %s: %s", key, ZSTD_getErrorName(size));
		r = -1;
	} else if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)", -1, &q, NULL) != SQLITE_OK) {
		r = fail(st, err, "prepare");
	} else {
		sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_blob(q, 2, packed, (int)size, SQLITE_STATIC);
		r = step_done(st, q, err, "insert");
	}
	free(packed);
	return r;
}

/* A packed text, or NULL if it is not a zstd frame of at most STORE_MAX_VALUE bytes. */
static char *unpack_meta(const void *blob, size_t size)
{
	unsigned long long want = ZSTD_getFrameContentSize(blob, size);
	if (want == ZSTD_CONTENTSIZE_ERROR || want == ZSTD_CONTENTSIZE_UNKNOWN || want > STORE_MAX_VALUE)
		return NULL;
	char *text = xmalloc((size_t)want + 1);
	size_t got = ZSTD_decompress(text, (size_t)want, blob, size);
	if (ZSTD_isError(got) || got != want || memchr(text, 0, got)) {
		free(text);
		return NULL;
	}
	text[got] = 0;
	return text;
}

int store_put_row(struct store *st, const char *sql, int n, const char *const *values, char **err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(st, err, "prepare");
	for (int i = 0; i < n; i++)
		sqlite3_bind_text(q, i + 1, values[i], -1, SQLITE_TRANSIENT);
	return step_done(st, q, err, "insert");
}

int store_append(struct store *st, const struct rec_sample *s, int ncounters, const struct store_event *ev, int nev,
		 char **err)
{
	size_t size;
	unsigned char *blob = codec_encode(s, 1, ncounters, 0, &size);
	int r = store_exec(st, "BEGIN", err);
	sqlite3_stmt *q = NULL;
	if (r == 0 && sqlite3_prepare_v2(st->db, "INSERT INTO tail(seq, t_ns, data) VALUES(?1, ?2, ?3)", -1, &q, NULL) != SQLITE_OK)
		r = fail(st, err, "prepare");
	if (r == 0) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)s->seq);
		sqlite3_bind_int64(q, 2, (sqlite3_int64)s->time_ns);
		sqlite3_bind_blob(q, 3, blob, (int)size, SQLITE_STATIC);
		r = step_done(st, q, err, "append sample");
	}
	for (int i = 0; i < nev && r == 0; i++) {
		if (sqlite3_prepare_v2(st->db,
				       "INSERT INTO events(seq, kind, instance, instance_name, term, value) VALUES(?1,?2,?3,?4,?5,?6)",
				       -1, &q, NULL) != SQLITE_OK) {
			r = fail(st, err, "prepare");
			break;
		}
		sqlite3_bind_int64(q, 1, (sqlite3_int64)ev[i].seq);
		sqlite3_bind_text(q, 2, ev[i].kind, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 3, ev[i].instance);
		sqlite3_bind_text(q, 4, ev[i].instance_name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 5, ev[i].term, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 6, ev[i].value, -1, SQLITE_STATIC);
		r = step_done(st, q, err, "append event");
	}
	free(blob);
	return store_end_transaction(st, r, err);
}

int store_fold(struct store *st, const struct rec_sample *s, int n, int ncounters, char **err)
{
	if (n <= 0)
		return 0;
	size_t size;
	unsigned char *blob = codec_encode(s, n, ncounters, CODEC_LEVEL_AUTO, &size);
	int r = store_exec(st, "BEGIN", err);
	sqlite3_stmt *q = NULL;
	if (r == 0 && sqlite3_prepare_v2(st->db,
					 "INSERT INTO chunks(first_seq, last_seq, t_first, t_last, wall_first, wall_last, nsamples, data)"
					 " VALUES(?1,?2,?3,?4,?5,?6,?7,?8)", -1, &q, NULL) != SQLITE_OK)
		r = fail(st, err, "prepare");
	if (r == 0) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)s[0].seq);
		sqlite3_bind_int64(q, 2, (sqlite3_int64)s[n - 1].seq);
		sqlite3_bind_int64(q, 3, (sqlite3_int64)s[0].time_ns);
		sqlite3_bind_int64(q, 4, (sqlite3_int64)s[n - 1].time_ns);
		sqlite3_bind_int64(q, 5, (sqlite3_int64)s[0].wall_ns);
		sqlite3_bind_int64(q, 6, (sqlite3_int64)s[n - 1].wall_ns);
		sqlite3_bind_int(q, 7, n);
		sqlite3_bind_blob(q, 8, blob, (int)size, SQLITE_STATIC);
		r = step_done(st, q, err, "write chunk");
	}
	if (r == 0 && sqlite3_prepare_v2(st->db, "DELETE FROM tail WHERE seq <= ?1", -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)s[n - 1].seq);
		r = step_done(st, q, err, "trim tail");
	}
	free(blob);
	return store_end_transaction(st, r, err);
}

int store_finish(struct store *st, char **err)
{
	return store_exec(st, "PRAGMA incremental_vacuum; PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;", err);
}

/* ---- reading ---- */

static int64_t scalar(struct store *st, const char *sql, int64_t arg, bool *found)
{
	sqlite3_stmt *q;
	*found = false;
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(q, 1, arg);
	int64_t v = 0;
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL) {
		v = sqlite3_column_int64(q, 0);
		*found = true;
	}
	sqlite3_finalize(q);
	return v;
}

char *store_meta(struct store *st, const char *key)
{
	sqlite3_stmt *q;
	char *v = NULL;
	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(q) != SQLITE_ROW)
		v = NULL;
	else if (sqlite3_column_type(q, 0) == SQLITE_BLOB)
		v = unpack_meta(sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0));
	else if (sqlite3_column_text(q, 0))
		v = xstrdup((const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return v;
}

struct store *store_open(const char *path, char **err)
{
	*err = NULL;
	if (record_libs_load(err) < 0)
		return NULL;
	struct stat sb;
	if (stat(path, &sb) != 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(sb.st_mode)) {
		*err = xasprintf("%s: not a recording (not a regular file)", path);
		return NULL;
	}
	struct store *st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		fail(st, err, "cannot open");
		store_close(st);
		return NULL;
	}
	/* someone else's file: its schema runs nothing (no triggers, views or functions of
	 * its own), corruption is looked for, and no value is larger than a chunk can be */
	sqlite3_db_config(st->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)NULL);
	sqlite3_db_config(st->db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)NULL);
	sqlite3_limit(st->db, SQLITE_LIMIT_LENGTH, STORE_MAX_VALUE);
	sqlite3_busy_timeout(st->db, 1000);
	char *e0 = NULL;
	store_exec(st, "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0; PRAGMA cache_size = -256;", &e0);
	free(e0);
	char *format = NULL, *version = NULL, *nc = NULL;
	sqlite3_stmt *q;
	/* a file of another kind fails here: not SQLite, or no meta table */
	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = 'format'", -1, &q, NULL) != SQLITE_OK) {
		*err = xasprintf("%s: not a pmutop recording (%s)", path, sqlite3_errmsg(st->db));
		store_close(st);
		return NULL;
	}
	sqlite3_finalize(q);
	format = store_meta(st, "format");
	version = store_meta(st, "version");
	nc = store_meta(st, "ncounters");
	uint64_t v = 0, n = 0;
	if (!format && is_ours(st))
		*err = xasprintf("%s: an empty recording: its writer stopped before the first sample (nothing to replay)", path);
	else if (!format || strcmp(format, STORE_FORMAT))
		*err = xasprintf("%s: not a pmutop recording (format '%s')", path, format ? format : "none");
	else if (!version || !parse_u64(version, &v) || v < 1)
		*err = xasprintf("%s: damaged recording (no format version)", path);
	else if (v > STORE_VERSION)
		*err = xasprintf("%s: recorded in format version %llu; this pmutop reads up to version %d (upgrade pmutop)",
				 path, (unsigned long long)v, STORE_VERSION);
	else if (!nc || !parse_u64(nc, &n) || n > 1000000)
		*err = xasprintf("%s: damaged recording (no counter count)", path);
	free(format);
	free(version);
	free(nc);
	if (*err) {
		store_close(st);
		return NULL;
	}
	st->ncounters = (int)n;
	return st;
}

int store_ncounters(const struct store *st)
{
	return st->ncounters;
}

void store_range(struct store *st, uint64_t *first, uint64_t *last)
{
	bool f1, f2, f3, f4;
	int64_t c1 = scalar(st, "SELECT MIN(first_seq) FROM chunks WHERE ?1 = ?1", 0, &f1);
	int64_t t1 = scalar(st, "SELECT MIN(seq) FROM tail WHERE ?1 = ?1", 0, &f2);
	int64_t c2 = scalar(st, "SELECT MAX(last_seq) FROM chunks WHERE ?1 = ?1", 0, &f3);
	int64_t t2 = scalar(st, "SELECT MAX(seq) FROM tail WHERE ?1 = ?1", 0, &f4);
	*first = f1 && (!f2 || c1 < t1) ? (uint64_t)c1 : f2 ? (uint64_t)t1 : 0;
	*last = f3 && (!f4 || c2 > t2) ? (uint64_t)c2 : f4 ? (uint64_t)t2 : 0;
}

uint64_t store_next_seq(struct store *st, uint64_t seq)
{
	bool f1, f2;
	int64_t c = scalar(st, "SELECT MIN(first_seq) FROM chunks WHERE first_seq > ?1", (int64_t)seq, &f1);
	int64_t t = scalar(st, "SELECT MIN(seq) FROM tail WHERE seq > ?1", (int64_t)seq, &f2);
	return f1 && (!f2 || c < t) ? (uint64_t)c : f2 ? (uint64_t)t : 0;
}

uint64_t store_prev_seq(struct store *st, uint64_t seq)
{
	bool f1, f2;
	int64_t c = scalar(st, "SELECT MAX(last_seq) FROM chunks WHERE last_seq < ?1", (int64_t)seq, &f1);
	int64_t t = scalar(st, "SELECT MAX(seq) FROM tail WHERE seq < ?1", (int64_t)seq, &f2);
	int64_t best = f1 && c > 0 ? c : 0;
	if (f2 && t > best)
		best = t;
	return (uint64_t)best;
}

void store_chunk_bounds(struct store *st, uint64_t seq, uint64_t *first, uint64_t *last)
{
	bool f1, f2;
	int64_t a = scalar(st, "SELECT first_seq FROM chunks WHERE first_seq <= ?1 AND last_seq >= ?1 ORDER BY first_seq DESC LIMIT 1",
			   (int64_t)seq, &f1);
	int64_t b = scalar(st, "SELECT last_seq FROM chunks WHERE first_seq <= ?1 AND last_seq >= ?1 ORDER BY first_seq DESC LIMIT 1",
			   (int64_t)seq, &f2);
	*first = f1 && a > 0 && (uint64_t)a <= seq ? (uint64_t)a : seq;
	*last = f2 && (uint64_t)b >= seq ? (uint64_t)b : seq;
}

static void drop_cache(struct store *st)
{
	st->cache = NULL; /* its memory stays in st->decoded for the next chunk */
	st->ncache = 0;
}

/* Load the blob of one query row (id or seq bound) into the cache. */
static int load(struct store *st, const char *sql, int64_t arg, int max_samples, char **err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(st, err, "read");
	sqlite3_bind_int64(q, 1, arg);
	int r = 1;
	if (sqlite3_step(q) == SQLITE_ROW) {
		const void *blob = sqlite3_column_blob(q, 0);
		int size = sqlite3_column_bytes(q, 0);
		int n;
		char *e2;
		drop_cache(st);
		if (codec_decode_into(&st->decoded, blob, (size_t)size, st->ncounters, max_samples, &n, &e2) < 0) {
			*err = xasprintf("%s: %s", st->path, e2);
			free(e2);
			r = -1;
		} else {
			st->cache = st->decoded.samples;
			st->ncache = n;
			st->cache_first = n ? st->cache[0].seq : 0;
			r = 0;
		}
	}
	sqlite3_finalize(q);
	return r;
}

/* A chunk holds the samples its index row spans, STORE_CHUNK at most (the writer's): a
 * blob claiming more is damage, not a reason to allocate. */
static int load_chunk(struct store *st, int64_t id, char **err)
{
	bool found;
	int64_t span = scalar(st, "SELECT last_seq - first_seq + 1 FROM chunks WHERE id = ?1", id, &found);
	if (!found || span < 1 || span > STORE_CHUNK) {
		*err = xasprintf("%s: damaged recording (a chunk's index spans %lld samples; a chunk holds 1 to %d)", st->path,
				 (long long)span, STORE_CHUNK);
		return -1;
	}
	return load(st, "SELECT data FROM chunks WHERE id = ?1", id, (int)span, err);
}

int store_sample(struct store *st, uint64_t seq, struct rec_sample *out, char **err)
{
	*err = NULL;
	if (!(st->ncache && seq >= st->cache_first && seq - st->cache_first < (uint64_t)st->ncache &&
	      st->cache[seq - st->cache_first].seq == seq)) {
		bool found;
		int64_t id = scalar(st, "SELECT id FROM chunks WHERE first_seq <= ?1 AND last_seq >= ?1 ORDER BY first_seq DESC LIMIT 1",
				    (int64_t)seq, &found);
		int r = found ? load_chunk(st, id, err) : load(st, "SELECT data FROM tail WHERE seq = ?1", (int64_t)seq, 1, err);
		if (r != 0)
			return r;
		if (!st->ncache || seq < st->cache_first || seq - st->cache_first >= (uint64_t)st->ncache ||
		    st->cache[seq - st->cache_first].seq != seq) {
			*err = xasprintf("%s: damaged recording (sample %llu is not where its index says)", st->path,
					 (unsigned long long)seq);
			return -1;
		}
	}
	rec_sample_copy(out, &st->cache[seq - st->cache_first], st->ncounters);
	return 0;
}

/* Sample seq into s: 0, or -1 keeping the first reason in *damage. */
static int try_sample(struct store *st, uint64_t seq, struct rec_sample *s, char **damage)
{
	char *err = NULL;
	int r = store_sample(st, seq, s, &err);
	if (r < 0 && !*damage)
		*damage = err ? err : xstrdup("unreadable sample");
	else
		free(err);
	return r == 0 ? 0 : -1;
}

/* The first readable sample in [first, last], a damaged chunk stepped over whole by its
 * index (each step moves past a recorded seq: as many steps as chunks at most, whatever
 * the index claims); 0 if none. */
static uint64_t first_readable(struct store *st, uint64_t first, uint64_t last, struct rec_sample *s, char **damage)
{
	for (uint64_t seq = first; seq && seq <= last;) {
		if (try_sample(st, seq, s, damage) == 0)
			return seq;
		uint64_t a, b;
		store_chunk_bounds(st, seq, &a, &b);
		uint64_t next = store_next_seq(st, b > seq ? b : seq);
		if (next <= seq)
			break;
		seq = next;
	}
	return 0;
}

/* The last readable sample in [first, last]: back a chunk at a time to one that reads,
 * then forward through its chunk (read once) to the last that does. */
static uint64_t last_readable(struct store *st, uint64_t first, uint64_t last, struct rec_sample *s, char **damage)
{
	uint64_t seq = last;
	while (try_sample(st, seq, s, damage) != 0) {
		uint64_t a, b;
		store_chunk_bounds(st, seq, &a, &b);
		uint64_t prev = store_prev_seq(st, a < seq ? a : seq);
		if (!prev || prev < first || prev >= seq)
			return 0;
		seq = prev;
	}
	while (seq < last && try_sample(st, seq + 1, s, damage) == 0)
		seq++;
	if (try_sample(st, seq, s, damage) != 0) /* s holds seq again */
		return 0;
	return seq;
}

int store_readable_range(struct store *st, uint64_t *first, uint64_t *last, char **damage)
{
	uint64_t a, b;
	store_range(st, &a, &b);
	struct rec_sample s;
	rec_sample_alloc(&s, st->ncounters);
	*damage = NULL;
	*first = a ? first_readable(st, a, b, &s, damage) : 0;
	*last = *first ? last_readable(st, *first, b, &s, damage) : 0;
	rec_sample_free(&s);
	if (!*last)
		*first = 0;
	return *first ? 0 : -1;
}

bool store_sample_quiet(struct store *st, uint64_t seq, struct rec_sample *out)
{
	char *err = NULL;
	int r = store_sample(st, seq, out, &err);
	free(err);
	return r == 0;
}

uint64_t store_seq_at(struct store *st, uint64_t t_ns)
{
	bool f1, f2;
	int64_t id = scalar(st, "SELECT id FROM chunks WHERE t_first <= ?1 ORDER BY t_first DESC LIMIT 1", (int64_t)t_ns, &f1);
	int64_t tail = scalar(st, "SELECT MAX(seq) FROM tail WHERE t_ns <= ?1", (int64_t)t_ns, &f2);
	uint64_t best = 0;
	char *err = NULL;
	if (f1 && load_chunk(st, id, &err) == 0)
		for (int j = 0; j < st->ncache; j++)
			if (st->cache[j].time_ns <= t_ns)
				best = st->cache[j].seq;
	free(err);
	if (f2 && (uint64_t)tail > best)
		best = (uint64_t)tail;
	if (!best) {
		uint64_t first, last;
		store_range(st, &first, &last);
		best = first;
	}
	return best;
}

int store_query(struct store *st, const char *sql, void (*row)(void *ctx, int n, const char *const *v), void *ctx,
		char **err)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail(st, err, "damaged recording");
	int n = sqlite3_column_count(q), r;
	const char **v = xcalloc((size_t)(n ? n : 1), sizeof(char *));
	while ((r = sqlite3_step(q)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			v[i] = (const char *)sqlite3_column_text(q, i);
		row(ctx, n, v);
	}
	free(v);
	sqlite3_finalize(q);
	return r == SQLITE_DONE ? 0 : fail(st, err, "damaged recording");
}

void store_sizes(struct store *st, uint64_t *chunk_bytes, uint64_t *file_bytes, uint64_t *chunk_samples)
{
	bool f;
	*chunk_bytes = (uint64_t)scalar(st, "SELECT SUM(LENGTH(data)) FROM chunks WHERE ?1 = ?1", 0, &f);
	*chunk_samples = (uint64_t)scalar(st, "SELECT SUM(nsamples) FROM chunks WHERE ?1 = ?1", 0, &f);
	struct stat sb;
	*file_bytes = stat(st->path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	drop_cache(st);
	codec_buffers_free(&st->decoded);
	sqlite3_close(st->db);
	if (st->writer && st->lock_fd >= 0)
		close(st->lock_fd);
	free(st->path);
	free(st);
}
