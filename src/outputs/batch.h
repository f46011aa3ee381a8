/* batch.h - batch output of frames: text for people, CSV, JSON lines. */
#ifndef PMUTOP_BATCH_H
#define PMUTOP_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/session.h"

enum batch_format { BATCH_TEXT, BATCH_CSV, BATCH_JSON };

struct procstat;
struct hw_temps;

struct batch {
	FILE *out;
	const struct procstat *cpu; /* CPU utilisation for the text header, or NULL */
	const struct hw_temps *temps; /* CPU temperature for the text header, or NULL */
	enum batch_format format;
	bool raw;
	bool header_done;
};

bool batch_parse_format(const char *s, enum batch_format *f);
/* Write one interval; realtime_ns is the wall-clock time stamp of its end. */
void batch_write(struct batch *b, const struct session *s, uint64_t realtime_ns);
/* Human formatting shared with the UI: "12.3", "-" for no value, "?" unreadable. */
void format_metric_value(const struct metric_value *v, char *buf, size_t len);

#endif
