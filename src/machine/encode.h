/* SPDX-License-Identifier: GPL-2.0-only */
/* encode.h - perf event strings ("pmu/alias,term=value/", "cpu-clock") to attr fields. */
#ifndef PMUTOP_ENCODE_H
#define PMUTOP_ENCODE_H

#include <stdint.h>

#include "machine/format.h"
#include "machine/pmu.h"

/* perf's event modifiers (":u", "/k"), as the exclude bits perf's parse-events sets */
enum {
	EXCLUDE_USER = 1 << 0,
	EXCLUDE_KERNEL = 1 << 1,
	EXCLUDE_HV = 1 << 2,
	EXCLUDE_GUEST = 1 << 3,
};

/* The part of perf_event_attr an event string decides. */
struct event_attr {
	uint32_t type;
	uint8_t exclude; /* EXCLUDE_* bits, from the string's modifiers */
	uint64_t config[CONFIG_WORDS];
};

struct encoded_event {
	struct event_attr attr;
	const struct pmu *pmu; /* NULL for the fixed software/hardware events */
	double scale;          /* from the alias's .scale file, 1 otherwise */
	const char *unit;      /* from the alias's .unit file, or NULL */
	const char *alias;     /* the event alias the string named, or NULL */
	uint64_t raw[CONFIG_WORDS]; /* while encoding: the raw config= words (perf: the last wins),
				* ORed with the fields' bits at the end */
};

/* Encode text. On failure returns -1 and sets *err to a malloc'd message that names the
 * offending term and, for unknown terms, lists the valid ones. */
int encode_event(const struct machine *m, const char *text, struct encoded_event *out, char **err);

/* "type=N\tconfig=0x..\tconfig1=0x..\tconfig2=0x.." into buf, then "\texclude_user=1" and
 * the like for each exclude bit a modifier set (perf -vv's names, in its order). */
void encode_format_attr(const struct event_attr *a, char *buf, size_t len);

/* The fixed (PERF_TYPE_SOFTWARE / PERF_TYPE_HARDWARE) event names; false if unknown. */
bool encode_legacy_event(const char *name, struct event_attr *out);
/* Iterate the legacy names for listings: returns NULL past the end. */
const char *encode_legacy_name(int i, uint32_t *type);

/* Modifier letters ("ku") to exclude bits as perf's parse-events does; -1 with *bad at the
 * first letter pmutop does not take. */
int encode_modifiers(const char *mods, const char **bad);
/* The letters perf would write for bits (the inverse, for keys and listings): "k", "u", "". */
const char *encode_modifier_text(uint8_t exclude);

#endif
