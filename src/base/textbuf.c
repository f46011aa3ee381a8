/* SPDX-License-Identifier: GPL-2.0-only */
/* textbuf.c - a growing text buffer with the few formats batch output needs, written
 * here so an interval runs no printf: what each writes is exactly what printf would (the
 * Check tests compare them), and anything the fast way cannot promise goes to printf. */
#include "base/textbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numtext.h"
#include "base/util.h"

/* room for n more bytes and the terminating NUL */
static char *room(struct textbuf *tb, size_t n)
{
	if (tb->len + n + 1 > tb->cap) {
		size_t cap = tb->cap ? tb->cap : 256;
		while (cap < tb->len + n + 1)
			cap *= 2;
		tb->data = xrealloc_used(tb->data, tb->len, cap);
		tb->cap = cap;
	}
	return tb->data + tb->len;
}

void textbuf_clear(struct textbuf *tb)
{
	tb->len = 0;
	if (tb->data)
		tb->data[0] = '\0';
}

void textbuf_free(struct textbuf *tb)
{
	free(tb->data);
	*tb = (struct textbuf){ 0 };
}

void textbuf_putn(struct textbuf *tb, const char *s, size_t n)
{
	memcpy(room(tb, n), s, n);
	tb->len += n;
	tb->data[tb->len] = '\0';
}

void textbuf_put(struct textbuf *tb, const char *s)
{
	textbuf_putn(tb, s, strlen(s));
}

void textbuf_putc(struct textbuf *tb, char c)
{
	textbuf_putn(tb, &c, 1);
}

void textbuf_pad(struct textbuf *tb, char c, size_t n)
{
	memset(room(tb, n), c, n);
	tb->len += n;
	tb->data[tb->len] = '\0';
}

void textbuf_u64(struct textbuf *tb, uint64_t v)
{
	char digits[20];
	int n = 0;
	do {
		digits[sizeof(digits) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	textbuf_putn(tb, digits + sizeof(digits) - n, (size_t)n);
}

void textbuf_int(struct textbuf *tb, long long v)
{
	if (v < 0)
		textbuf_putc(tb, '-');
	textbuf_u64(tb, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

void textbuf_hex(struct textbuf *tb, uint64_t v)
{
	char digits[16];
	int n = 0;
	do {
		digits[sizeof(digits) - 1 - n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	textbuf_putn(tb, "0x", 2);
	textbuf_putn(tb, digits + sizeof(digits) - n, (size_t)n);
}

void textbuf_g10(struct textbuf *tb, double v)
{
	char buf[40];
	int n = format_g10(buf, sizeof(buf), v);
	textbuf_putn(tb, buf, n > 0 && (size_t)n < sizeof(buf) ? (size_t)n : strlen(buf));
}

void textbuf_fixed(struct textbuf *tb, double v, int decimals)
{
	static const double pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
	if (decimals >= 0 && decimals <= 6 && fabs(v) < 1e9 && !(v == 0 && signbit(v))) {
		/* one correctly rounded product; a fraction near one half may be the product's
		 * rounding, not the value's, and goes to printf */
		double s = fabs(v) * pow10[decimals], fl = floor(s), frac = s - fl;
		if (fabs(frac - 0.5) > 1e-6) {
			uint64_t m = (uint64_t)fl + (frac > 0.5), unit = (uint64_t)pow10[decimals];
			if (v < 0) /* printf keeps the sign of a negative that rounds to zero */
				textbuf_putc(tb, '-');
			textbuf_u64(tb, m / unit);
			if (decimals) {
				char frac_digits[6];
				uint64_t r = m % unit;
				for (int i = decimals - 1; i >= 0; i--, r /= 10)
					frac_digits[i] = (char)('0' + r % 10);
				textbuf_putc(tb, '.');
				textbuf_putn(tb, frac_digits, (size_t)decimals);
			}
			return;
		}
	}
	textbuf_printf(tb, "%.*f", decimals, v);
}

void textbuf_printf(struct textbuf *tb, const char *fmt, ...)
{
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int n = vsnprintf_c(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0) {
		vsnprintf_c(room(tb, (size_t)n), (size_t)n + 1, fmt, again);
		tb->len += (size_t)n;
	}
	va_end(again);
}

void textbuf_escape_controls(struct textbuf *tb)
{
	size_t i = 0;
	while (i < tb->len && ((unsigned char)tb->data[i] >= 0x20 || tb->data[i] == '\n') && tb->data[i] != 0x7f)
		i++;
	if (i == tb->len)
		return;
	char *safe = str_escape_controls(tb->data + i); /* a NUL inside ends it, as a terminal would */
	tb->len = i;
	textbuf_put(tb, safe);
	free(safe);
}
