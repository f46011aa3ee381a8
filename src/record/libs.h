/* SPDX-License-Identifier: GPL-2.0-only */
/* libs.h - SQLite and zstd, loaded when a session first records or replays.
 *
 * Most runs never touch a recording, yet linking both made every start resolve their
 * symbols: 1.4 M instructions and 23 page faults of the dynamic linker (pmutop --demo's
 * first frame: 27 M in all). They are loaded as libmicrohttpd is (outputs/mhd.c), by the
 * SONAME pmutop was built against, still the system's shared libraries (their security
 * updates reach pmutop). store.c and codec.c call them by their own names through
 * record/libs_shim.h; record_libs_load() comes first in each entry point. */
#ifndef PMUTOP_RECORD_LIBS_H
#define PMUTOP_RECORD_LIBS_H

#include <sqlite3.h>
#include <zstd.h>

#define RECORD_LIB_FUNCTIONS(X)                                                                      \
	X(sqlite3_open_v2) X(sqlite3_close) X(sqlite3_exec) X(sqlite3_free) X(sqlite3_errmsg)          \
	X(sqlite3_prepare_v2) X(sqlite3_finalize) X(sqlite3_step) X(sqlite3_bind_int)                   \
	X(sqlite3_bind_int64) X(sqlite3_bind_text) X(sqlite3_bind_blob) X(sqlite3_column_text)          \
	X(sqlite3_column_type) X(sqlite3_column_bytes) X(sqlite3_column_blob) X(sqlite3_column_int64)   \
	X(sqlite3_column_count) X(sqlite3_db_config) X(sqlite3_busy_timeout) X(sqlite3_limit) X(sqlite3_system_errno) \
	X(ZSTD_createCCtx) X(ZSTD_freeCCtx) X(ZSTD_CCtx_setParameter) X(ZSTD_compress2) X(ZSTD_compress) \
	X(ZSTD_compressBound) X(ZSTD_isError) X(ZSTD_getErrorName) X(ZSTD_getFrameContentSize)          \
	X(ZSTD_decompress) X(ZSTD_createDCtx) X(ZSTD_freeDCtx) X(ZSTD_decompressDCtx)

#define RECORD_LIB_SLOT(f) __typeof__(&f) f;
struct record_libs {
	RECORD_LIB_FUNCTIONS(RECORD_LIB_SLOT)
};
#undef RECORD_LIB_SLOT

extern struct record_libs record_libs;

/* 0 once both are loaded (thread-safe, at most one attempt); -1 with *err (malloc'd)
 * saying which library is missing and the package that has it. */
int record_libs_load(char **err);

#endif
