/* SPDX-License-Identifier: GPL-2.0-only */
/* numtext.h - numbers as text, fast: batch output prints every value each interval, and
 * printf's "%g" goes through multi-precision arithmetic (most of a live refresh's
 * instructions). */
#ifndef PMUTOP_NUMTEXT_H
#define PMUTOP_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* Exactly what snprintf(buf, len, "%.10g", v) writes in the C locale, and its return. */
int format_g10(char *buf, size_t len, double v);
/* For what people read (text and CSV; JSON keeps ten digits): a value that is not a whole
 * number to seven significant digits, as printf's "%.7g" ("8.68", not "8.679999999": a
 * ratio of counts carries their resolution, not ten digits of measurement); a whole number
 * (a count) with every digit, as format_g10. */
int format_g7_or_whole(char *buf, size_t len, double v);
/* Exactly what snprintf(buf, len, "%lld", v) writes, and its return: binding names each
 * CPU's instance and capture by number, hundreds of them at start-up. */
int format_int(char *buf, size_t len, long long v);
/* ISO 8601 UTC to the millisecond, "2026-11-26T03:03:32.702Z", for ns since the epoch,
 * as gmtime_r and strftime give it; the length, as snprintf returns */
int format_utc_ms(char *buf, size_t len, uint64_t ns);

#endif
