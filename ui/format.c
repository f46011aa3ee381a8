/* SPDX-License-Identifier: GPL-2.0-only */
/* format.c - numbers for people: three significant digits, units scaled to the value.
 * Few digits also mean fewer changed cells per refresh, which is what an ssh link pays for. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"
#include "base/util.h"

/* v with 'decimals' digits after the point, as %.Nf would print it: integer arithmetic,
 * because every value on screen goes through here every frame. */
static void fixed(double v, int decimals, char *num, size_t n)
{
	static const long long pow10[] = { 1, 10, 100, 1000, 10000, 100000 };
	if (!isfinite(v) || fabs(v) >= 9e15 / pow10[decimals]) {
		snprintf(num, n, "%.*f", decimals, v);
		return;
	}
	long long scaled = llround(fabs(v) * (double)pow10[decimals]);
	char tmp[32];
	int len = 0;
	for (int d = 0; d < decimals; d++, scaled /= 10)
		tmp[len++] = (char)('0' + scaled % 10);
	if (decimals)
		tmp[len++] = '.';
	do {
		tmp[len++] = (char)('0' + scaled % 10);
		scaled /= 10;
	} while (scaled);
	if (v < 0 && (len > 1 || tmp[0] != '0'))
		tmp[len++] = '-';
	size_t k = 0;
	while (len > 0 && k + 1 < n)
		num[k++] = tmp[--len];
	num[k] = '\0';
}

/* Three significant digits: enough to read a rate, and a steady rate keeps its digits.
 * The digits are counted after rounding (99.996 is "100", not "100.0"), and below 1 the
 * leading zeros do not count (0.468 is "0.468", 0.0468 is "0.0468"). */
static void sig3(double v, char *num, size_t n)
{
	double a = fabs(v);
	int d;
	if (a == 0 || a >= 1) {
		d = a >= 100 ? 0 : a >= 10 ? 1 : 2;
	} else {
		d = 2 - (int)floor(log10(a));
		if (d > 5)
			d = 5;
	}
	static const double pow10[] = { 1, 10, 100, 1e3, 1e4, 1e5 };
	double shown = round(a * pow10[d]) / pow10[d];
	if (a > 0 && shown >= 1 && d > 2) /* 0.9996 rounds to 1.00 */
		d = 2;
	if (d == 2 && round(a * 100) / 100 >= 10)
		d = 1;
	if (d == 1 && round(a * 10) / 10 >= 100)
		d = 0;
	fixed(v, d, num, n);
}

void format_human(double v, const char *unit, char *num, size_t nlen, char *u, size_t ulen)
{
	/* units a value moves along, x1000 a step, so it shows 1 to 999 of one of them
	 * (Xeon's 61613 MB/s is 61.6 GB/s; HNS3's 1506 ns is 1.51 us) */
	static const char *const ladders[][4] = {
		{ "KB/s", "MB/s", "GB/s", "TB/s" },
		{ "kHz", "MHz", "GHz", NULL },
		{ "uW", "mW", "W", "kW" },
		{ "ns", "us", "ms", "s" },
	};
	str_copy(u, ulen, unit);
	if (isnan(v)) {
		snprintf(num, nlen, "-");
		return;
	}
	const char *const *ladder = NULL;
	int at = -1;
	for (size_t i = 0; i < sizeof(ladders) / sizeof(ladders[0]) && at < 0; i++)
		for (int k = 0; k < 4 && at < 0; k++)
			if (ladders[i][k] && !strcmp(unit, ladders[i][k])) {
				ladder = ladders[i];
				at = k;
			}
	if (ladder) {
		bool up = false; /* 999.6 ns is 1.00 us, not back down to 1000 ns */
		while (fabs(v) >= 999.5 && at < 3 && ladder[at + 1]) {
			v /= 1000;
			at++;
			up = true;
		}
		while (!up && fabs(v) < 1 && v != 0 && at > 0) {
			v *= 1000;
			at--;
		}
		str_copy(u, ulen, ladder[at]);
		if (!strcmp(ladder[at], "ns")) { /* at most one decimal: tenths of a nanosecond */
			fixed(v, fabs(v) >= 99.95 ? 0 : 1, num, nlen);
			return;
		}
		sig3(v, num, nlen);
		return;
	}
	if (!strcmp(unit, "%") || !strncmp(unit, "percent", 7)) { /* perf's Arm "percent of slots" */
		str_copy(u, ulen, "%");
		fixed(v, 1, num, nlen);
		return;
	}
	/* counts and rates: k, M, G suffixes; none at all is "0", not "0.00 errors" */
	if (v == 0) {
		snprintf(num, nlen, "0");
		return;
	}
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	int s = 0;
	while (fabs(v) >= 1000 && s < 4) {
		v /= 1000;
		s++;
	}
	sig3(v, num, nlen);
	if (s) {
		size_t n = strlen(num);
		str_copy(num + n, nlen - n, suffix[s]);
	}
}

/* The value to show, given the one on screen: a change smaller than 3/4 of the last
 * displayed digit, or than 0.5 % of the value, is flicker rather than information (and
 * every changed cell costs bytes on an ssh link). Batch output keeps full precision. */
double display_hysteresis(double shown, double v)
{
	if (isnan(shown) || isnan(v) || shown == 0 || (shown < 0) != (v < 0))
		return v;
	double quantum = pow(10, floor(log10(fabs(shown))) - 2);
	double band = fmax(0.75 * quantum, 0.005 * fabs(shown));
	return fabs(v - shown) < band ? shown : v;
}
