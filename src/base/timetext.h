/* SPDX-License-Identifier: GPL-2.0-only */
/* timetext.h - durations and moments as people type them: one grammar for the command
 * line (--begin, --end, --duration, --rotate, --window) and the monitor's jump (g).
 *
 *   DURATION  one or more NUMBER UNIT terms, largest unit first: 90s, 5m, 1.5m, 1h30m,
 *             9m59s, 2d, 250ms; a bare NUMBER is seconds. Units: d h m s ms. At most
 *             about 31 years (1e9 s).
 *   MOMENT    HH:MM[:SS] on the reference day (00-23, 00-59, 00-59), YYYY-mm-ddTHH:MM:SS
 *             (local time), @SECONDS since the epoch (up to the year 2540), +DURATION
 *             from a reference, or -DURATION before one where that is allowed.
 *
 * A refusal says what was read and what is expected, in why. */
#ifndef PMUTOP_TIMETEXT_H
#define PMUTOP_TIMETEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DURATION_GRAMMAR "a duration such as 90s, 5m, 1.5m, 1h30m, 9m59s, 2d or 250ms"
#define MOMENT_GRAMMAR "HH:MM[:SS], YYYY-mm-ddTHH:MM:SS, @SECONDS or +DURATION (+5m, +1h30m)"

bool duration_parse(const char *text, uint64_t *ns, char *why, size_t len);

struct moment_ref {
	uint64_t day_ns;   /* wall time on the day HH:MM[:SS] means (local time) */
	uint64_t plus_ns;  /* wall time +DURATION counts from */
	bool minus;        /* -DURATION before plus_ns is allowed (the monitor's jump) */
};
/* The wall time (ns since the epoch) text names. */
bool moment_parse(const char *text, const struct moment_ref *ref, uint64_t *wall_ns, char *why, size_t len);

/* "2026-11-24 10:47:50" (local time), for messages. */
void moment_text(uint64_t wall_ns, char *buf, size_t len);

#endif
