/* SPDX-License-Identifier: GPL-2.0-only */
/* batch_escape.c - numbers and strings as batch's JSON and CSV write them. */
#include "outputs/batch_escape.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/textbuf.h"

/* A JSON number; an infinite value (x / 0 is no value, but a formula may still overflow)
 * is 1e999, which is valid JSON and what JSON parsers read back as infinity, so it keeps
 * the state "ok" that CSV and text give it. */
void batch_json_num(struct textbuf *tb, double v)
{
	if (isinf(v))
		textbuf_put(tb, v > 0 ? "1e999" : "-1e999");
	else
		textbuf_g10(tb, v);
}

/* JSON string body: our names are plain, but escape anyway. */
void batch_json_string(struct textbuf *tb, const char *s)
{
	textbuf_putc(tb, '"');
	while (*s) {
		size_t plain = 0; /* a run written whole: a character at a time was a JSON frame's cost */
		while (s[plain] && s[plain] != '"' && s[plain] != '\\' && (unsigned char)s[plain] >= 0x20)
			plain++;
		textbuf_putn(tb, s, plain);
		s += plain;
		if (!*s)
			break;
		unsigned char c = (unsigned char)*s++;
		if (c == '"' || c == '\\') {
			textbuf_putc(tb, '\\');
			textbuf_putc(tb, (char)c);
		} else {
			textbuf_put(tb, "\\u00");
			textbuf_putc(tb, "0123456789abcdef"[c >> 4]);
			textbuf_putc(tb, "0123456789abcdef"[c & 15]);
		}
	}
	textbuf_putc(tb, '"');
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* A field as RFC 4180 quotes it; a control byte (from a recording's metadata, a profile's
 * unit, a sensor's label) as \xNN, as text and JSON escape it: never raw to a terminal. */
void batch_csv_field(struct textbuf *tb, const char *s)
{
	if (!strpbrk(s, ",\"") && !has_control(s)) {
		textbuf_put(tb, s);
		return;
	}
	textbuf_putc(tb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"')
			textbuf_putc(tb, '"');
		if (c < 0x20 || c == 0x7f) {
			textbuf_put(tb, "\\x");
			textbuf_putc(tb, "0123456789abcdef"[c >> 4]);
			textbuf_putc(tb, "0123456789abcdef"[c & 15]);
		} else {
			textbuf_putc(tb, *s);
		}
	}
	textbuf_putc(tb, '"');
}

