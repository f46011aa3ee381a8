/* SPDX-License-Identifier: GPL-2.0-only */
/* libs_shim.h - SQLite's and zstd's functions by their own names, through the table
 * record_libs_load() filled (record/libs.h). Only for store.c and codec.c, after their
 * includes: every name below must be in RECORD_LIB_FUNCTIONS. */
#ifndef PMUTOP_RECORD_LIBS_SHIM_H
#define PMUTOP_RECORD_LIBS_SHIM_H

#include "record/libs.h"

#define sqlite3_open_v2 record_libs.sqlite3_open_v2
#define sqlite3_close record_libs.sqlite3_close
#define sqlite3_exec record_libs.sqlite3_exec
#define sqlite3_free record_libs.sqlite3_free
#define sqlite3_errmsg record_libs.sqlite3_errmsg
#define sqlite3_prepare_v2 record_libs.sqlite3_prepare_v2
#define sqlite3_finalize record_libs.sqlite3_finalize
#define sqlite3_step record_libs.sqlite3_step
#define sqlite3_bind_int record_libs.sqlite3_bind_int
#define sqlite3_bind_int64 record_libs.sqlite3_bind_int64
#define sqlite3_bind_text record_libs.sqlite3_bind_text
#define sqlite3_bind_blob record_libs.sqlite3_bind_blob
#define sqlite3_column_text record_libs.sqlite3_column_text
#define sqlite3_column_type record_libs.sqlite3_column_type
#define sqlite3_column_bytes record_libs.sqlite3_column_bytes
#define sqlite3_column_blob record_libs.sqlite3_column_blob
#define sqlite3_column_int64 record_libs.sqlite3_column_int64
#define sqlite3_column_count record_libs.sqlite3_column_count
#define sqlite3_db_config record_libs.sqlite3_db_config
#define sqlite3_busy_timeout record_libs.sqlite3_busy_timeout
#define sqlite3_limit record_libs.sqlite3_limit
#define sqlite3_system_errno record_libs.sqlite3_system_errno
#define ZSTD_createCCtx record_libs.ZSTD_createCCtx
#define ZSTD_freeCCtx record_libs.ZSTD_freeCCtx
#define ZSTD_CCtx_setParameter record_libs.ZSTD_CCtx_setParameter
#define ZSTD_compress2 record_libs.ZSTD_compress2
#define ZSTD_compress record_libs.ZSTD_compress
#define ZSTD_compressBound record_libs.ZSTD_compressBound
#define ZSTD_isError record_libs.ZSTD_isError
#define ZSTD_getErrorName record_libs.ZSTD_getErrorName
#define ZSTD_getFrameContentSize record_libs.ZSTD_getFrameContentSize
#define ZSTD_decompress record_libs.ZSTD_decompress
#define ZSTD_createDCtx record_libs.ZSTD_createDCtx
#define ZSTD_freeDCtx record_libs.ZSTD_freeDCtx
#define ZSTD_decompressDCtx record_libs.ZSTD_decompressDCtx

#endif
