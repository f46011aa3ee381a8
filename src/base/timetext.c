/* SPDX-License-Identifier: GPL-2.0-only */
/* timetext.c - durations and moments as people type them (the grammar: timetext.h).
 * Parsed by hand, not by strtod and strptime alone: strtod takes "inf", "1e30" and hex
 * floats, and strptime takes a 60th second; each was a way to get a time no one meant. */
#include "base/timetext.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAX_SECONDS 1e9          /* a duration, about 31 years */
#define MAX_EPOCH 1.8e10 /* the year 2540: ns since the epoch fit 64 bits until 2554 */

/* Digits with at most one decimal point: *v, and the characters read (0: none). */
static size_t read_number(const char *s, double *v)
{
	size_t i = 0, digits = 0;
	double x = 0, scale = 1;
	bool point = false;
	for (;; i++) {
		if (isdigit((unsigned char)s[i])) {
			digits++;
			if (point)
				x += (s[i] - '0') * (scale /= 10);
			else
				x = x * 10 + (s[i] - '0');
		} else if (s[i] == '.' && !point) {
			point = true;
		} else {
			break;
		}
		if (digits > 15) /* nothing here needs more; no overflow, no lost digits */
			return 0;
	}
	*v = x;
	return digits ? i : 0;
}

static double unit_seconds(const char *s, size_t *n)
{
	static const struct { const char *name; double sec; } units[] = {
		{ "ms", 1e-3 }, { "d", 86400 }, { "h", 3600 }, { "m", 60 }, { "s", 1 },
	};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t l = strlen(units[i].name);
		if (!strncmp(s, units[i].name, l)) {
			*n = l;
			return units[i].sec;
		}
	}
	*n = 0;
	return 0;
}

bool duration_parse(const char *text, uint64_t *ns, char *why, size_t len)
{
	double total = 0, last_unit = 1e18;
	const char *s = text;
	if (!*s) {
		snprintf(why, len, "'' is empty: want %s", DURATION_GRAMMAR);
		return false;
	}
	while (*s) {
		double v;
		size_t n = read_number(s, &v), un;
		if (!n) {
			snprintf(why, len, "'%s': expected a number at '%s': want %s", text, s, DURATION_GRAMMAR);
			return false;
		}
		s += n;
		double unit = *s ? unit_seconds(s, &un) : 1;
		if (*s && !unit) {
			snprintf(why, len, "'%s': unknown unit at '%s' (d, h, m, s, ms): want %s", text, s, DURATION_GRAMMAR);
			return false;
		}
		if (unit >= last_unit) {
			snprintf(why, len, "'%s': units must go from the largest down (1h30m): want %s", text,
				 DURATION_GRAMMAR);
			return false;
		}
		last_unit = unit;
		s += *s ? un : 0;
		total += v * unit;
	}
	if (total > MAX_SECONDS) {
		snprintf(why, len, "'%s' is longer than %.0f seconds (about 31 years)", text, MAX_SECONDS);
		return false;
	}
	*ns = (uint64_t)(total * 1e9 + 0.5);
	return true;
}

/* "HH:MM" or "HH:MM:SS" with their ranges checked: seconds since midnight, or -1. */
static long clock_time(const char *s)
{
	int h, m, sec = 0, n = 0;
	size_t l = strlen(s);
	if (!(l == 5 || l == 8) || !isdigit((unsigned char)s[0]) || !isdigit((unsigned char)s[1]) || s[2] != ':' ||
	    !isdigit((unsigned char)s[3]) || !isdigit((unsigned char)s[4]))
		return -1;
	if (l == 8 && (s[5] != ':' || !isdigit((unsigned char)s[6]) || !isdigit((unsigned char)s[7])))
		return -1;
	if (l == 5 ? sscanf(s, "%2d:%2d%n", &h, &m, &n) != 2 : sscanf(s, "%2d:%2d:%2d%n", &h, &m, &sec, &n) != 3)
		return -1;
	if (h > 23 || m > 59 || sec > 59)
		return -1;
	return h * 3600L + m * 60L + sec;
}

/* secs after midnight on wall_ns's local day (mktime: a day with a clock change too) */
static bool on_day(uint64_t wall_ns, long secs, time_t *t)
{
	time_t day = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	if (!localtime_r(&day, &tm))
		return false;
	tm.tm_hour = (int)(secs / 3600);
	tm.tm_min = (int)(secs / 60 % 60);
	tm.tm_sec = (int)(secs % 60);
	tm.tm_isdst = -1;
	*t = mktime(&tm);
	return *t != (time_t)-1;
}

/* YYYY-mm-ddTHH:MM:SS, every field in its range: the local time, or false. */
static bool date_time(const char *s, uint64_t *wall_ns)
{
	int y, mo, d, n = 0;
	if (strlen(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || sscanf(s, "%4d-%2d-%2dT%n", &y, &mo, &d, &n) != 3 ||
	    n != 11)
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return false;
	long secs = clock_time(s + 11);
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	if (secs < 0 || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1])
		return false;
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = (int)(secs / 3600),
			 .tm_min = (int)(secs / 60 % 60), .tm_sec = (int)(secs % 60), .tm_isdst = -1 };
	time_t t = mktime(&tm);
	if (t == (time_t)-1 || tm.tm_mday != d || (double)t > MAX_EPOCH) /* 2026-02-29: mktime moved it */
		return false;
	*wall_ns = (uint64_t)t * 1000000000ull;
	return true;
}

bool moment_parse(const char *text, const struct moment_ref *ref, uint64_t *wall_ns, char *why, size_t len)
{
	uint64_t ns;
	char inner[200];
	if (text[0] == '+' || (text[0] == '-' && ref->minus)) {
		if (!duration_parse(text + 1, &ns, inner, sizeof(inner))) {
			snprintf(why, len, "'%s': after '%c', %s", text, text[0], inner);
			return false;
		}
		*wall_ns = text[0] == '+' ? ref->plus_ns + ns : ns > ref->plus_ns ? 0 : ref->plus_ns - ns;
		return true;
	}
	if (text[0] == '@') {
		double v;
		size_t n = read_number(text + 1, &v);
		if (!n || text[1 + n] || v > MAX_EPOCH) {
			snprintf(why, len, "'%s': want @SECONDS since the epoch, digits only, up to %.0f (the year 2540)", text,
				 MAX_EPOCH);
			return false;
		}
		*wall_ns = (uint64_t)(v * 1e9);
		return true;
	}
	if (date_time(text, wall_ns))
		return true;
	long secs = clock_time(text);
	time_t t;
	if (secs >= 0 && on_day(ref->day_ns, secs, &t)) {
		*wall_ns = (uint64_t)t * 1000000000ull;
		return true;
	}
	snprintf(why, len, "'%s': want %s%s", text, MOMENT_GRAMMAR, ref->minus ? " or -DURATION" : "");
	return false;
}

void moment_text(uint64_t wall_ns, char *buf, size_t len)
{
	time_t t = (time_t)(wall_ns / 1000000000ull);
	struct tm tm;
	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "@%llu", (unsigned long long)(wall_ns / 1000000000ull));
}
