/* SPDX-License-Identifier: GPL-2.0-only */
/* store.h - a recording on disk: one SQLite file (WAL while written), its schema and the
 * two ways in: one writer (the recorder's thread) and read-only readers (replay, info).
 * The schema is documented in docs/RECORDING.md. */
#ifndef PMUTOP_STORE_H
#define PMUTOP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/codec.h"

#define STORE_FORMAT "pmutop-recording"
#define STORE_VERSION 1
/* SQLite's application_id of a recording ("pmut"): file(1) and --force know it by it */
#define STORE_APPLICATION_ID "1886221684"
#define STORE_MAX_VALUE (64 << 20) /* the largest value a reader takes from a file (a chunk) */
#define STORE_CHUNK 60 /* samples moved from the tail into one compressed chunk */

struct store;

/* ---- writing ---- */
/* Create path (mode 0640; an existing file is refused unless force) for ncounters
 * counters (its page size follows: store_page_size). NULL with *err. */
struct store *store_create(const char *path, bool force, int ncounters, char **err);
int store_page_size(int ncounters);
/* May a recording be written to path (nothing there, or with force a pmutop recording)?
 * 0, or -1 with *err saying what is there and whether --force would help. */
int store_may_write(const char *path, bool force, char **err);
int store_exec(struct store *st, const char *sql, char **err);
/* After store_exec(st, "BEGIN"): COMMIT what went well (r 0), ROLLBACK what did not
 * (keeping the first error in *err). 0, or -1. */
int store_end_transaction(struct store *st, int r, char **err);
int store_put_meta(struct store *st, const char *key, const char *value, char **err);
/* One row of a static table: counters, instances (values bound in order, text or NULL). */
int store_put_row(struct store *st, const char *sql, int n, const char *const *values, char **err);
/* A sample into the tail, with its events, in one transaction. */
struct store_event {
	uint64_t seq;
	const char *kind;  /* "filter", "pause", "resume" */
	int instance;
	const char *instance_name, *term, *value;
};
int store_append(struct store *st, const struct rec_sample *s, int ncounters, const struct store_event *ev, int nev,
		 char **err);
/* Move the tail's samples (held here in memory too) into one compressed chunk. */
int store_fold(struct store *st, const struct rec_sample *s, int n, int ncounters, char **err);
/* Close a written store: the tail folded by the caller, WAL checkpointed, rollback mode
 * so the file stands alone. */
int store_finish(struct store *st, char **err);

/* ---- reading ---- */
/* Open read-only; checks the format and version (a newer one is refused, naming it). */
struct store *store_open(const char *path, char **err);
/* A meta value (malloc'd), or NULL. */
char *store_meta(struct store *st, const char *key);
int store_ncounters(const struct store *st);
/* First and last sample numbers (seq), 0/0 if none. */
void store_range(struct store *st, uint64_t *first, uint64_t *last);
/* The sample with this seq into *out (allocated for the store's counters by the
 * caller); 0, 1 if there is none, -1 with *err on damage. Consecutive seqs read one
 * chunk once. */
int store_sample(struct store *st, uint64_t seq, struct rec_sample *out, char **err);
/* The last sample at or before time t (the recording's clock), or the first: its seq. */
uint64_t store_seq_at(struct store *st, uint64_t t_ns);
/* The first and last samples that can be read: a damaged chunk at either end is stepped
 * over by the index (as many steps as chunks, whatever the index claims). 0, or -1 when
 * none can; *damage (malloc'd) the first damage met, or NULL. */
int store_readable_range(struct store *st, uint64_t *first, uint64_t *last, char **damage);
/* store_sample, the reason dropped: true when it read. */
bool store_sample_quiet(struct store *st, uint64_t seq, struct rec_sample *out);
/* The first recorded seq after seq (past a gap: a chunk lost), 0 if none. */
uint64_t store_next_seq(struct store *st, uint64_t seq);
/* The last recorded seq before seq, 0 if none. */
uint64_t store_prev_seq(struct store *st, uint64_t seq);
/* The samples the chunk holding seq spans, as its index says (seq, seq in the tail or
 * where no chunk holds it): to step over a damaged chunk whole. */
void store_chunk_bounds(struct store *st, uint64_t seq, uint64_t *first, uint64_t *last);
/* Rows of a query as a callback per row (values as text); for counters, instances, events. */
int store_query(struct store *st, const char *sql, void (*row)(void *ctx, int n, const char *const *v), void *ctx,
		char **err);
/* Stored bytes: chunk payloads, and the file. */
void store_sizes(struct store *st, uint64_t *chunk_bytes, uint64_t *file_bytes, uint64_t *chunk_samples);
void store_close(struct store *st);

#endif
