/* SPDX-License-Identifier: GPL-2.0-only */
/* util.h - allocation that never returns NULL, small string helpers. */
#ifndef PMUTOP_UTIL_H
#define PMUTOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* xrealloc for a block of which the first used bytes are kept: a large one is copied to
 * a block whose pages come in one call (heap_populate), not a fault each as the copy
 * touches them. */
void *xrealloc_used(void *p, size_t used, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s with its control bytes (but newlines) written as \xNN: text from files (a profile, a
 * recording, a sysfs name) must not reach a terminal as escape sequences. */
char *str_escape_controls(const char *s);
/* src into dst[size], cut to fit and always terminated: snprintf(dst, size, "%s", src)
 * without printf's cost. */
void str_copy(char *dst, size_t size, const char *src);
/* The strings one after the other: xasprintf("%s%s%s") without printf's cost, for
 * start-up paths that join a string per event. */
char *xstrcat_n(const char *const *parts, int n);
#define xstrcat(...) xstrcat_n((const char *const[]){ __VA_ARGS__ }, \
			       (int)(sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *)))
char *xvasprintf(const char *fmt, va_list ap);

/* Grow *array (of *cap elements of size elem) so that it holds at least need elements. */
void grow_array(void *array_ptr, int *cap, int need, size_t elem);

/* Remove one trailing newline (drivers print one; hybrid x86 event files do not). */
void chomp(char *s);
/* s without its trailing newline (NULL stays NULL): for a file just read */
char *chomp_text(char *s);
/* Strip leading and trailing white space in place; returns s advanced. */
char *trim(char *s);
/* Words of a list written with blanks or commas ("a b", "a,b") / with blanks only, as a
 * NULL-terminated malloc'd vector; count (if not NULL) gets how many. */
char **str_split(const char *s, int *count);
char **str_split_blanks(const char *s, int *count);
void str_split_free(char **v);
/* The directory of the running program (/proc/self/exe's), into dir (PATH_MAX bytes);
 * false if unknown. */
bool exe_dir(char *dir);
bool str_has_prefix(const char *s, const char *prefix);
/* FNV-1a of s: the memos' tables, the simulator's streams (same text, same number). */
uint64_t str_hash(const char *s);
bool str_has_suffix(const char *s, const char *suffix);

/* Parse an unsigned 64-bit number as perf does: 0x-hex, else decimal (010 is ten), the
 * whole string. */
bool parse_u64(const char *s, uint64_t *out);
/* A floating-point number in C notation whatever the locale, the whole string (blanks
 * around it allowed). */
bool parse_double(const char *s, double *out);
/* strtod and snprintf in the C locale, for numbers read from or written to files. */
double strtod_c(const char *s, char **end);
int snprintf_c(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf_c(char *buf, size_t len, const char *fmt, va_list ap);

/* Levenshtein distance, for "did you mean" hints. */
int edit_distance(const char *a, const char *b);

/* Number of monotonic nanoseconds; the real clock (tests inject their own). */
uint64_t clock_monotonic_ns(void);

#endif
