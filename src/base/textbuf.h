/* SPDX-License-Identifier: GPL-2.0-only */
/* textbuf.h - text built in memory, a piece at a time: batch output writes each interval
 * whole, and a growing buffer of its own keeps stdio's printf machinery (a dozen pages
 * of libc code, cold at every one-second refresh) out of the interval. */
#ifndef PMUTOP_TEXTBUF_H
#define PMUTOP_TEXTBUF_H

#include <stddef.h>
#include <stdint.h>

struct textbuf {
	char *data; /* NUL-terminated once anything was put */
	size_t len, cap;
};

void textbuf_clear(struct textbuf *tb); /* empty, the memory kept */
void textbuf_free(struct textbuf *tb);
void textbuf_putn(struct textbuf *tb, const char *s, size_t n);
void textbuf_put(struct textbuf *tb, const char *s);
void textbuf_putc(struct textbuf *tb, char c);
void textbuf_pad(struct textbuf *tb, char c, size_t n);
void textbuf_u64(struct textbuf *tb, uint64_t v);
void textbuf_int(struct textbuf *tb, long long v);
void textbuf_hex(struct textbuf *tb, uint64_t v); /* "0x1f", as printf's "0x%llx" */
void textbuf_g10(struct textbuf *tb, double v);   /* printf's "%.10g" */
/* printf's "%.<decimals>f" in the C locale (decimals 0..6) */
void textbuf_fixed(struct textbuf *tb, double v, int decimals);
void textbuf_printf(struct textbuf *tb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text for a terminal: control bytes (but newlines) as \xNN (str_escape_controls);
 * one pass and nothing moved when there are none. */
void textbuf_escape_controls(struct textbuf *tb);

#endif
