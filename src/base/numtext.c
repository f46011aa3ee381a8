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
	if (v == 0 || !(a >= 1e-12 && a < 1e22))
		return slow(buf, len, v); /* zero's sign, inf, nan, and the far exponents */
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
