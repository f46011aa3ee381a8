/* SPDX-License-Identifier: GPL-2.0-only */
/* batch.h - batch output of frames: text for people, CSV, JSON lines. */
#ifndef PMUTOP_BATCH_H
#define PMUTOP_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/frame.h"

enum batch_format { BATCH_TEXT, BATCH_CSV, BATCH_JSON };

/* Which rows text and CSV print, as perf stat's aggregation options choose (JSON carries
 * every row, with its instance's name, for programs to choose from). */
enum batch_rows {
	ROWS_AGGREGATED, /* perf stat -a's default: no member of a sum (a CPU, a channel) */
	ROWS_EVERY,      /* -A, --no-aggr: every CPU's and every box's too */
	ROWS_PER_SOCKET, /* --per-socket: the sockets' rows, not the machine's sum of them */
	ROWS_PER_CORE,   /* --per-core: each core's (its SMT siblings') sum of a per-CPU group */
	ROWS_PER_NODE,   /* --per-node: each NUMA node's */
};

struct batch_style {
	enum batch_format format;
	bool raw; /* JSON: every counter's raw delta too */
	enum batch_rows rows;
};

struct output;

bool batch_parse_format(const char *s, enum batch_format *f);
/* Whether the format prints the host's meters (CPU utilisation, temperature): text does
 * in each interval's heading; CSV and JSON carry counters and metrics only. */
bool batch_shows_host_meters(enum batch_format f);
/* An output writing each frame to out (not closed). Every interval is built in memory
 * and written whole: a write error (full disk, closed pipe) is reported on stderr and
 * ends the run with a non-zero status, never a partial line. */
struct output *batch_output_new(FILE *out, const struct batch_style *st);
/* Write one frame to out as an output would; false on a write error (errno set). */
bool batch_write_frame(FILE *out, const struct batch_style *st, bool first, const struct frame *f);
/* Human formatting shared with the UI: "12.3", "-" for no value, "?" unreadable. */
void format_metric_value(const struct frame_value *v, char *buf, size_t len);

#endif
