/* SPDX-License-Identifier: GPL-2.0-only */
/* numtext.c - "%.10g" without printf's multi-precision path.
 *
 * Ten significant digits are the integer m = round(|v| * 10^(9 - e)), e the decimal
 * exponent. The scaling is one correctly rounded multiplication or division (powers of
 * ten up to 1e22 are exact doubles), so m is right unless |v| * 10^k lies within a hair
 * of a half: those values, and anything outside 1e-300..1e300, go to snprintf, which
 * keeps the output identical to printf's. */
#include "base/numtext.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static const double pow10_exact[] = { 1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

static int slow(char *buf, size_t len, double v)
{
	return snprintf_c(buf, len, "%.10g", v);
}

/* |v| * 10^k, k in -22..22, in one rounding */
static double scale(double a, int k)
{
	return k >= 0 ? a * pow10_exact[k] : a / pow10_exact[-k];
}

int format_g10(char *buf, size_t len, double v)
{
	double a = fabs(v);
	if (v == 0 && len > 2) { /* "0", "-0": a count that did not move, each interval */
		strcpy(buf, signbit(v) ? "-0" : "0");
		return signbit(v) ? 2 : 1;
	}
	if (!(a >= 1e-12 && a < 1e22))
		return slow(buf, len, v); /* inf, nan, a short buffer's zero, the far exponents */
	int e = (int)floor(log10(a)); /* -12..21: 9 - e stays within the exact powers */
	/* log10 may be one off near powers of ten: settle e so 1e9 <= a*10^(9-e) < 1e10 */
	double s = scale(a, 9 - e);
	if (s >= 1e10) {
		e++;
		s = scale(a, 9 - e);
	} else if (s < 1e9) {
		e--;
		s = scale(a, 9 - e);
	}
	if (s < 1e9 || s >= 1e10 || 9 - e > 22 || 9 - e < -22)
		return slow(buf, len, v);
	double fl = floor(s), frac = s - fl;
	/* s carries the scaling's rounding (half an ulp, ~1e-6 at this size): a fraction
	 * that close to one half may round the other way exactly */
	if (fabs(frac - 0.5) < 1e-4)
		return slow(buf, len, v);
	uint64_t m = (uint64_t)fl + (frac > 0.5);
	if (m >= 10000000000ull) { /* 9999999999.7 rounds up a decade */
		m /= 10;
		e++;
	}
	char digits[11];
	for (int i = 9; i >= 0; i--) {
		digits[i] = (char)('0' + m % 10);
		m /= 10;
	}
	int nd = 10; /* significant digits once trailing zeros go, as %g drops them */
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	char out[40];
	int n = 0;
	if (v < 0)
		out[n++] = '-';
	if (e < -4 || e >= 10) { /* d.ddde+XX */
		out[n++] = digits[0];
		if (nd > 1) {
			out[n++] = '.';
			memcpy(out + n, digits + 1, (size_t)nd - 1);
			n += nd - 1;
		}
		int x = e < 0 ? -e : e; /* two digits: |e| <= 22 here */
		out[n++] = 'e';
		out[n++] = e < 0 ? '-' : '+';
		out[n++] = (char)('0' + x / 10);
		out[n++] = (char)('0' + x % 10);
	} else if (e >= 0) { /* integer part e+1 digits, then what is left */
		for (int i = 0; i <= e; i++)
			out[n++] = i < nd ? digits[i] : '0';
		if (nd > e + 1) {
			out[n++] = '.';
			memcpy(out + n, digits + e + 1, (size_t)(nd - e - 1));
			n += nd - e - 1;
		}
	} else { /* 0.000ddd */
		out[n++] = '0';
		out[n++] = '.';
		for (int i = 0; i < -e - 1; i++)
			out[n++] = '0';
		memcpy(out + n, digits, (size_t)nd);
		n += nd;
	}
	out[n] = '\0';
	if (len) {
		size_t c = (size_t)n < len ? (size_t)n : len - 1;
		memcpy(buf, out, c);
		buf[c] = '\0';
	}
	return n;
}

/* the proleptic Gregorian date of a day count from 1970-01-01 (days_from_civil's
 * inverse, in 400-year eras of 146 097 days) */
static void civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
	days += 719468; /* from 0000-03-01 */
	int64_t era = (days >= 0 ? days : days - 146096) / 146097;
	unsigned doe = (unsigned)(days - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static void two_digits(char *at, unsigned v)
{
	at[0] = (char)('0' + v / 10 % 10);
	at[1] = (char)('0' + v % 10);
}

int format_utc_ms(char *buf, size_t len, uint64_t ns)
{
	uint64_t ms = ns / 1000000u, s = ms / 1000;
	int64_t y;
	unsigned mo, d, sod = (unsigned)(s % 86400);
	civil_from_days((int64_t)(s / 86400), &y, &mo, &d);
	char out[25] = "0000-00-00T00:00:00.000Z";
	if (y < 0 || y > 9999) { /* not a clock pmutop will meet: printf it */
		return snprintf_c(buf, len, "%lld-%02u-%02uT%02u:%02u:%02u.%03uZ", (long long)y, mo, d, sod / 3600,
				  sod / 60 % 60, sod % 60, (unsigned)(ms % 1000));
	}
	two_digits(out, (unsigned)(y / 100));
	two_digits(out + 2, (unsigned)(y % 100));
	two_digits(out + 5, mo);
	two_digits(out + 8, d);
	two_digits(out + 11, sod / 3600);
	two_digits(out + 14, sod / 60 % 60);
	two_digits(out + 17, sod % 60);
	out[20] = (char)('0' + ms % 1000 / 100);
	two_digits(out + 21, (unsigned)(ms % 100));
	if (len) {
		size_t c = len - 1 < 24 ? len - 1 : 24;
		memcpy(buf, out, c);
		buf[c] = '\0';
	}
	return 24;
}

int format_int(char *buf, size_t len, long long v)
{
	char digits[24];
	int n = 0;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		digits[n++] = '-';
	for (int i = 0; i < n && (size_t)i + 1 < len; i++)
		buf[i] = digits[n - 1 - i];
	if (len)
		buf[(size_t)n < len ? (size_t)n : len - 1] = '\0';
	return n;
}

int format_g7_or_whole(char *buf, size_t len, double v)
{
	if (v == floor(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v))) /* a count: every digit */
		return format_int(buf, len, (long long)v);
	if (!isfinite(v) || v == floor(v))
		return format_g10(buf, len, v);
	return snprintf_c(buf, len, "%.7g", v);
}
